"""The typed-stream machinery every text interface shares.

A `TextStream` opens one SSE call, turns each wire message into interface-neutral events
(`results.StreamEvent`) through its subclass's `parse`, folds them into a `TextResult`, and
reports a stream that ends without its end marker as `IncompleteStreamError` with the partial
result attached.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from typing import Any

from playground.client.errors import GatewayError, IncompleteStreamError, UnexpectedResponseError, error_from_status
from playground.client.results import StreamEvent, TextResult
from playground.client.sse import DONE, SSEMessage, iter_message_batches
from playground.client.transport import Connection, Exchange, Transport


DRAIN_SECONDS = 0.5


async def _record_rest(batches: AsyncIterator[list[SSEMessage]]) -> None:
    """After the end marker, read (and so record) what else arrives before the connection
    closes, for a short while: a stream validator must see events sent after the end."""
    try:
        async with asyncio.timeout(DRAIN_SECONDS):
            async for _ in batches:
                pass
    except (TimeoutError, GatewayError):
        pass


class TextStream:
    """`async with stream: async for event in stream: ...`, then read `stream.result`."""

    def __init__(self, transport: Transport, conn: Connection, path: str, body: dict[str, Any], params: dict[str, str] | None = None) -> None:
        self._transport = transport
        self._conn = conn
        self._path = path
        self._body = body
        self._params = params
        self._stack = AsyncExitStack()
        self._response: Any = None
        self.exchange: Exchange | None = None
        self.result = TextResult()

    def parse(self, message: SSEMessage) -> list[StreamEvent]:
        """Wire message -> neutral events. Subclasses implement it."""
        raise NotImplementedError

    def is_end(self, message: SSEMessage) -> bool:
        """Whether `message` is this interface's end marker."""
        return message is DONE

    async def __aenter__(self) -> TextStream:
        self._response, self.exchange = await self._stack.enter_async_context(
            self._transport.stream(self._conn, self._path, self._body, params=self._params)
        )
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        if self.exchange is not None and self.result.finished_at is None:
            self.result.finished_at = self.exchange.elapsed()
        await self._stack.aclose()

    async def __aiter__(self) -> AsyncIterator[StreamEvent]:
        assert self.exchange is not None, "use `async with` before iterating"
        batches = iter_message_batches(self._response, self.exchange, self._transport.read_timeout)
        result, parse, is_end = self.result, self.parse, self.is_end
        try:
            async for batch in batches:
                at = self.exchange.elapsed()  # the messages of one read arrived together
                for message in batch:
                    for event in parse(message):
                        result.apply(event, at)
                        yield event
                    if is_end(message):
                        result.complete = True
                        break
                if result.complete:
                    await _record_rest(batches)
                    break
            if not self.result.complete:
                raise IncompleteStreamError("The stream ended before the gateway said it was finished.")
        except GatewayError as exc:
            exc.partial = self.result  # type: ignore[attr-defined]
            exc.exchange = self.exchange
            self.exchange.finish(str(exc))
            raise
        finally:
            self.result.finished_at = self.exchange.elapsed()
            self.exchange.first_token_at = self.result.first_token_at
            self.exchange.finish()


class TextAPI:
    """Non-streaming and streaming calls of one text interface (subclasses name the path,
    the stream class and how a whole response body becomes a `TextResult`)."""

    path: str
    stream_class: type[TextStream]

    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    @staticmethod
    def result_from(body: Any) -> TextResult:
        raise NotImplementedError

    answer_keys: tuple[str, ...] = ()
    """Keys of which a non-streaming answer carries at least one (else it is not this interface's)."""
    answer_name = "answer"

    stream_flag = True
    """Whether the body says `stream: true/false` (the native format says it in the path instead)."""

    def route(self, request: Any, stream: bool) -> tuple[str, dict[str, str] | None]:
        """(path, query parameters) of a call; one fixed path unless the format puts more in it."""
        return self.path, None

    def _body(self, request: Any, stream: bool) -> dict[str, Any]:
        body = request.to_body()
        if self.stream_flag:
            body["stream"] = stream
        return body

    async def create(self, conn: Connection, request: Any) -> tuple[TextResult, Exchange]:
        path, params = self.route(request, False)
        data, exchange = await self._transport.request_json(conn, "POST", path, self._body(request, False), params=params)
        try:
            result = self.checked_result(data)
        except GatewayError as error:
            error.exchange = exchange
            exchange.finish(str(error))
            raise
        result.streamed = False
        result.finished_at = exchange.finished_at
        return result, exchange

    def checked_result(self, data: Any) -> TextResult:
        """A whole JSON answer -> `TextResult`, checked as strictly as a stream: an error object
        in a success answer is an error, a body of another shape is `UnexpectedResponseError`."""
        if isinstance(data, dict) and data.get("error") and not any(key in data for key in self.answer_keys):
            raise error_from_status(200, data)
        if not isinstance(data, dict) or (self.answer_keys and not any(key in data for key in self.answer_keys)):
            shown = ", ".join(list(data)[:6]) if isinstance(data, dict) else type(data).__name__
            raise UnexpectedResponseError(f"The gateway's answer is not a {self.answer_name} (it has: {shown or 'nothing'}).")
        try:
            return self.result_from(data)
        except (AttributeError, KeyError, TypeError, IndexError, ValueError) as exc:
            raise UnexpectedResponseError(f"The gateway's {self.answer_name} has an unexpected shape ({type(exc).__name__}: {exc}).") from None

    def stream(self, conn: Connection, request: Any) -> TextStream:
        path, params = self.route(request, True)
        return self.stream_class(self._transport, conn, path, self._body(request, True), params)
