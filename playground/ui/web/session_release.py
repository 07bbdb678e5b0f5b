"""Visitors who leave are forgotten: the session state of a page whose heartbeat closed is
released `after_s` seconds later (`PLAYGROUND_SESSION_RELEASE_S`, default 180), checked every
`every_s`, so it is gone within `after_s + every_s` of the page closing.

The page's heartbeat (`PageSessions`, fed by the page guard) says which sessions closed and when;
a heartbeat that opens again before the release (the same session hash) takes its session off the
list. What a session holds in Gradio is dropped by `gradio_compat.forget_closed_session`, which
keeps a session while one of its events is queued or running (a job outlives its page only as long
as it runs) and while it ran an event within `after_s`: Gradio 6.31's page does not reopen a
heartbeat that a network blip broke, but keeps sending its events, so a page still in use keeps its
state however its heartbeat fared. A kept session is tried again at the next pass. With Gradio's internals off (`gradio_compat.active()` false) nothing is
released and nothing is kept here: Gradio's own deletion applies.

After a pass that released sessions, the C allocator is asked to hand its free pages back to the
system (`malloc_trim`, glibc only): Python frees the objects, but without it most of the memory
stays in the process's heap (measured in docs/benchmarks.md, issue 41).
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import logging
from collections.abc import Callable
from contextlib import suppress
from typing import Any, Protocol

from playground import gradio_compat

__all__ = ["RELEASE_EVERY_S", "EndedSessions", "SessionRelease"]

logger = logging.getLogger(__name__)

RELEASE_EVERY_S = 30.0


class EndedSessions(Protocol):
    """What the release reads of `visitors.PageSessions`."""

    def ended_before(self, age_s: float) -> list[str]: ...

    def released(self, session: str) -> None: ...

    def unlisted(self, session: str) -> None: ...


def _malloc_trim() -> Callable[[], None] | None:
    name = ctypes.util.find_library("c")
    try:
        trim = ctypes.CDLL(name).malloc_trim if name else None
    except (OSError, AttributeError):
        return None
    if trim is None:
        return None
    return lambda: trim(0)


class SessionRelease:
    """Releases the state of sessions whose page closed at least `after_s` seconds ago."""

    def __init__(self, sessions: EndedSessions, after_s: float, every_s: float = RELEASE_EVERY_S,
                 forget: Callable[[Any, str, float], bool] = gradio_compat.forget_closed_session, give_back: bool = True) -> None:
        self.sessions = sessions
        self.after_s = after_s
        self.every_s = every_s
        self.forget = forget
        self.give_back = _malloc_trim() if give_back else None
        self.released_total = 0
        """How many sessions this release has dropped."""
        self.passes = 0

    def release(self, app: Any) -> int:
        """One pass over the ended sessions of `app` (Gradio's `App`); how many were released."""
        self.passes += 1
        ended = self.sessions.ended_before(self.after_s)
        if not gradio_compat.active():
            for session in ended:
                self.sessions.unlisted(session)
            return 0
        released = 0
        for session in ended:
            if self.forget(app, session, self.after_s):
                self.sessions.released(session)
                released += 1
        if released and self.give_back is not None:
            self.give_back()
        self.released_total += released
        return released

    async def run(self, app: Any) -> None:
        """A pass every `every_s` while the server runs."""
        while True:
            await asyncio.sleep(self.every_s)
            try:
                self.release(app)
            except Exception as error:
                logger.warning("releasing closed sessions failed: %s", type(error).__name__)

    async def stop(self, task: asyncio.Task[None]) -> None:
        task.cancel()
        with suppress(asyncio.CancelledError):
            await task
