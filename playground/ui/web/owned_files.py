"""Files made for one visitor (a Batch run's exports, a prompt library export), and the guard
that serves them to it alone.

Gradio serves every file under its temp directory at `/gradio_api/file=<path>` to whoever asks,
so a file's name would be its only key and a shared link would hand the file out. A folder made
by `owned_folder` has a fresh random name (no run id) and a mark beside the files naming who
asked for them: the owner (`owners.owner_of`), the page session and the browser (a cookie this
module gives each browser that loads the page in hosted mode).

`OwnedFiles`, an ASGI middleware in front of Gradio, answers 404 in hosted mode for any file
under an owned kind's directory unless the request comes from the same visitor and from the
same browser (its cookie); when that browser kept no cookie (a Space's page in a frame whose
browser refuses the frame's cookies) the session that asked must instead still hold its page
open. A file there without a mark (one made before marks) and the mark itself are never served.
Locally everyone is one owner and files are served as Gradio serves them.
"""

from __future__ import annotations

import hmac
import json
import os
import re
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.requests import Request

from playground.client.media import media_directory
from playground.ui.web.owners import may_open, owner_of
from playground.ui.web.compression import page_route
from playground.ui.web.visitors import API_PREFIX, PageSessions, Message, Receive, Scope, Send

OWNED_KINDS = ("batch", "prompts")
"""Media kinds whose files belong to a visitor (`media_directory(kind)`)."""
MARK = ".owner.json"
MAX_MARK_BYTES = 4096
BROWSER_COOKIE = "gateway-playground-browser"
_TOKEN = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
FILE_ROUTES = ("file=", "file/")
NOT_FOUND = b'{"detail": "No such file. Files made for a visitor are served only to that visitor\'s page."}'


@dataclass(frozen=True)
class FileMark:
    owner: str
    session: str = ""
    browser: str = ""


def browser_of(request: Any) -> str:
    """The browser cookie a request carries ("" when it carries none, or not one of ours)."""
    cookies = getattr(request, "cookies", None)
    try:
        value = cookies.get(BROWSER_COOKIE) if cookies is not None else None
    except AttributeError:
        return ""
    return value if isinstance(value, str) and _TOKEN.match(value) else ""


def owned_folder(kind: str, owner: str, request: Any) -> Path:
    """A new folder of `kind` (one of `OWNED_KINDS`) for files `owner` asked for in `request`."""
    if kind not in OWNED_KINDS:
        raise ValueError(f"{kind!r} is not a kind whose files are guarded")
    root = media_directory(kind)
    root.mkdir(parents=True, exist_ok=True)
    folder = root / secrets.token_hex(16)
    folder.mkdir()
    mark = {"owner": owner, "session": str(getattr(request, "session_hash", None) or ""), "browser": browser_of(request)}
    (folder / MARK).write_text(json.dumps(mark), encoding="utf-8")
    return folder


def read_mark(folder: Path) -> FileMark | None:
    try:
        with (folder / MARK).open("rb") as handle:
            data = json.loads(handle.read(MAX_MARK_BYTES))
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or not all(isinstance(data.get(name, ""), str) for name in ("owner", "session", "browser")):
        return None
    return FileMark(data.get("owner", ""), data.get("session", ""), data.get("browser", ""))


def requested_file(scope: Scope) -> str | None:
    """The file path a request to Gradio's file routes asks for, else None."""
    path = str(scope.get("path", ""))
    route = path.split(API_PREFIX, 1)[1] if API_PREFIX in path else ""
    for prefix in FILE_ROUTES:
        if route.startswith(prefix):
            return route[len(prefix):]
    return None


def guarded_folder(asked: str, kinds: tuple[str, ...] = OWNED_KINDS) -> tuple[bool, Path | None]:
    """(guarded, folder) for a requested path: not guarded when it lies outside every owned
    kind's directory; guarded with its folder (whose mark decides) when inside one; guarded with
    None (never served) when it is the mark itself or lies in no folder of that directory."""
    if "\x00" in asked:
        return False, None
    candidates = {Path(os.path.abspath(asked)), Path(os.path.realpath(asked))}
    for kind in kinds:
        root = media_directory(kind)
        for base in {Path(os.path.abspath(root)), Path(os.path.realpath(root))}:
            for candidate in candidates:
                if candidate.is_relative_to(base):
                    parts = candidate.relative_to(base).parts
                    return True, (base / parts[0] if len(parts) >= 2 and candidate.name != MARK else None)
    return False, None


def served_to(mark: FileMark | None, requester: str | None, browser: str, session_live: Callable[[str], bool]) -> bool:
    """Whether a file with `mark` goes to this request (hosted mode): same visitor, and the same
    browser, or (no browser cookie was known when it was made) a session that still holds its page."""
    if mark is None or not may_open(mark.owner, requester):
        return False
    if mark.browser:
        return bool(browser) and hmac.compare_digest(mark.browser, browser)
    return bool(mark.session) and session_live(mark.session)


class OwnedFiles:
    """ASGI middleware (`launch(app_kwargs={"middleware": [...]})`): owned files to their owner
    only, and, in hosted mode, a browser cookie for a page loaded without one."""

    def __init__(self, app: Callable[..., Awaitable[None]], hosted: bool = False, sessions: PageSessions | None = None,
                 kinds: tuple[str, ...] = OWNED_KINDS) -> None:
        self.app = app
        self.hosted = hosted
        self.sessions = sessions or PageSessions()
        self.kinds = kinds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        asked = requested_file(scope)
        if asked is not None and not self._allowed(scope, asked):
            await send({"type": "http.response.start", "status": 404,
                        "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(NOT_FOUND)).encode())]})
            await send({"type": "http.response.body", "body": NOT_FOUND})
            return
        if self.hosted and scope.get("method") == "GET" and page_route(scope) == "/" and not browser_of(Request(scope)):
            send = _with_cookie(send, _cookie_header(scope))
        await self.app(scope, receive, send)

    def _allowed(self, scope: Scope, asked: str) -> bool:
        guarded, folder = guarded_folder(asked, self.kinds)
        if not guarded:
            return True
        if folder is None:
            return False
        if not self.hosted:
            return True
        request = Request(scope)
        return served_to(read_mark(folder), owner_of(request, hosted=True), browser_of(request), self.sessions.live)


def _cookie_header(scope: Scope) -> bytes:
    """A new browser token; over HTTPS (a Space) the cookie must also reach the page inside the
    Hub's frame, so it is `SameSite=None; Secure; Partitioned` there."""
    headers = {key.lower(): value for key, value in scope.get("headers", [])}
    https = scope.get("scheme") == "https" or headers.get(b"x-forwarded-proto", b"").split(b",")[0].strip() == b"https"
    attributes = "; Secure; SameSite=None; Partitioned" if https else "; SameSite=Lax"
    return f"{BROWSER_COOKIE}={secrets.token_urlsafe(24)}; Path=/; HttpOnly{attributes}".encode()


def _with_cookie(send: Send, cookie: bytes) -> Send:
    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": [*message.get("headers", []), (b"set-cookie", cookie)]}
        await send(message)

    return sending
