"""Whether an upload (`POST /gradio_api/upload`) is let in, decided before Gradio reads a byte of it.

Gradio's page uploads with a plain `fetch` of the form (no session, no header of its own): the page
is recognised by its visitor. In hosted mode an upload is accepted only from a visitor who holds a
live page session (a page that keeps Gradio's heartbeat open, `visitors.PageSessions`); every
visitor gets `per_minute` uploads a minute (like generation, bound to the address, not to a
session); and nothing is accepted while the visitors' files fill the disk budget
(`media_sweep.MediaFiles.room_for`). A refusal names the limit and its setting.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from playground.ui.web.media_sweep import MediaFiles

WINDOW_S = 60.0
MAX_TRACKED_VISITORS = 4096


def megabytes(size: int) -> str:
    """`size` bytes in MB as a person reads it: 2,000 / 12 / 0.1."""
    value = size / 1_000_000
    return f"{value:,.0f}" if value >= 10 else f"{value:.1f}".removesuffix(".0")


@dataclass(frozen=True)
class Refusal:
    """An answer instead of the upload: HTTP status, the catalogue's text and its values."""

    status: int
    key: str
    values: dict[str, Any] = field(default_factory=dict)


class UploadGate:
    def __init__(self, files: MediaFiles, visitor_live: Callable[[str], bool], *, hosted: bool, per_minute: int,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.files = files
        self.visitor_live = visitor_live
        self.hosted = hosted
        self.per_minute = per_minute
        self.clock = clock
        self._recent: dict[str, deque[float]] = {}

    def refusal(self, visitor: str | None, size: int) -> Refusal | None:
        """Why `visitor` may not upload `size` bytes now (None: they may; the upload is counted)."""
        if self.hosted and (visitor is None or not self.visitor_live(visitor)):
            return Refusal(403, "web.upload_no_page")
        now = self.clock()
        recent = self._recent_of(visitor or "", now)
        if self.per_minute and len(recent) >= self.per_minute:
            wait = max(1, round(WINDOW_S - (now - recent[0])))
            return Refusal(429, "web.upload_rate", {"count": self.per_minute, "wait": wait})
        if not self.files.room_for(size):
            return Refusal(413, "web.upload_disk_full", {"used": megabytes(self.files.used_bytes), "budget": megabytes(self.files.budget_bytes)})
        if self.per_minute:
            recent.append(now)
        return None

    def _recent_of(self, visitor: str, now: float) -> deque[float]:
        if len(self._recent) > MAX_TRACKED_VISITORS:
            for stale in [key for key, times in self._recent.items() if not times or now - times[-1] >= WINDOW_S]:
                del self._recent[stale]
        recent = self._recent.setdefault(visitor, deque())
        while recent and now - recent[0] >= WINDOW_S:
            recent.popleft()
        return recent
