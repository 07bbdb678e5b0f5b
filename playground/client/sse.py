"""Raw Server-Sent Events -> parsed JSON messages (httpx-sse underneath).

Owns: content-type check, keep-alives, the `[DONE]` marker, in-stream error events, and the
mapping of broken or silent connections to `IncompleteStreamError`. Every raw event is
recorded on the exchange.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import httpx
from httpx_sse import EventSource, SSEError

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


async def iter_messages(response: httpx.Response, exchange: Exchange, read_timeout: float) -> AsyncIterator[SSEMessage]:
    """Yield decoded messages; yields `DONE` when the stream sends `data: [DONE]` (and goes on
    with whatever a misbehaving gateway sends after it, so the record is complete)."""
    content_type = response.headers.get("content-type", "")
    if "text/event-stream" not in content_type:
        raw = await response.aread()
        try:
            body: Any = json.loads(raw)
        except ValueError:
            body = raw.decode("utf-8", "replace")
        exchange.response_body = body
        if isinstance(body, dict) and "error" in body:
            raise error_from_status(response.status_code if response.status_code >= 400 else 502, body)
        raise MalformedEventError(f"Expected an event stream but the gateway sent {content_type or 'no content type'}.")
    try:
        async for sse in EventSource(response).aiter_sse():
            exchange.record_event(sse.event if sse.event != "message" else None, sse.data)
            payload = sse.data.strip()
            if not payload or sse.event in KEEPALIVE_EVENTS:
                continue
            if payload == "[DONE]":
                yield DONE
                continue
            try:
                data = json.loads(payload)
            except ValueError:
                raise MalformedEventError(f"The gateway sent an event that is not JSON: {payload[:120]!r}.") from None
            event = sse.event if sse.event and sse.event != "message" else None
            if _is_error_payload(event, data):
                message, error_type = extract_error(data)
                raise StreamEventError(message or payload[:200], error_type)
            yield SSEMessage(event, data)
    except httpx.ReadTimeout:
        raise IncompleteStreamError(f"The stream went silent for {read_timeout:g} s and was closed.") from None
    except (httpx.RemoteProtocolError, httpx.ReadError, httpx.NetworkError):
        raise IncompleteStreamError("The connection was cut before the stream finished.") from None
    except SSEError as exc:
        raise MalformedEventError(f"The event stream could not be read: {exc}.") from None
