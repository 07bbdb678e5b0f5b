"""Whether a request comes from a page: the ASGI guard in front of Gradio's routes, and the page
sessions it knows of. Who the visitor is (the address behind a proxy) is `visitor_identity`'s.

- `PageGuard`: sets each request's client to its visitor (`visitor_identity.with_visitor`). In
  hosted mode an event runs only for a live page session, one whose page holds its heartbeat open
  (Gradio's page opens it before its first event): a script that posts to `/gradio_api/run/...` or
  `/queue/join` with no session, or with a session whose heartbeat is not open, gets a 403. What is
  checked is the heartbeat, not the page: a script that opens the heartbeat itself is let in, and
  is then bound by the same per-visitor limits as a page. Uploads go through `upload_gate` (hosted:
  only from a visitor with a live page session; a per-visitor rate; the disk budget), and the files
  the page receives are reported to `media_sweep`. `/gradio_api/call/...` (the API that
  `gradio_client` uses) answers 404 in every mode: the app offers no API. Whatever a script sends,
  the answer is a clean 4xx or a complete response: an exception in a Gradio route, or a 500 it
  answers for a bad request, becomes a 400 without a traceback, and one raised after the answer
  started ends that answer properly.
"""

from __future__ import annotations

from collections import OrderedDict

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from typing import Any

from playground.ui.i18n import AUDIENCE_HEADER, request_language, say_in, without_settings
from playground.ui.web.media_sweep import SWEEP_EVERY_S, MediaFiles
from playground.ui.web.session_release import RELEASE_EVERY_S, SessionRelease
from playground.ui.web.upload_gate import UploadGate
from playground.ui.web.visitor_identity import NO_PROXIES, TrustedProxies, scope_visitor, visitor_of, with_visitor

__all__ = ["PageGuard", "PageSessions", "VisitorRules", "visitor_of"]

logger = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

API_PREFIX = "/gradio_api/"
SESSION_ROUTES = ("queue/join", "component_server")
SESSION_ROUTE_PREFIXES = ("run/", "api/")
ANSWERS_WITH_FILES = ("queue/data",)
"""Routes whose answers name the files a page receives (besides `run/...`)."""
MAX_EVENT_BODY_BYTES = 20 * 1024 * 1024
HEARTBEAT_WAIT_S = 3.0
"""The page opens its heartbeat and posts its first event at once: the event waits this long for it."""
CLOSED_GRACE_S = 30.0
MAX_RELEASED_KEPT = 100_000
"""Released session hashes remembered, so a page that comes back after its release is told to reload (about 8 MB at most)."""
"""A session stays live this long after its heartbeat closed (a reconnect, a page in the background)."""

NO_API = "This app offers no API: its events are for its own page. Call the gateway itself (the inspector shows the curl and Python for every call)."
BAD_REQUEST = "The request could not be processed."


class PageSessions:
    """Session hashes whose page holds its heartbeat open (or closed it a moment ago), the visitor
    each heartbeat came from, and when each closed page's heartbeat ended (`ended_before`: the
    sessions `session_release` releases, until a heartbeat of theirs opens again)."""

    def __init__(self, grace_s: float = CLOSED_GRACE_S, track_ended: bool = False) -> None:
        self.grace_s = grace_s
        self.track_ended = track_ended
        """Whether ended sessions are listed for release (`VisitorRules.from_settings` turns it on with the release)."""
        self._open: dict[str, int] = {}
        self._closed_at: dict[str, float] = {}
        self._visitor_of: dict[str, str] = {}
        self._sessions_of: dict[str, set[str]] = {}
        self._ended: dict[str, float] = {}
        self._released: OrderedDict[str, None] = OrderedDict()

    def opened(self, session: str, visitor: str | None = None) -> None:
        self._open[session] = self._open.get(session, 0) + 1
        self._closed_at.pop(session, None)
        self._ended.pop(session, None)
        if visitor and self._visitor_of.get(session) != visitor:
            self._forget_visitor(session)
            self._visitor_of[session] = visitor
            self._sessions_of.setdefault(visitor, set()).add(session)

    def closed(self, session: str) -> None:
        count = self._open.get(session, 0) - 1
        if count > 0:
            self._open[session] = count
            return
        self._open.pop(session, None)
        now = time.monotonic()
        self._closed_at[session] = now
        if self.track_ended:
            self._ended[session] = now
        for stale in [s for s, at in self._closed_at.items() if now - at > self.grace_s]:
            del self._closed_at[stale]
            self._forget_visitor(stale)

    def _forget_visitor(self, session: str) -> None:
        visitor = self._visitor_of.pop(session, None)
        sessions = self._sessions_of.get(visitor or "")
        if sessions is not None:
            sessions.discard(session)
            if not sessions:
                del self._sessions_of[visitor or ""]

    def ended_before(self, age_s: float) -> list[str]:
        """The sessions whose last heartbeat ended at least `age_s` seconds ago, none open since."""
        cutoff = time.monotonic() - age_s
        return [session for session, at in self._ended.items() if at <= cutoff]

    def released(self, session: str) -> None:
        """`session`'s state is gone: it is no longer listed by `ended_before`, and an event it
        sends later is refused (`was_released`; the last `MAX_RELEASED_KEPT` are remembered)."""
        self.unlisted(session)
        self._released[session] = None
        while len(self._released) > MAX_RELEASED_KEPT:
            self._released.popitem(last=False)

    def unlisted(self, session: str) -> None:
        """`session` is no longer listed by `ended_before` (its state was not released)."""
        self._ended.pop(session, None)

    def any_released(self) -> bool:
        return bool(self._released)

    def was_released(self, session: str) -> bool:
        return session in self._released

    def live(self, session: str) -> bool:
        if session in self._open:
            return True
        closed = self._closed_at.get(session)
        return closed is not None and time.monotonic() - closed <= self.grace_s

    def visitor_live(self, visitor: str) -> bool:
        """Whether any page session of `visitor` (`visitor_identity.visitor_of`) is live."""
        return any(self.live(session) for session in tuple(self._sessions_of.get(visitor, ())))

    async def wait_live(self, session: str, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while not self.live(session):
            if time.monotonic() >= deadline:
                return False
            await asyncio.sleep(0.05)
        return True


@dataclass
class VisitorRules:
    """What the page guard enforces and keeps, shared by its requests, the media sweep and the launch."""

    hosted: bool = False
    trusted: TrustedProxies = NO_PROXIES
    sessions: PageSessions = field(default_factory=PageSessions)
    files: MediaFiles | None = None
    uploads: UploadGate | None = None
    release: SessionRelease | None = None

    @classmethod
    def from_settings(cls, settings: Any, sessions: PageSessions | None = None, sweep_every_s: float | None = None,
                      release_every_s: float = RELEASE_EVERY_S) -> VisitorRules:
        """The rules of `settings` (`playground.settings.Settings`)."""
        sessions = sessions or PageSessions(track_ended=settings.session_release_s > 0)
        files = MediaFiles(sessions.visitor_live, budget_bytes=int(settings.media_budget_mb * 1_000_000),
                           max_age_s=settings.file_max_age_min * 60, interval_s=sweep_every_s or SWEEP_EVERY_S)
        gate = UploadGate(files, sessions.visitor_live, hosted=settings.hosted, per_minute=settings.uploads_per_minute)
        release = SessionRelease(sessions, settings.session_release_s, release_every_s) if settings.session_release_s > 0 else None
        return cls(settings.hosted, TrustedProxies(tuple(settings.trusted_proxies)), sessions, files, gate, release)

    @asynccontextmanager
    async def lifespan(self, app: Any) -> AsyncIterator[None]:
        """The app's lifespan (`launch(app_kwargs={"lifespan": ...})`): the media sweep and the
        release of closed sessions run while the server does."""
        task = asyncio.create_task(self.release.run(app)) if self.release is not None else None
        try:
            if self.files is not None:
                async with self.files.lifespan(app):
                    yield
            else:
                yield
        finally:
            if task is not None and self.release is not None:
                await self.release.stop(task)


async def _answer(send: Send, status: int, detail: str) -> None:
    body = json.dumps({"detail": detail}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


async def _read_body(receive: Receive, limit: int) -> tuple[bytes, bool]:
    """The request's body and True, or what was read of it and False once it passes `limit` (or
    the client went away)."""
    chunks, size = [], 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b"".join(chunks), False
        chunk = message.get("body", b"")
        size += len(chunk)
        chunks.append(chunk)
        if size > limit:
            return b"".join(chunks), False
        if not message.get("more_body"):
            return b"".join(chunks), True


def _session_in(body: bytes) -> str | None:
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        return None
    session = data.get("session_hash") if isinstance(data, dict) else None
    return session if isinstance(session, str) and session else None


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers") or []:
        if key.lower() == name:
            return value.decode("latin-1")
    return None


def _words(scope: Scope, key: str, **values: Any) -> str:
    """The catalogue's text `key` in the request's language (its language cookie, else Accept-Language),
    without the server's setting names for a visitor of a hosted page (`with_audience`)."""
    text = say_in(request_language(_header(scope, b"cookie"), _header(scope, b"accept-language")), key, **values)
    return without_settings(text) if _header(scope, AUDIENCE_HEADER.encode()) == "visitor" else text


def _content_length(scope: Scope) -> int:
    value = (_header(scope, b"content-length") or "").strip()
    return int(value) if value.isdigit() else 0


def with_audience(scope: Scope, hosted: bool) -> Scope:
    """`scope` whose `AUDIENCE_HEADER` says who reads the answer: "visitor" on a hosted page, none
    locally (a header a browser sent itself is dropped either way)."""
    name = AUDIENCE_HEADER.encode()
    headers = [(key, value) for key, value in scope.get("headers", []) if key.lower() != name]
    if hosted:
        headers.append((name, b"visitor"))
    return {**scope, "headers": headers}


class PageGuard:
    """ASGI middleware for the app Gradio builds (`launch(app_kwargs={"middleware": [...]})`)."""

    def __init__(self, app: Callable[..., Awaitable[None]], rules: VisitorRules | None = None, hosted: bool = False,
                 heartbeat_wait_s: float = HEARTBEAT_WAIT_S) -> None:
        self.app = app
        self.rules = rules or VisitorRules(hosted=hosted)
        self.sessions = self.rules.sessions
        self.heartbeat_wait_s = heartbeat_wait_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        scope = with_audience(with_visitor(scope, self.rules.trusted), self.rules.hosted)
        visitor = scope_visitor(scope)
        path, method = scope.get("path", ""), scope.get("method")
        route = path.split(API_PREFIX, 1)[1] if API_PREFIX in path else ""
        if route.startswith("heartbeat/"):
            session = route.removeprefix("heartbeat/").strip("/")
            self.sessions.opened(session, visitor)
            try:
                await self._guarded(scope, receive, send)
            finally:
                self.sessions.closed(session)
            return
        if route.startswith("call/"):
            await _answer(send, 404, NO_API)
            return
        if method == "POST" and route.rstrip("/") == "upload":
            await self._upload(scope, receive, send, visitor)
            return
        if method == "POST" and (self.rules.hosted or self.sessions.any_released()) and (route in SESSION_ROUTES or route.startswith(SESSION_ROUTE_PREFIXES)):
            body, whole = await _read_body(receive, MAX_EVENT_BODY_BYTES)
            if whole:
                session = _session_in(body)
                if session is not None and self.sessions.was_released(session):
                    await _answer(send, 409, _words(scope, "web.page_released"))
                    return
                if self.rules.hosted and (session is None or not await self.sessions.wait_live(session, self.heartbeat_wait_s)):
                    await _answer(send, 403, _words(scope, "web.no_page"))
                    return
            elif self.rules.hosted:
                await _answer(send, 413, "The request is too large.")
                return
            receive = _replay(body, receive, more=not whole)
        files = self.rules.files
        if files is not None and (route in ANSWERS_WITH_FILES or route.startswith("run/")):
            send = files.watch(send, visitor)
        elif files is not None and method == "GET" and route.startswith("file="):
            files.hold(route.removeprefix("file="), visitor)
        await self._guarded(scope, receive, send)

    async def _upload(self, scope: Scope, receive: Receive, send: Send, visitor: str | None) -> None:
        """An upload: refused before Gradio reads it (`upload_gate`), else its files become the visitor's."""
        if self.rules.uploads is not None:
            refusal = self.rules.uploads.refusal(visitor, _content_length(scope))
            if refusal is not None:
                await _answer(send, refusal.status, _words(scope, refusal.key, **refusal.values))
                return
        if self.rules.files is not None:
            send = self.rules.files.watch_upload(send, visitor)
        await self._guarded(scope, receive, send)

    async def _guarded(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Run the route; an exception before the answer started, or a 500 for a POST, is a 400; an
        answer left unfinished (an exception in a stream that had started) is ended."""
        started = finished = False
        rewrite = scope.get("method") == "POST" and API_PREFIX in scope.get("path", "")

        async def sending(message: Message) -> None:
            nonlocal started, finished
            if message["type"] == "http.response.start":
                started = True
                if rewrite and message.get("status") == 500:
                    message = {**message, "status": 400}
            elif message["type"] == "http.response.body" and not message.get("more_body"):
                finished = True
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except Exception as exc:
            logger.warning("refused %s %s: %s", scope.get("method"), scope.get("path"), type(exc).__name__)
            if not started:
                await _answer(send, 400, BAD_REQUEST)
                return
        if started and not finished:
            with suppress(OSError, RuntimeError):
                await send({"type": "http.response.body", "body": b"", "more_body": False})


def _replay(body: bytes, receive: Receive, more: bool = False) -> Receive:
    """`receive` with `body` (read already) given first; `more`: the rest follows from `receive`."""
    sent = False

    async def replayed() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": more}
        return await receive()

    return replayed
