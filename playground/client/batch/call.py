"""One text call through the shared client (streamed or whole), and the exchange record as a
plain dict for the run file (and back, for the inspector and curl of a finished cell)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playground.client.exchange import Exchange, RecordedEvent
from playground.client.gateway import GatewayClient
from playground.client.results import TextResult
from playground.client.transport import Connection

Started = Callable[[TextResult, Exchange], None]


async def run_request(client: GatewayClient, conn: Connection, fmt: str, request: Any,
                      started: Started | None = None) -> tuple[TextResult, Exchange]:
    """Send `request` in format `fmt` and return the whole result; `started(result, exchange)` is
    called once the stream is open, so a caller can show the answer as it grows. Raises
    `GatewayError` (with `partial` and `exchange` where the format had them)."""
    api = getattr(client, fmt)
    if not request.stream:
        result, exchange = await api.create(conn, request)
        if started is not None:
            started(result, exchange)
        return result, exchange
    async with api.stream(conn, request) as stream:
        assert stream.exchange is not None
        if started is not None:
            started(stream.result, stream.exchange)
        async for _ in stream:
            pass
    assert stream.exchange is not None
    return stream.result, stream.exchange


def exchange_dict(exchange: Exchange | None) -> dict[str, Any] | None:
    """The record of a call as JSON-ready data (already redacted: an `Exchange` holds no key)."""
    if exchange is None:
        return None
    return {"method": exchange.method, "url": exchange.url, "request_headers": exchange.request_headers,
            "request_body": exchange.request_body, "status": exchange.status, "response_body": exchange.response_body,
            "events": [[round(at, 4), name, data] for at, name, data in _events(exchange)],
            "attempts": exchange.attempts, "attempt_outcomes": exchange.attempt_outcomes, "error": exchange.error,
            "notes": exchange.notes, "first_token_at": exchange.first_token_at, "finished_at": exchange.finished_at}


def _events(exchange: Exchange) -> list[tuple[float, str | None, str]] | list[RecordedEvent]:
    """The raw events as recorded, without making a `RecordedEvent` of each when the stream's tuples are still there."""
    recorded = exchange.raw_record()
    return recorded if recorded is not None else exchange.events


def exchange_from_dict(data: Any) -> Exchange | None:
    """Rebuild an `Exchange` from `exchange_dict` output (None when it is not one)."""
    if not isinstance(data, dict) or not isinstance(data.get("method"), str) or not isinstance(data.get("url"), str):
        return None
    headers = data.get("request_headers")
    headers = headers if isinstance(headers, dict) else {}
    exchange = Exchange(data["method"], data["url"], {str(k): str(v) for k, v in headers.items()}, data.get("request_body"))
    exchange.status = data.get("status") if isinstance(data.get("status"), int) else None
    exchange.response_body = data.get("response_body")
    for item in _list(data.get("events")):
        if isinstance(item, list) and len(item) == 3 and isinstance(item[0], (int, float)) and not isinstance(item[0], bool):
            exchange.events.append(RecordedEvent(float(item[0]), item[1] if isinstance(item[1], str) else None, str(item[2])))
    attempts = data.get("attempts")
    exchange.attempts = attempts if isinstance(attempts, int) else 1
    exchange.attempt_outcomes = [str(o) for o in _list(data.get("attempt_outcomes"))]
    exchange.error = data.get("error") if isinstance(data.get("error"), str) else None
    exchange.notes = [str(n) for n in _list(data.get("notes"))]
    for name in ("first_token_at", "finished_at"):
        value = data.get(name)
        setattr(exchange, name, float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None)
    return exchange


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
