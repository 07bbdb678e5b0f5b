"""What a call looked like, safe to show: the `Exchange` record of every call (method, URL,
headers, body, status, raw events with times) with the key redacted from URLs, headers and logs,
and the `Redactor` that removes every known secret from what a gateway sends back.
"""

from __future__ import annotations

import logging
import re
import time
from dataclasses import dataclass, field
from typing import Any, NamedTuple
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import httpx
import orjson

REDACTED = "***"
SECRET_HEADERS = frozenset({"authorization", "x-svc-api-key", "x-api-key", "api-key"})
SECRET_QUERY_PARAMS = frozenset({"key", "api_key"})


MIN_SECRET_CHARS = 4
"""Shorter "keys" are not searched for: replacing every "abc" in a reply would wreck it."""


class Redactor:
    """Removes known secrets (the server's key, the typed key) from text a gateway sent back.

    Whole occurrences are replaced by `REDACTED`; `StreamRedactor` also catches a secret split
    across deltas. Cheap when nothing matches: one substring search per secret."""

    __slots__ = ("_encoded", "_starts", "longest", "secrets")

    def __init__(self, secrets: tuple[str | None, ...] | list[str | None] = ()) -> None:
        found = {s for s in secrets if s and len(s) >= MIN_SECRET_CHARS}
        self.secrets: tuple[str, ...] = tuple(sorted(found, key=len, reverse=True))
        self.longest = max((len(s) for s in self.secrets), default=0)
        self._encoded = tuple(s.encode("utf-8", "replace") for s in self.secrets)
        self._starts: re.Pattern[str] | None = None

    def __bool__(self) -> bool:
        return bool(self.secrets)

    def text(self, text: str) -> str:
        for secret in self.secrets:
            if secret in text:
                text = text.replace(secret, REDACTED)
        return text

    def raw(self, raw: bytes) -> bytes:
        for _secret, encoded in zip(self.secrets, self._encoded):
            if encoded in raw:
                raw = raw.replace(encoded, REDACTED.encode())
        return raw

    def event_data(self, data: str) -> str:
        """One raw event's data without the secrets, also where JSON escapes (`\\u0073k-…`, `\\/`)
        spell one: the event is then re-encoded from its redacted value."""
        if not self.secrets:
            return data
        data = self.text(data)
        if "\\/" in data or _ascii_escape(data):
            try:
                value = orjson.loads(data)
                if self.found_in(orjson.dumps(value).decode()):
                    return orjson.dumps(self.value(value)).decode()
            except (orjson.JSONDecodeError, orjson.JSONEncodeError, TypeError):
                return data
        return data

    def found_in(self, text: str) -> bool:
        return any(secret in text for secret in self.secrets)

    def value(self, value: Any) -> Any:
        """A decoded JSON value (or any nest of dicts, lists and strings) with the secrets replaced."""
        if not self.secrets:
            return value
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {self.text(k) if isinstance(k, str) else k: self.value(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.value(v) for v in value]
        if isinstance(value, tuple):
            return tuple(self.value(v) for v in value)
        return value

    def held_prefix(self, text: str) -> int:
        """Length of the longest end of `text` that is the start of a secret, shorter than the
        secret (it may be completed by the next delta, so it is held back until then). One
        regular expression over the end of the text: the leftmost match is the longest."""
        if not self.secrets:
            return 0
        if self._starts is None:  # every proper start of every secret, at the end of the text
            starts = sorted({secret[:size] for secret in self.secrets for size in range(1, len(secret))}, key=len, reverse=True)
            self._starts = re.compile("(?:" + "|".join(map(re.escape, starts)) + r")\Z", re.DOTALL)
        found = self._starts.search(text, max(len(text) - self.longest + 1, 0))
        return len(text) - found.start() if found else 0


NO_SECRETS = Redactor()


def _ascii_escape(data: str) -> bool:
    """Whether a `\\u00XX` escape of an ASCII character (what could spell a key) is in the data:
    escaped "ü" or "中" are not."""
    at = data.find("\\u00")
    while at >= 0:
        if data[at + 4:at + 5] in ("0", "1", "2", "3", "4", "5", "6", "7"):
            return True
        at = data.find("\\u00", at + 4)
    return False


class StreamRedactor:
    """A `Redactor` over text that arrives in pieces, per channel (answer text, reasoning, each
    tool call's arguments): a secret split across two deltas is caught, and no part of it is let
    out before it is known whether the next piece completes it.

    Each piece may carry a `tag` (the index of the raw event it came in); when a secret turns out
    to be split, `split_fragments` lists (tag, piece, piece without its part of the secret) for
    every piece of it, so the raw events can be cleaned too."""

    __slots__ = ("_held", "_trail", "redactor", "split_fragments")

    def __init__(self, redactor: Redactor) -> None:
        self.redactor = redactor
        self._held: dict[Any, str] = {}
        self._trail: dict[Any, list[tuple[Any, str]]] = {}
        self.split_fragments: list[tuple[Any, str, str]] = []

    def feed(self, channel: Any, piece: str, tag: Any = None) -> str:
        """What of `held + piece` can be shown now (secrets replaced); the rest is held."""
        redactor = self.redactor
        if not redactor.secrets:
            return piece
        held = self._held.pop(channel, "") if self._held else ""
        text = held + piece
        if held and redactor.found_in(text):
            self._note_split(channel, held, piece, tag)
        for secret in redactor.secrets:
            if secret in text:
                text = text.replace(secret, REDACTED)
        hold = redactor.held_prefix(text)
        if not hold:
            if self._trail:
                self._trail.pop(channel, None)
            return text
        self._held[channel] = text[-hold:]
        trail = self._trail.setdefault(channel, [])
        if not held:
            trail.clear()
        trail.append((tag, piece))
        while len(trail) > 1 and sum(len(p) for _, p in trail[1:]) >= hold:
            trail.pop(0)
        return text[:-hold]

    def _note_split(self, channel: Any, held: str, piece: str, tag: Any) -> None:
        trail = self._trail.get(channel, [])
        joined = "".join(p for _, p in trail)
        whole = joined + piece
        for secret in self.redactor.secrets:
            start = whole.find(secret, max(len(joined) - len(held), 0))
            while start >= 0:
                end, at = start + len(secret), 0
                for source, part in [*trail, (tag, piece)]:
                    low, high = max(start, at), min(end, at + len(part))
                    if low < high:
                        self.split_fragments.append((source, part, part[:low - at] + REDACTED + part[high - at:]))
                    at += len(part)
                start = whole.find(secret, end)

    def pending(self, channel: Any) -> str:
        return self._held.get(channel, "")

    def drop(self, channel: Any) -> None:
        self._held.pop(channel, None)
        self._trail.pop(channel, None)

    def flush(self) -> dict[Any, str]:
        """Whatever is still held (the stream ended without completing a secret)."""
        held, self._held = self._held, {}
        self._trail.clear()
        return held


class RecordedEvent(NamedTuple):
    """One raw server-sent event, with seconds since the request started (change one with `_replace`)."""

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
    _record: list[tuple[float, str | None, str]] | None = field(default_factory=list, init=False, repr=False, compare=False)
    """The raw events while only the stream reads has added to them: plain (at, event, data) tuples."""
    _events: list[RecordedEvent] | None = field(default=None, init=False, repr=False, compare=False)
    attempts: int = 0
    attempt_outcomes: list[str] = field(default_factory=list)
    """One entry per attempt: its HTTP status, or what went wrong before one arrived."""
    first_byte_at: float | None = None
    first_token_at: float | None = None
    finished_at: float | None = None
    error: str | None = None
    notes: list[str] = field(default_factory=list)
    """What the client noticed about the answer (shown in the inspector)."""
    redactor: Redactor = field(default=NO_SECRETS, repr=False, compare=False)
    """The secrets of the call's connection: everything the gateway sent back is recorded without them."""

    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    @property
    def events(self) -> list[RecordedEvent]:
        """Every raw event so far, in order.

        A stream records them as plain tuples (`raw_record`) and they become `RecordedEvent`s
        when first asked for: the garbage collector stops tracking a tuple of plain values, not a
        `RecordedEvent`, and one tracked object kept per event set off a full collection of the
        whole heap every few long streams (20,000 events each)."""
        if self._events is None:
            self._events = [RecordedEvent(*raw) for raw in self._record or ()]
            self._record = None
        return self._events

    @events.setter
    def events(self, events: list[RecordedEvent]) -> None:
        self._events, self._record = events, None

    def raw_record(self) -> list[tuple[float, str | None, str]] | None:
        """Where a stream appends its raw events as (at, event, data) tuples; None once `events`
        was read (then append `RecordedEvent`s to `events`)."""
        return self._record

    def event_count(self) -> int:
        return len(self._record) if self._record is not None else len(self.events)

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
