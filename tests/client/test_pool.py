"""The pool gives each connection to one request at a time (`playground.client.pool`).

Over real sockets: eight streamed calls at once on the demo gateway never meet a connection
already given to another request, and the pool places each request in two passes (its arrival and
its response's close). The pass itself, on stand-in connections: two queued requests do not share
an idle connection, a connection given to a request is neither given again nor closed, the
keep-alive limit counts idle connections, and a full pool makes room only from a free idle one.
On another httpcore version the pass is httpcore's own: its double booking is what the
version check guards."""

from __future__ import annotations

import asyncio
from typing import Any

import httpcore
import pytest
from httpcore._async.connection_pool import AsyncPoolRequest

from playground.client import pool as placing
from playground.client.chat import ChatRequest
from playground.client.gateway import GatewayClient
from playground.client.pool import RELIED_ON, PlacingPool
from playground.client.transport import Connection, Transport

ORIGIN = "http://gateway.test"


async def test_eight_calls_at_once_never_meet_a_connection_given_to_another(conn: Connection, monkeypatch: pytest.MonkeyPatch) -> None:
    counts = {"passes": 0, "not_available": 0, "connections": 0}
    place, start = PlacingPool._assign_requests_to_connections, httpcore.AsyncHTTPConnection.handle_async_request

    def counted_pass(self: PlacingPool) -> list[Any]:
        counts["passes"] += 1
        counts["connections"] = max(counts["connections"], len(self._connections))
        return place(self)

    async def counted_start(self: httpcore.AsyncHTTPConnection, request: httpcore.Request) -> httpcore.Response:
        try:
            return await start(self, request)
        except httpcore.ConnectionNotAvailable:
            counts["not_available"] += 1
            raise

    monkeypatch.setattr(PlacingPool, "_assign_requests_to_connections", counted_pass)
    monkeypatch.setattr(httpcore.AsyncHTTPConnection, "handle_async_request", counted_start)
    client = GatewayClient(Transport(read_timeout=10))
    answers: list[str] = []

    async def worker(calls: int) -> None:
        for n in range(calls):
            request = ChatRequest.build(model="gx-2.5-flash", messages=[{"role": "user", "content": f"What is {n} plus {n}?"}], stream=True)
            async with client.chat.stream(conn, request) as stream:
                async for _ in stream:
                    pass
            answers.append(stream.result.text)

    try:
        await asyncio.gather(*(worker(12) for _ in range(8)))
    finally:
        await client.aclose()
    assert len(answers) == 96 and all(answers)
    assert counts == {"passes": 2 * 96, "not_available": 0, "connections": 8}


class StandIn:
    """A connection as the pass sees it: idle or carrying a request, open, closed or expired."""

    def __init__(self, name: str, *, idle: bool = True, closed: bool = False, expired: bool = False, origin: str = ORIGIN) -> None:
        self.name, self.idle, self.closed, self.expired, self.origin = name, idle, closed, expired, origin

    def is_available(self) -> bool:
        return self.idle and not self.closed

    def is_idle(self) -> bool:
        return self.idle

    def is_closed(self) -> bool:
        return self.closed

    def has_expired(self) -> bool:
        return self.expired

    def can_handle_request(self, origin: httpcore.Origin) -> bool:
        return origin == httpcore.URL(self.origin).origin

    def __repr__(self) -> str:
        return self.name


class StandInPool(PlacingPool):
    """The pass over given connections; a new connection is a `StandIn` named new1, new2, ..."""

    def __init__(self, connections: list[StandIn], *, max_connections: int = 10, max_keepalive: int = 10) -> None:
        super().__init__(max_connections=max_connections, max_keepalive_connections=max_keepalive)
        self._connections[:] = connections
        self.made = 0

    def create_connection(self, origin: httpcore.Origin) -> Any:
        self.made += 1
        return StandIn(f"new{self.made}", idle=False)

    def queue(self, count: int = 1, url: str = ORIGIN + "/v1/chat/completions") -> list[AsyncPoolRequest]:
        requests = [AsyncPoolRequest(httpcore.Request("POST", url)) for _ in range(count)]
        self._requests.extend(requests)
        return requests

    def place(self) -> list[Any]:
        return self._assign_requests_to_connections()


async def test_two_queued_requests_do_not_share_the_one_idle_connection() -> None:
    idle = StandIn("idle")
    pool = StandInPool([idle])
    first, second = pool.queue(2)
    assert pool.place() == []
    assert first.connection is idle and repr(second.connection) == "new1"


async def test_a_connection_given_to_a_request_is_not_given_again_in_a_later_pass() -> None:
    idle = StandIn("idle")
    pool = StandInPool([idle])
    (first,) = pool.queue()
    pool.place()
    (second,) = pool.queue()  # the first has not started on its connection yet: it is still idle
    pool.place()
    assert first.connection is idle and second.connection is not idle


async def test_a_connection_given_to_a_queued_request_is_not_closed_as_surplus_or_to_make_room() -> None:
    given, spare = StandIn("given"), StandIn("spare")
    pool = StandInPool([given, spare], max_connections=2, max_keepalive=0)
    (request,) = pool.queue()
    request.assign_to_connection(given)  # given in an earlier pass, not started
    assert pool.place() == [spare]
    assert pool.connections == [given]
    full = StandInPool([given, StandIn("busy", idle=False)], max_connections=2)
    held = AsyncPoolRequest(httpcore.Request("POST", ORIGIN))
    held.assign_to_connection(given)
    full._requests.append(held)
    (waiting,) = full.queue()
    assert full.place() == [] and waiting.is_queued()  # nothing free to close: it waits


async def test_the_keep_alive_limit_counts_idle_connections_the_oldest_closed_first() -> None:
    idle = [StandIn(f"idle{n}") for n in range(3)]
    busy = [StandIn(f"busy{n}", idle=False) for n in range(5)]
    pool = StandInPool([*busy, *idle], max_keepalive=2)
    assert pool.place() == [idle[0]]
    assert pool.connections == [*busy, idle[1], idle[2]]
    assert StandInPool([*busy, idle[1], idle[2]], max_keepalive=2).place() == []  # httpcore's pass closes both: it compares all 7 with the limit


async def test_closed_connections_leave_expired_ones_are_closed_and_a_full_pool_makes_room_from_a_free_idle_one() -> None:
    closed, expired, busy, idle = StandIn("closed", closed=True), StandIn("expired", expired=True), StandIn("busy", idle=False), StandIn("idle")
    pool = StandInPool([closed, expired, busy, idle], max_connections=2)
    (request,) = pool.queue(url="http://elsewhere.test/")  # no connection to that origin: one must be made
    assert pool.place() == [expired, idle]
    assert pool.connections == [busy, request.connection] and repr(request.connection) == "new1"


async def test_the_pass_relies_on_attributes_this_httpcore_has_and_another_version_gets_httpcores_own(monkeypatch: pytest.MonkeyPatch) -> None:
    assert placing.PLACES_REQUESTS, f"httpcore {httpcore.__version__}: check the pass against {placing.PLACED_FOR}'s and move the pin"
    fresh = httpcore.AsyncConnectionPool()
    assert all(hasattr(fresh, name) for name in RELIED_ON)
    assert all(hasattr(AsyncPoolRequest(httpcore.Request("GET", ORIGIN)), name) for name in ("connection", "is_queued", "assign_to_connection"))
    monkeypatch.setattr(placing, "PLACES_REQUESTS", False)
    idle = StandIn("idle")
    pool = StandInPool([idle])
    first, second = pool.queue(2)
    pool.place()
    assert first.connection is idle and second.connection is idle  # httpcore's pass books it twice (pydantic/httpx2#1075)
