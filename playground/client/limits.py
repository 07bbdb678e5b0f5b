"""Limits that protect a shared host: calls per minute and at once per browser session, and a
process-wide cap on calls to upstreams at once. Going over one raises `LimitError`, which
names the limit and its setting."""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from playground.client.errors import GatewayError

WINDOW_S = 60.0
UPSTREAM_WAIT_S = 10.0


class LimitError(GatewayError):
    title = "A limit of this server was reached"
    hint = "Wait a moment and try again; the host sets these limits to share the server fairly."


@dataclass
class SessionQuota:
    """One browser session's allowance (0 means no limit)."""

    requests_per_minute: int = 0
    concurrent_calls: int = 0
    clock: Callable[[], float] = time.monotonic
    _starts: deque[float] = field(default_factory=deque, repr=False)
    _running: int = 0

    @asynccontextmanager
    async def call(self, method: str) -> AsyncIterator[None]:
        """Hold one of the session's call slots for the duration of a call."""
        now = self.clock()
        while self._starts and now - self._starts[0] >= WINDOW_S:
            self._starts.popleft()
        if self.requests_per_minute and method != "GET" and len(self._starts) >= self.requests_per_minute:
            wait = WINDOW_S - (now - self._starts[0])
            raise LimitError(f"You sent {self.requests_per_minute} requests in the last minute (from this page or this address), the most this "
                             f"server allows (PLAYGROUND_REQUESTS_PER_MINUTE); the next is possible in about {wait:.0f} s.")
        if self.concurrent_calls and self._running >= self.concurrent_calls:
            raise LimitError(f"You already have {self._running} calls running (from this page or this address), the most this server allows at "
                             "once (PLAYGROUND_CONCURRENT_CALLS); wait for one to finish.")
        if method != "GET":
            self._starts.append(now)
        self._running += 1
        try:
            yield
        finally:
            self._running -= 1


class UpstreamCap:
    """At most `limit` calls to upstreams at once in this process (0: no cap). A call waits a
    few seconds for a free slot, then gives up with a clear message."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._semaphores: dict[asyncio.AbstractEventLoop, asyncio.Semaphore] = {}

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        if not self.limit:
            yield
            return
        loop = asyncio.get_running_loop()
        semaphore = self._semaphores.setdefault(loop, asyncio.Semaphore(self.limit))
        try:
            await asyncio.wait_for(semaphore.acquire(), UPSTREAM_WAIT_S)
        except TimeoutError:
            raise LimitError(f"The server is already making {self.limit} calls to gateways at once, the most it allows "
                             "(PLAYGROUND_UPSTREAM_CONCURRENCY); try again in a moment.") from None
        try:
            yield
        finally:
            semaphore.release()
