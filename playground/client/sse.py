"""Raw Server-Sent Events -> parsed JSON messages.

Owns: the SSE framing (a lean decoder over the response bytes: `data:`/`event:` fields, any of
the three line endings, comments), content-type check, keep-alives, the `[DONE]` marker,
in-stream error events, and the mapping of broken or silent connections to
`IncompleteStreamError`. Every raw event is recorded on the exchange. The decoder replaced
httpx-sse on the hot path (see README, Benchmarks): it splits whole frames with bytes
operations instead of decoding line by line, and JSON is parsed with orjson.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import httpx
import orjson

from playground.client.errors import (
    IncompleteStreamError,
    MalformedEventError,
    StreamEventError,
    error_from_status,
    extract_error,
)
from playground.client.transport import Exchange

KEEPALIVE_EVENTS = frozenset({"ping", "keepalive", "keep-alive"})


@dataclass(frozen=True)
class SSEMessage:
    """One decoded event: its `event:` name (if any) and its JSON `data`."""

    event: str | None
    data: Any


DONE = SSEMessage("done", None)


def _is_error_payload(event: str | None, data: Any) -> bool:
    if event == "error":
        return True
    return isinstance(data, dict) and "error" in data and data.get("type") in (None, "error") and "choices" not in data


async def iter_frames(response: httpx.Response) -> AsyncIterator[tuple[str | None, str]]:
    """(event name or None, data) per SSE event; a last event without its blank line still counts."""
    pending = b""
    async for chunk in response.aiter_bytes():
        if b"\r" in chunk or pending.endswith(b"\r"):
            chunk = (pending + chunk).replace(b"\r\n", b"\n")
            pending = b""
            if chunk.endswith(b"\r"):
                chunk, pending = chunk[:-1], b"\r"
            chunk = chunk.replace(b"\r", b"\n")
        else:
            chunk = pending + chunk
            pending = b""
        blocks = chunk.split(b"\n\n")
        pending = blocks.pop() + pending
        for block in blocks:
            frame = _frame(block)
            if frame is not None:
                yield frame
    if pending.strip(b"\r\n"):
        frame = _frame(pending.replace(b"\r", b"\n"))
        if frame is not None:
            yield frame


def _frame(block: bytes) -> tuple[str | None, str] | None:
    if block.startswith(b"data: ") and b"\n" not in block:
        return None, block[6:].decode("utf-8", "replace")
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


async def iter_messages(response: httpx.Response, exchange: Exchange, read_timeout: float) -> AsyncIterator[SSEMessage]:
    """Yield decoded messages; yields `DONE` when the stream sends `data: [DONE]` (and goes on
    with whatever a misbehaving gateway sends after it, so the record is complete)."""
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
        raise MalformedEventError(f"Expected an event stream but the gateway sent {content_type or 'no content type'}.")
    redactor = exchange.redactor
    try:
        async for event, raw in iter_frames(response):
            if redactor:
                raw = redactor.event_data(raw)
            exchange.record_event(event, raw)
            payload = raw.strip()
            if not payload or event in KEEPALIVE_EVENTS:
                continue
            if payload == "[DONE]":
                yield DONE
                continue
            try:
                data = orjson.loads(payload)
            except orjson.JSONDecodeError:
                raise MalformedEventError(f"The gateway sent an event that is not JSON: {payload[:120]!r}.") from None
            if _is_error_payload(event, data):
                message, error_type = extract_error(data)
                raise StreamEventError(message or payload[:200], error_type)
            yield SSEMessage(event, data)
    except httpx.ReadTimeout:
        raise IncompleteStreamError(f"The stream went silent for {read_timeout:g} s and was closed.") from None
    except (httpx.RemoteProtocolError, httpx.ReadError, httpx.NetworkError):
        raise IncompleteStreamError("The connection was cut before the stream finished.") from None
