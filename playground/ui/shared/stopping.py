"""Stop for one-shot calls (Embeddings, Images): the running event gives up waiting when the
person presses Stop, instead of the page cancelling the event (a cancel that reaches an event
the page is still joining shows an error badge; see `conversation.until_stopped`)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import TypeVar

T = TypeVar("T")


@dataclass
class StopSwitch:
    """A session's Stop: armed before a call starts (queue-free), pressed by the Stop button."""

    event: asyncio.Event | None = field(default=None, repr=False)

    def arm(self) -> None:
        """Calls still running share the armed event, so one Stop gives up on all of them."""
        if self.event is None or self.event.is_set():
            self.event = asyncio.Event()

    def press(self) -> None:
        if self.event is not None:
            self.event.set()


async def unless_stopped(work: Awaitable[T], stop: asyncio.Event | None) -> tuple[bool, T | None]:
    """(stopped, result): `work`'s result, or (True, None) when `stop` was set first, in which
    case `work` is cancelled where it waits. `work`'s own errors are raised."""
    call = asyncio.ensure_future(work)
    if stop is None:
        return False, await call
    if stop.is_set():
        call.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await call
        return True, None
    waiting = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait({call, waiting}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        waiting.cancel()
        if not call.done():
            call.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await call
    if call.cancelled():
        return True, None
    return False, call.result()
