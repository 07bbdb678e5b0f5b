"""Raw Server-Sent Events -> parsed JSON messages.

Owns: the SSE framing (a lean decoder over the response bytes: `data:`/`event:` fields, any of
the three line endings, comments), content-type check, keep-alives, the `[DONE]` marker,
in-stream error events, and the mapping of broken or silent connections to
`IncompleteStreamError`. Every raw event is recorded on the exchange. The decoder replaced
httpx-sse on the hot path (see README, Benchmarks): it splits whole frames with bytes
operations instead of decoding line by line, and JSON is parsed with orjson. A chunked body is
read straight from the connection (`body.iter_body`), and a read's events are recorded and
decoded one at a time as they are taken (see `_messages`).
"""

from __future__ import annotations

from playground.client.texts import Text

import json
from collections.abc import AsyncIterator, Iterator
from typing import Any, NamedTuple

import httpx
import orjson

from playground.client.body import iter_body
from playground.client.errors import (
    GatewayError,
    IncompleteStreamError,
    MalformedEventError,
    StreamEventError,
    error_from_status,
    extract_error,
)
from playground.client.exchange import RecordedEvent
from playground.client.transport import Exchange

KEEPALIVE_EVENTS = frozenset({"ping", "keepalive", "keep-alive"})


class SSEMessage(NamedTuple):
    """One decoded event: its `event:` name (if any) and its JSON `data` (immutable; a named
    tuple because one is made per event, at a third of a frozen dataclass's cost)."""

    event: str | None
    data: Any
    source: int = -1
    """The index of the raw event it came from in its exchange's record (-1: none)."""


DONE = SSEMessage("done", None)


def _is_error_payload(event: str | None, data: Any) -> bool:
    if event == "error":
        return True
    return isinstance(data, dict) and "error" in data and data.get("type") in (None, "error") and "choices" not in data


class FrameDecoder:
    """Bytes in any chunking -> (event name or None, data) per SSE event. `feed` each chunk,
    then `flush` once for a last event without its blank line."""

    __slots__ = ("_pending",)

    def __init__(self) -> None:
        self._pending = b""

    def feed(self, chunk: bytes) -> list[tuple[str | None, str]]:
        pending = self._pending
        if b"\r" in chunk or pending.endswith(b"\r"):
            chunk = (pending + chunk).replace(b"\r\n", b"\n")
            pending = b""
            if chunk.endswith(b"\r"):
                chunk, pending = chunk[:-1], b"\r"
            chunk = chunk.replace(b"\r", b"\n")
        elif pending:
            chunk = pending + chunk
            pending = b""
        if chunk.endswith(b"\n\n") and chunk.find(b"\n\n") == len(chunk) - 2:  # one whole event: the usual chunk
            self._pending = pending
            frame = _frame(chunk[:-2])
            return [frame] if frame is not None else []
        blocks = chunk.split(b"\n\n")
        self._pending = blocks.pop() + pending
        return [frame for frame in map(_frame, blocks) if frame is not None]

    def flush(self) -> list[tuple[str | None, str]]:
        pending, self._pending = self._pending, b""
        if not pending.strip(b"\r\n"):
            return []
        frame = _frame(pending.replace(b"\r", b"\n"))
        return [frame] if frame is not None else []


async def iter_frames(response: httpx.Response) -> AsyncIterator[tuple[str | None, str]]:
    """(event name or None, data) per SSE event; a last event without its blank line still counts."""
    decoder = FrameDecoder()
    async for chunk in response.aiter_bytes():
        for frame in decoder.feed(chunk):
            yield frame
    for frame in decoder.flush():
        yield frame


def _frame(block: bytes) -> tuple[str | None, str] | None:
    if block.startswith(b"data: ") and b"\n" not in block:
        return None, block[6:].decode("utf-8", "replace")
    if block.startswith(b"event: "):  # `event: NAME` then one `data: ...` line, as most gateways send
        end = block.find(b"\n")
        if end > 7 and block.startswith(b"data: ", end + 1) and block.find(b"\n", end + 1) < 0:
            named = block[7:end].decode("utf-8", "replace")
            return (None if named == "message" else named), block[end + 7:].decode("utf-8", "replace")
    event: str | None = None
    data: list[bytes] = []
    for line in block.split(b"\n"):
        if not line or line.startswith(b":"):
            continue
        name, _, value = line.partition(b":")
        if value.startswith(b" "):
            value = value[1:]
        if name == b"data":
            data.append(value)
        elif name == b"event":
            event = value.decode("utf-8", "replace") or None
    if not data and event is None:
        return None
    return (None if event == "message" else event), b"\n".join(data).decode("utf-8", "replace")


def _body_chunks(response: httpx.Response) -> AsyncIterator[bytes]:
    """The body as it arrives: raw when it is not content-encoded (skips httpx's decoder pass),
    a chunked body straight from the connection (`body.iter_body`: one piece per read)."""
    encoding = response.headers.get("content-encoding", "identity").strip().lower()
    return iter_body(response) if encoding in ("", "identity") else response.aiter_bytes()


def _messages(frames: list[tuple[str | None, str]], exchange: Exchange) -> Iterator[SSEMessage]:
    """The messages of one read's frames, each recorded (without secrets, with the read's time)
    and decoded when it is asked for: only one decoded event is alive at a time, so a read of
    many events does not push them all through the garbage collector's generations. `[DONE]`
    is `DONE`; keep-alives and empty events are no message; an event that is not JSON or that
    carries an error raises (after the messages before it were handed over)."""
    at = exchange.elapsed()
    secrets = exchange.redactor.secrets
    redact = exchange.redactor.event_data
    loads = orjson.loads
    for event, raw in frames:
        if secrets:  # most events carry no secret and no escape that could spell one
            if "\\" in raw:
                raw = redact(raw)
            else:
                for secret in secrets:
                    if secret in raw:
                        raw = redact(raw)
                        break
        raws = exchange.raw_record()
        if raws is not None:
            raws.append((at, event, raw))
            source = len(raws) - 1
        else:
            events = exchange.events
            events.append(RecordedEvent(at, event, raw))
            source = len(events) - 1
        payload = raw if raw[:1] == "{" and raw[-1:] == "}" else raw.strip()
        if not payload or event in KEEPALIVE_EVENTS:
            continue
        if payload == "[DONE]":
            yield DONE
            continue
        try:
            data = loads(payload)
        except orjson.JSONDecodeError:
            raise MalformedEventError(Text("sse.event_not_json", payload=repr(payload[:120]))) from None
        if event == "error" or (isinstance(data, dict) and "error" in data and _is_error_payload(event, data)):
            message, error_type = extract_error(data)
            raise StreamEventError(message or payload[:200], error_type)
        yield SSEMessage(event, data, source)


def drain(messages: Iterator[SSEMessage]) -> None:
    """Record what is left of a read's messages (after the end marker, an error or a stop), so
    the record has every event that arrived; their errors no longer matter."""
    try:
        for _ in messages:
            pass
    except GatewayError:
        pass


async def iter_message_batches(response: httpx.Response, exchange: Exchange, read_timeout: float) -> AsyncIterator[Iterator[SSEMessage]]:
    """The messages of each read (one step per read, not per event: with a whole body in a read
    that is many), decoded as they are taken (see `_messages`; `drain` one that is left early);
    `DONE` stands for `data: [DONE]`. Reading goes on after `[DONE]` with whatever a misbehaving
    gateway sends, so the record is complete. An event that fails ends the stream with its error
    after the messages before it were handed over."""
    content_type = response.headers.get("content-type", "")
    if "text/event-stream" not in content_type:
        raw = exchange.redactor.raw(await response.aread())
        try:
            body: Any = exchange.redactor.value(json.loads(raw))
        except (ValueError, RecursionError):
            body = raw.decode("utf-8", "replace")
        exchange.response_body = body
        if isinstance(body, dict) and "error" in body:
            raise error_from_status(response.status_code, body)
        raise MalformedEventError(Text("sse.not_event_stream", content_type=content_type or Text("sse.no_content_type")))
    decoder = FrameDecoder()
    try:
        async for chunk in _body_chunks(response):
            frames = decoder.feed(chunk)
            if frames:
                yield _messages(frames, exchange)
        frames = decoder.flush()
        if frames:
            yield _messages(frames, exchange)
    except httpx.ReadTimeout:
        raise IncompleteStreamError(Text("sse.silent_timeout", seconds=read_timeout)) from None
    except (httpx.RemoteProtocolError, httpx.ReadError, httpx.NetworkError):
        raise IncompleteStreamError(Text("sse.connection_cut")) from None
