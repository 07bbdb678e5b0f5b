"""The HTTP under the MCP SDK: an `httpx2` client (the SDK's own HTTP library) whose connections
pass hosted mode's egress guard, whose every exchange is recorded for the inspector with the
credential redacted, and whose answers are cut off past a size limit as they arrive."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import httpcore2
import httpx2

from playground.client.egress import BlockedAddressError, EgressGuard
from playground.client.json_depth import deeper_than
from playground.client.exchange import REDACTED, Exchange, RecordedEvent, Redactor, redact_headers
from playground.client.texts import Text

MAX_ANSWER_BYTES = 1_000_000
"""One HTTP answer from an MCP server at most (a tool list, a tool's result): 1 MB."""
RECORDED_CHARS = 64_000
"""How much of an answer the inspector keeps."""
MAX_RECORDED_DEPTH = 64
"""Deeper JSON is recorded as text (measured before `json` recurses)."""


class AnswerTooLarge(Exception):
    """An answer passed `MAX_ANSWER_BYTES`; the rest was not read."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"over {limit} bytes")
        self.limit = limit


class GuardedBackend2(httpcore2.AsyncNetworkBackend):
    """httpcore2's network backend with hosted mode's guard in front of every new connection
    (the address checked is the one connected to)."""

    def __init__(self, inner: httpcore2.AsyncNetworkBackend, guard: EgressGuard) -> None:
        self._inner = inner
        self._guard = guard

    async def connect_tcp(self, host: str, port: int, timeout: float | None = None, local_address: str | None = None,
                          socket_options: Any = None) -> httpcore2.AsyncNetworkStream:
        address = await self._guard.address_for(host, port)
        return await self._inner.connect_tcp(address, port, timeout=timeout, local_address=local_address, socket_options=socket_options)

    async def connect_unix_socket(self, path: str, timeout: float | None = None, socket_options: Any = None) -> httpcore2.AsyncNetworkStream:
        raise BlockedAddressError(Text("egress.local_sockets_not_reachable_from"))

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)


@dataclass
class Recorder:
    """The exchanges of one MCP operation, in order, without the credential."""

    redactor: Redactor
    secret_headers: frozenset[str] = frozenset()
    exchanges: list[Exchange] = field(default_factory=list)

    def request(self, request: httpx2.Request, body: bytes) -> Exchange:
        headers = {name: (REDACTED if name.lower() in self.secret_headers else value) for name, value in request.headers.items()}
        exchange = Exchange(request.method, self.redactor.text(str(request.url)), redact_headers(headers), _decoded(self.redactor.text(body.decode("utf-8", "replace"))),
                            redactor=self.redactor)
        exchange.attempts = 1
        self.exchanges.append(exchange)
        return exchange


def _decoded(text: str) -> Any:
    """A recorded body as JSON when it is JSON that nests at most `MAX_RECORDED_DEPTH` levels, else its text."""
    if not text:
        return None
    if deeper_than(text, MAX_RECORDED_DEPTH):
        return text[:RECORDED_CHARS]
    try:
        return json.loads(text)
    except ValueError:
        return text[:RECORDED_CHARS]


class _BoundedStream(httpx2.AsyncByteStream):
    """An answer's body as it arrives: counted against the limit, kept (the start) for the record."""

    def __init__(self, inner: Any, exchange: Exchange, limit: int, event_stream: bool) -> None:
        self._inner = inner
        self._exchange = exchange
        self._limit = limit
        self._event_stream = event_stream
        self._kept: list[bytes] = []
        self._size = 0

    async def __aiter__(self) -> AsyncIterator[bytes]:
        try:
            async for chunk in self._inner:
                self._size += len(chunk)
                if self._size > self._limit:
                    self._exchange.notes.append(Text("mcp.answer_cut_off", limit=self._limit))
                    raise AnswerTooLarge(self._limit)
                if self._size - len(chunk) < RECORDED_CHARS:
                    self._kept.append(chunk)
                yield chunk
        finally:
            self._close_record()

    def _close_record(self) -> None:
        exchange = self._exchange
        if exchange.finished_at is not None:
            return
        text = exchange.redactor.text(b"".join(self._kept).decode("utf-8", "replace"))[:RECORDED_CHARS]
        exchange.response_bytes = self._size
        if self._event_stream:
            record = exchange.raw_record()
            for line in text.splitlines():
                if line.startswith("data:") and record is not None:
                    record.append((exchange.elapsed(), "message", line[5:].strip()))
            exchange.response_body = None
        else:
            exchange.response_body = _decoded(text)
        exchange.finish()

    async def aclose(self) -> None:
        self._close_record()
        await self._inner.aclose()


class RecordingTransport(httpx2.AsyncBaseTransport):
    """Records each request and its answer (`Recorder`) and bounds each answer's size."""

    def __init__(self, inner: httpx2.AsyncBaseTransport, recorder: Recorder, limit: int = MAX_ANSWER_BYTES) -> None:
        self._inner = inner
        self._recorder = recorder
        self._limit = limit

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        body = await request.aread()
        exchange = self._recorder.request(request, body)
        try:
            response = await self._inner.handle_async_request(request)
        except Exception as error:
            exchange.attempt_outcomes.append(type(error).__name__)
            exchange.finish(type(error).__name__)
            raise
        exchange.status = response.status_code
        exchange.attempt_outcomes.append(str(response.status_code))
        exchange.response_headers = redact_headers(dict(response.headers))
        event_stream = response.headers.get("content-type", "").startswith("text/event-stream")
        stream = _BoundedStream(response.stream, exchange, self._limit, event_stream)
        return httpx2.Response(response.status_code, headers=response.headers, stream=stream, extensions=response.extensions)

    async def aclose(self) -> None:
        await self._inner.aclose()


def guarded_transport(guard: EgressGuard | None) -> httpx2.AsyncHTTPTransport:
    """httpx2's transport, connecting through `guard` when there is one (hosted mode)."""
    transport = httpx2.AsyncHTTPTransport()
    if guard is not None:
        transport._pool = httpcore2.AsyncConnectionPool(ssl_context=httpx2.create_ssl_context(),
                                                        network_backend=GuardedBackend2(httpcore2.AnyIOBackend(), guard))
    return transport


def http_client(recorder: Recorder, guard: EgressGuard | None, headers: dict[str, str], connect_timeout: float,
                read_timeout: float, limit: int = MAX_ANSWER_BYTES) -> httpx2.AsyncClient:
    """The client the SDK's streamable-HTTP transport uses for one operation."""
    return httpx2.AsyncClient(transport=RecordingTransport(guarded_transport(guard), recorder, limit), headers=headers,
                              timeout=httpx2.Timeout(read_timeout, connect=connect_timeout), follow_redirects=False)


def record_of(events: list[RecordedEvent]) -> list[str]:
    """The data of recorded events (tests and views)."""
    return [event.data for event in events]
