"""What a call looked like, safe to show: the `Exchange` record of every call (method, URL,
headers, body, status, raw events with times) with the key redacted from URLs, headers and logs.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import httpx

REDACTED = "***"
SECRET_HEADERS = frozenset({"authorization", "x-svc-api-key", "x-api-key", "api-key"})
SECRET_QUERY_PARAMS = frozenset({"key", "api_key"})


@dataclass
class RecordedEvent:
    """One raw server-sent event, with seconds since the request started."""

    at: float
    event: str | None
    data: str


@dataclass
class Exchange:
    """Everything about one call, safe to show: the key is never stored here."""

    method: str
    url: str
    request_headers: dict[str, str]
    request_body: Any
    started: float = field(default_factory=time.perf_counter)
    status: int | None = None
    response_headers: dict[str, str] = field(default_factory=dict)
    response_body: Any = None
    response_bytes: int | None = None
    """Size of the answer's body on the wire (whole answers only)."""
    events: list[RecordedEvent] = field(default_factory=list)
    attempts: int = 0
    attempt_outcomes: list[str] = field(default_factory=list)
    """One entry per attempt: its HTTP status, or what went wrong before one arrived."""
    first_byte_at: float | None = None
    first_token_at: float | None = None
    finished_at: float | None = None
    error: str | None = None
    notes: list[str] = field(default_factory=list)
    """What the client noticed about the answer (shown in the inspector)."""

    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    def record_event(self, event: str | None, data: str) -> None:
        self.events.append(RecordedEvent(time.perf_counter() - self.started, event, data))

    def finish(self, error: str | None = None) -> None:
        if self.finished_at is None:
            self.finished_at = self.elapsed()
        if error:
            self.error = error


def redact_headers(headers: httpx.Headers | dict[str, str]) -> dict[str, str]:
    shown: dict[str, str] = {}
    for name, value in headers.items():
        if name.lower() in SECRET_HEADERS:
            shown[name] = f"Bearer {REDACTED}" if value.lower().startswith("bearer ") else REDACTED
        else:
            shown[name] = value
    return shown


def redact_url(url: str) -> str:
    parts = urlsplit(url)
    if not parts.query:
        return url
    query = [(k, REDACTED if k in SECRET_QUERY_PARAMS else v) for k, v in parse_qsl(parts.query, keep_blank_values=True)]
    return urlunsplit(parts._replace(query=urlencode(query, safe="*")))


class _RedactURLs(logging.Filter):
    """httpx logs each request's URL; a `key=` query parameter must not reach any log."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.args:
            record.args = tuple(redact_url(str(arg)) if isinstance(arg, httpx.URL) else arg for arg in record.args)
        return True


logging.getLogger("httpx").addFilter(_RedactURLs())
