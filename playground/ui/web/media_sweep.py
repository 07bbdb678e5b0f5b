"""The visitors' files on disk: who holds each one, and the sweep that deletes them.

The files are the uploads Gradio saved (`POST /gradio_api/upload`, seen as they are answered) and
everything under the app's media directory (`shown_files.media_root()`). A file is *held* by the
visitors whose page received it: the upload's visitor, and the visitor of every event stream or
answer that named it, or who fetched it (`/gradio_api/file=`). The page guard reports that traffic
here (`watch`, `watch_upload`, `fetched`); nothing in a tab does.

Every `interval_s` (and at once when an upload found the budget full) the sweep deletes:
- a file whose holders' page sessions have all ended (their sessions end: `visitor_live` is false);
- a file nobody holds, once older than `max_age_s`;
- when the files take more than `budget_bytes`, files no live session holds, oldest first.
A file held by a visitor whose page session is live is never deleted. Uploads are refused while the
budget is full (`room_for`, used by `upload_gate`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio

from playground.ui.web.shown_files import gradio_cache, media_root

logger = logging.getLogger(__name__)

Message = MutableMapping[str, Any]
Send = Callable[[Message], Awaitable[None]]

SWEEP_EVERY_S = 60.0
EMPTY_FOLDER_AGE_S = 60.0
"""An empty folder is removed once it has been empty this long (a writer may be about to fill it)."""
PATH_IN_JSON = re.compile(rb'"path"\s*:\s*("(?:[^"\\]|\\.)*")')
MAX_UPLOAD_ANSWER_BYTES = 1_000_000


@dataclass(frozen=True)
class OnDisk:
    path: str
    size: int
    mtime: float


def _real(path: str) -> str | None:
    try:
        return os.path.realpath(path) if path and "\x00" not in path else None
    except (OSError, ValueError):
        return None


def _under(path: str, root: str) -> bool:
    return path.startswith(root.rstrip(os.sep) + os.sep)


def _empty_since(folder: str, cutoff: float) -> str:
    """"idle" (empty since before `cutoff`), "young" (empty since after it), or "" (not empty, or gone)."""
    try:
        if os.listdir(folder):
            return ""
        return "idle" if os.lstat(folder).st_mtime < cutoff else "young"
    except OSError:
        return ""


class MediaFiles:
    """The holders of the visitors' files and the sweep (see the module's docstring)."""

    def __init__(self, visitor_live: Callable[[str], bool], *, budget_bytes: int = 0, max_age_s: float = 3600.0,
                 interval_s: float = SWEEP_EVERY_S, root: Callable[[], Path] = media_root, uploads_root: Callable[[], Path] = gradio_cache,
                 clock: Callable[[], float] = time.time) -> None:
        self.visitor_live = visitor_live
        self.budget_bytes = budget_bytes
        self.max_age_s = max_age_s
        self.interval_s = interval_s
        self._root = _real(str(root())) or str(root())
        self._uploads_root = _real(str(uploads_root())) or str(uploads_root())
        self.clock = clock
        self.used_bytes = 0
        self.sweeps = 0
        """How many sweeps have finished."""
        self._added_since_listing = 0
        self._holders: dict[str, set[str]] = {}
        self._uploads: set[str] = set()
        self._upload_folders: set[str] = set()
        self._wake: asyncio.Event | None = None

    # --- who holds what (called by the page guard, on the server's event loop) -----------------

    def _known(self, path: str) -> str | None:
        real = _real(path)
        if real is None:
            return None
        if real in self._uploads or _under(real, self._root):
            return real
        return None

    def hold(self, path: str, visitor: str | None) -> None:
        """`visitor`'s page received `path` (a file under the media directory or an upload)."""
        real = self._known(path)
        if real is not None and visitor:
            self._holders.setdefault(real, set()).add(visitor)

    def hold_paths_in(self, data: bytes, visitor: str | None) -> None:
        """Every `"path": "..."` in a JSON answer or event stream message is held by `visitor`."""
        if b'"path"' not in data or not visitor:
            return
        for match in PATH_IN_JSON.finditer(data):
            try:
                path = json.loads(match.group(1))
            except ValueError:
                continue
            if isinstance(path, str):
                self.hold(path, visitor)

    def uploaded(self, answer: bytes, visitor: str | None) -> None:
        """Gradio's answer to an upload (a JSON list of the saved paths): the files are `visitor`'s."""
        try:
            paths = json.loads(answer)
        except ValueError:
            return
        for path in paths if isinstance(paths, list) else []:
            real = _real(path) if isinstance(path, str) else None
            if real is None or not _under(real, self._uploads_root) or _under(real, self._root) or not os.path.isfile(real):
                continue
            if real not in self._uploads:
                self._uploads.add(real)
                with suppress(OSError):
                    size = os.path.getsize(real)
                    self.used_bytes += size
                    self._added_since_listing += size
            if visitor:
                self._holders.setdefault(real, set()).add(visitor)

    def watch(self, send: Send, visitor: str | None) -> Send:
        """`send` for an answer whose body names files (event streams, event answers)."""

        async def watching(message: Message) -> None:
            if message.get("type") == "http.response.body":
                self.hold_paths_in(message.get("body", b""), visitor)
            await send(message)

        return watching

    def watch_upload(self, send: Send, visitor: str | None) -> Send:
        """`send` for an upload's answer: on a 200, the saved files become `visitor`'s."""
        state: dict[str, Any] = {"status": 0, "body": bytearray()}

        async def watching(message: Message) -> None:
            if message.get("type") == "http.response.start":
                state["status"] = message.get("status", 0)
            elif message.get("type") == "http.response.body" and state["status"] == 200:
                body = state["body"]
                if len(body) < MAX_UPLOAD_ANSWER_BYTES:
                    body.extend(message.get("body", b""))
                if not message.get("more_body"):
                    self.uploaded(bytes(body), visitor)
            await send(message)

        return watching

    # --- the budget ---------------------------------------------------------------------------

    def room_for(self, size: int) -> bool:
        """Whether `size` more bytes fit the budget (always, without one); when not, the sweep runs soon."""
        if not self.budget_bytes or self.used_bytes + max(size, 0) <= self.budget_bytes:
            return True
        if self._wake is not None:
            self._wake.set()
        return False

    # --- the sweep ------------------------------------------------------------------------------

    def _listing(self, uploads: tuple[str, ...], folders: tuple[str, ...]) -> tuple[list[OnDisk], list[str], set[str]]:
        """Every file of the media directory and every upload still on disk; the folders empty for a
        while (below the media directory's own folders, and deleted uploads' folders), and the
        uploads' folders empty for too short a time (run in a worker thread)."""
        found: list[OnDisk] = []
        empty: list[str] = []
        cutoff = time.time() - EMPTY_FOLDER_AGE_S
        for folder, subfolders, names in os.walk(self._root):
            for name in names:
                path = os.path.join(folder, name)
                with suppress(OSError):
                    stat = os.lstat(path)
                    found.append(OnDisk(path, stat.st_size, stat.st_mtime))
            if not names and not subfolders and folder != self._root and os.path.dirname(folder) != self._root:
                empty.append(folder)
        for path in uploads:
            with suppress(OSError):
                stat = os.lstat(path)
                found.append(OnDisk(path, stat.st_size, stat.st_mtime))
        idle = [folder for folder in empty + list(folders) if _empty_since(folder, cutoff) == "idle"]
        waiting = {folder for folder in folders if _empty_since(folder, cutoff) == "young"}
        return found, idle, waiting

    def choose(self, listing: list[OnDisk], known_before: set[str]) -> list[OnDisk]:
        """The files to delete now (on the event loop: it reads who is live). `known_before`: the
        files known when the listing began (one of them missing from it is gone)."""
        now = self.clock()
        live_cache: dict[str, bool] = {}

        def live(visitor: str) -> bool:
            if visitor not in live_cache:
                live_cache[visitor] = self.visitor_live(visitor)
            return live_cache[visitor]

        gone = known_before - {file.path for file in listing}
        for path in gone:
            self._holders.pop(path, None)
            self._uploads.discard(path)
        victims, idle, used = [], [], 0
        for file in listing:
            holders = self._holders.get(file.path)
            if holders and any(live(visitor) for visitor in holders):
                used += file.size
            elif holders or now - file.mtime > self.max_age_s:
                victims.append(file)
            else:
                idle.append(file)
                used += file.size
        for file in sorted(idle, key=lambda f: f.mtime):
            if not self.budget_bytes or used <= self.budget_bytes:
                break
            victims.append(file)
            used -= file.size
        self.used_bytes = used + self._added_since_listing  # uploads that came while the listing was made
        return victims

    @staticmethod
    def _delete(victims: list[OnDisk], folders: list[str]) -> list[str]:
        """Delete the files, and the folders that were found empty (run in a worker thread)."""
        deleted = []
        for file in victims:
            try:
                os.unlink(file.path)
            except FileNotFoundError:
                pass
            except OSError as error:
                logger.warning("could not delete %s: %s", file.path, type(error).__name__)
                continue
            deleted.append(file.path)
        for folder in folders:
            with suppress(OSError):
                os.rmdir(folder)
        return deleted

    async def sweep(self) -> list[str]:
        """One sweep: list (in a thread), choose (here), delete (in a thread); returns the deleted paths."""
        known_before = set(self._holders) | self._uploads
        self._added_since_listing = 0
        folders, self._upload_folders = tuple(self._upload_folders), set()
        listing, empty, waiting = await anyio.to_thread.run_sync(self._listing, tuple(self._uploads), folders)
        self._upload_folders |= waiting
        victims = self.choose(listing, known_before)
        deleted = await anyio.to_thread.run_sync(self._delete, victims, empty) if victims or empty else []
        for path in deleted:
            self._holders.pop(path, None)
            if path in self._uploads:
                self._uploads.discard(path)
                self._upload_folders.add(os.path.dirname(path))
        self.sweeps += 1
        return deleted

    async def run(self) -> None:
        """Sweep now and every `interval_s`, or sooner when an upload found the budget full."""
        self._wake = asyncio.Event()
        while True:
            try:
                await self.sweep()
            except Exception as error:
                logger.warning("the media sweep failed: %s", type(error).__name__)
            with suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.interval_s)
            self._wake.clear()

    @asynccontextmanager
    async def lifespan(self, app: Any) -> AsyncIterator[None]:
        """The app's lifespan (`launch(app_kwargs={"lifespan": ...})`): the sweep runs while the server does."""
        task = asyncio.create_task(self.run())
        try:
            yield
        finally:
            task.cancel()
            with suppress(asyncio.CancelledError):
                await task
