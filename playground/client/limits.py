"""Limits that protect a shared host: calls per minute and at once per browser session, and a
process-wide cap on calls to upstreams at once. Going over one raises `LimitError`, which
names the limit and its setting."""

from __future__ import annotations

from playground.client.texts import Text

import asyncio
import time
import weakref
from collections import deque
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from playground.client.errors import GatewayError

WINDOW_S = 60.0
UPSTREAM_WAIT_S = 10.0


class LimitError(GatewayError):
    title = Text("limits.title")
    hint = Text("limits.hint")


@dataclass
class SessionQuota:
    """One browser session's allowance (0 means no limit)."""

    requests_per_minute: int = 0
    concurrent_calls: int = 0
    clock: Callable[[], float] = time.monotonic
    job_holders: weakref.WeakValueDictionary[int, Any] = field(default_factory=weakref.WeakValueDictionary, repr=False)
    """What holds the visitor's running jobs (each of their sessions' video boards), counted
    together for the per-visitor job limit; a board is forgotten with its session."""
    _starts: deque[float] = field(default_factory=deque, repr=False)
    _running: int = 0

    def refusal(self, method: str = "POST") -> LimitError | None:
        """The limit a call of `method` would go over now (None: it may go), without taking a slot:
        a screen asks before it shows a message as sent."""
        now = self.clock()
        while self._starts and now - self._starts[0] >= WINDOW_S:
            self._starts.popleft()
        if self.requests_per_minute and method != "GET" and len(self._starts) >= self.requests_per_minute:
            wait = WINDOW_S - (now - self._starts[0])
            return LimitError(Text("limits.requests_per_minute", count=self.requests_per_minute, wait=wait))
        if self.concurrent_calls and self._running >= self.concurrent_calls:
            return LimitError(Text("limits.concurrent_calls", count=self._running))
        return None

    @asynccontextmanager
    async def call(self, method: str) -> AsyncIterator[None]:
        """Hold one of the session's call slots for the duration of a call."""
        refused = self.refusal(method)
        if refused is not None:
            raise refused
        now = self.clock()
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
            raise LimitError(Text("limits.upstream_concurrency", limit=self.limit)) from None
        try:
            yield
        finally:
            semaphore.release()
