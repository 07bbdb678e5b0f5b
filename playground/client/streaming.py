"""The typed-stream machinery every text interface shares.

A `TextStream` opens one SSE call, turns each wire message into interface-neutral events
(`results.StreamEvent`) through its subclass's `parse`, folds them into a `TextResult`, and
reports a stream that ends without its end marker as `IncompleteStreamError` with the partial
result attached.
"""

from __future__ import annotations

from playground.client.texts import Text

import asyncio
import json
from collections.abc import AsyncIterator, Iterator
from contextlib import AsyncExitStack
from dataclasses import replace
from typing import Any, Generic, TypeVar

from playground.client.errors import (
    GatewayError,
    IncompleteStreamError,
    MalformedEventError,
    UnexpectedResponseError,
    error_in_answer,
)
from playground.client.exchange import NO_SECRETS, StreamRedactor
from playground.client.results import (
    Finished,
    ReasoningDelta,
    StreamEvent,
    TextDelta,
    TextReplaced,
    TextResult,
    ToolCallDelta,
    Usage,
    UsageReport,
)
from playground.client.sse import DONE, SSEMessage, drain, iter_message_batches
from playground.client.transport import Connection, Exchange, Transport


DRAIN_SECONDS = 0.5
MAX_TOOL_CALLS = 1000
"""A tool call index past this is not a tool call but a malformed event (and no list grows to it)."""
SHAPE_ERRORS = (AttributeError, TypeError, KeyError, IndexError, ValueError, RecursionError)


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _clean_usage(usage: Usage) -> None:
    """Token counts that are not counts (text, negative, true/false) are left out, not shown."""
    for name in ("input_tokens", "output_tokens", "total_tokens", "reasoning_tokens", "cached_tokens", "cache_creation_tokens",
                 "cache_creation_1h_tokens"):
        setattr(usage, name, _count(getattr(usage, name)))


def shape_problem(event: StreamEvent) -> str | None:
    """What is wrong with a parsed event's types (None: nothing), so no wrong-typed value reaches a result."""
    if isinstance(event, (TextDelta, ReasoningDelta, TextReplaced)):
        return None if isinstance(event.text, str) else Text("streaming.text_delta_not_text", kind=type(event.text).__name__)
    if isinstance(event, ToolCallDelta):
        if _count(event.index) is None or event.index >= MAX_TOOL_CALLS:
            return Text("streaming.tool_call_index_not_small", index=repr(event.index)[:40])
        if not isinstance(event.arguments, str) or not all(v is None or isinstance(v, str) for v in (event.id, event.name)):
            return Text("streaming.tool_call_fields_not_text")
        return None
    if isinstance(event, Finished):
        return None if event.reason is None or isinstance(event.reason, str) else Text("streaming.finish_reason_not_text")
    if isinstance(event, UsageReport):
        if not isinstance(event.usage, Usage):
            return Text("streaming.usage_not_object")
        _clean_usage(event.usage)
    return None


def result_problem(result: TextResult) -> str | None:
    """The same checks for a whole answer's result."""
    if not isinstance(result.text, str) or not isinstance(result.reasoning, str):
        return Text("streaming.result_text_not_text")
    if any(not isinstance(call.name, str) or not isinstance(call.arguments, str) or not isinstance(call.id, str) for call in result.tool_calls):
        return Text("streaming.tool_call_fields_not_text")
    if result.finish_reason is not None and not isinstance(result.finish_reason, str):
        return Text("streaming.result_finish_reason_not_text")
    if result.usage is not None:
        _clean_usage(result.usage)
    return None


def _malformed(message: SSEMessage, problem: str) -> MalformedEventError:
    kind = message.data.get("type") if isinstance(message.data, dict) else None
    named = f" ({str(kind)[:60]})" if isinstance(kind, str) else ""
    return MalformedEventError(Text("streaming.event_unexpected_shape", kind=named, problem=problem))


async def _record_rest(batches: AsyncIterator[Iterator[SSEMessage]]) -> None:
    """After the end marker, read (and so record) what else arrives before the connection
    closes, for a short while: a stream validator must see events sent after the end."""
    try:
        async with asyncio.timeout(DRAIN_SECONDS):
            async for batch in batches:
                drain(batch)
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
        self._redact = StreamRedactor(conn.redactor if conn is not None else NO_SECRETS)
        """Secrets split across deltas: caught here, before a piece reaches the result."""
        self._redacting = bool(self._redact.redactor)

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
        feed, is_end = self.feed, self.is_end
        batch: Iterator[SSEMessage] = iter(())
        try:
            async for batch in batches:
                at = self.exchange.elapsed()  # the messages of one read arrived together
                for message in batch:
                    for event in feed(message, at):
                        yield event
                    if is_end(message):
                        self.result.complete = True
                        break
                if self.result.complete:
                    drain(batch)
                    await _record_rest(batches)
                    break
            if not self.result.complete:
                raise IncompleteStreamError(Text("streaming.ended_before_finished"))
        except GatewayError as exc:
            exc.partial = self.result
            exc.exchange = self.exchange
            self.exchange.finish(str(exc))
            raise
        finally:
            drain(batch)  # the rest of the read is recorded, as it arrived, whatever ended the stream
            if self._redacting:
                self._release_held()
            self.result.finished_at = self.exchange.elapsed()
            self.exchange.first_token_at = self.result.first_token_at
            self.exchange.finish()

    def feed(self, message: SSEMessage, at: float = 0.0) -> list[StreamEvent]:
        """One wire message -> its events, checked (a malformed event is `MalformedEventError`,
        never another exception), without secrets, folded into `result`."""
        if message is not DONE and not isinstance(message.data, dict):
            raise _malformed(message, Text("streaming.event_not_object", kind=type(message.data).__name__))
        try:
            events = self.parse(message)
        except SHAPE_ERRORS as exc:
            raise _malformed(message, f"{type(exc).__name__}: {str(exc)[:120]}") from None
        except MalformedEventError as exc:
            raise _malformed(message, exc.message) from None
        source = message.source if message.source >= 0 else self._last_source()
        apply = self.result.apply
        for position, event in enumerate(events):
            if event.__class__ is not TextDelta or not isinstance(event.text, str):  # a text delta of text: nothing to check
                problem = shape_problem(event)
                if problem:
                    raise _malformed(message, problem)
            if self._redacting:
                event = events[position] = self._without_secrets(event, source)
            apply(event, at)
        return events

    def _last_source(self) -> int:
        """The index of the last recorded raw event (for a message that does not say where it came from)."""
        return self.exchange.event_count() - 1 if self.exchange is not None else -1

    def _without_secrets(self, event: StreamEvent, source: int) -> StreamEvent:
        """The event with the connection's secrets removed; a piece that may be the start of a
        secret is held back until the next piece of its channel says (see `StreamRedactor`).
        `source` is the raw event it came in: a split secret is removed from those too."""
        redact = self._redact
        if isinstance(event, TextDelta):
            shown = redact.feed("text", event.text, source)
            if shown is not event.text:
                event = TextDelta(shown)
        elif isinstance(event, ReasoningDelta):
            shown = redact.feed("reasoning", event.text, source)
            if shown is not event.text:
                event = ReasoningDelta(shown)
        elif isinstance(event, ToolCallDelta):
            event = replace(event, id=event.id and redact.redactor.text(event.id), name=event.name and redact.redactor.text(event.name),
                            arguments=redact.feed(("tool", event.index), event.arguments, source))
        elif isinstance(event, TextReplaced):
            redact.drop("text")
            event = TextReplaced(redact.redactor.text(event.text))
        if redact.split_fragments and self.exchange is not None:
            self._clean_recorded(redact.split_fragments)
            redact.split_fragments = []
        return event

    def _clean_recorded(self, fragments: list[tuple[Any, str, str]]) -> None:
        """Remove the pieces of a split secret from the raw events they came in (the inspector's):
        the piece's JSON string is replaced by the piece without its part of the secret."""
        events = self.exchange.events if self.exchange is not None else []
        for source, piece, cleaned in fragments:
            if isinstance(source, int) and 0 <= source < len(events):
                for ascii_only in (False, True):
                    quoted = json.dumps(piece, ensure_ascii=ascii_only)
                    recorded = events[source]
                    if quoted in recorded.data:
                        events[source] = recorded._replace(data=recorded.data.replace(quoted, json.dumps(cleaned, ensure_ascii=ascii_only)))
        if self.exchange is not None:
            self.exchange.notes.append(Text("streaming.secret_split_removed"))

    def _release_held(self) -> None:
        """At the end (finished, broken or stopped): what was held back is no secret after all;
        the whole result is checked once more, the replayed turn items included."""
        at = self.exchange.elapsed() if self.exchange is not None else 0.0
        for channel, held in self._redact.flush().items():
            if channel == "text":
                self.result.apply(TextDelta(held), at)
            elif channel == "reasoning":
                self.result.apply(ReasoningDelta(held), at)
            else:
                self.result.apply(ToolCallDelta(channel[1], arguments=held), at)
        redactor = self._redact.redactor
        for name in ("text", "reasoning"):
            if redactor.found_in(getattr(self.result, name)):
                setattr(self.result, name, redactor.text(getattr(self.result, name)))
        for call in self.result.tool_calls:
            call.arguments = redactor.text(call.arguments)
        if self.result.turn_items:
            self.result.turn_items = redactor.value(self.result.turn_items)


StreamT = TypeVar("StreamT", bound=TextStream)


class TextAPI(Generic[StreamT]):
    """Non-streaming and streaming calls of one text interface (subclasses name the path,
    the stream class and how a whole response body becomes a `TextResult`)."""

    path: str
    stream_class: type[StreamT]

    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    def result_from(self, body: Any) -> TextResult:
        """A whole (non-streaming) answer as a result: a subclass gives a plain function of the body
        (`staticmethod`) or, when it needs its settings, a method."""
        raise NotImplementedError

    answer_keys: tuple[str, ...] = ()
    """Keys of which a non-streaming answer carries at least one (else it is not this interface's)."""
    answer_name = Text("streaming.answer_name")

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
        embedded = error_in_answer(data, self.answer_keys)
        if embedded is not None:
            raise embedded
        if not isinstance(data, dict) or (self.answer_keys and not any(key in data for key in self.answer_keys)):
            shown = ", ".join(list(data)[:6]) if isinstance(data, dict) else type(data).__name__
            raise UnexpectedResponseError(Text("streaming.answer_not_interface", answer=self.answer_name, keys=shown or Text("streaming.no_keys")))
        try:
            result = self.result_from(data)
        except SHAPE_ERRORS as exc:
            raise UnexpectedResponseError(Text("streaming.answer_shape_error", answer=self.answer_name, error=type(exc).__name__, detail=str(exc)[:120])) from None
        except MalformedEventError as exc:
            raise UnexpectedResponseError(Text("streaming.answer_shape", answer=self.answer_name, problem=exc.message)) from None
        problem = result_problem(result)
        if problem:
            raise UnexpectedResponseError(Text("streaming.answer_shape_problem", answer=self.answer_name, problem=problem))
        return result

    def stream(self, conn: Connection, request: Any) -> StreamT:
        path, params = self.route(request, True)
        return self.stream_class(self._transport, conn, path, self._body(request, True), params)
