"""A kept-alive connection the gateway closes while it is idle, at the moment a request reuses it.

A real loopback server (raw asyncio, in the test's loop) answers one request per connection
and keeps it open; then it closes the idle connection while the client is taking it from the
pool for the next POST. Where the close lands depends on how many loop steps the client has
taken, so several landing points are tried: where the connection was found closed before any
byte was written the POST is sent once more on a new connection and succeeds; where it broke
after the request was written it is reported and never sent again.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest

from playground.client import errors
from playground.client.transport import Connection, Transport
from tests.conftest import RecordingSleep

STALE = "kept-alive connection closed by the gateway before the request was written"


class IdleClosingServer:
    """Answers each POST with JSON and keeps the connection; `close_idle()` closes the idle ones.
    With `hang_up_on_request`, it reads the second request of a connection and closes it unanswered."""

    def __init__(self, hang_up_on_request: bool = False) -> None:
        self.hang_up_on_request = hang_up_on_request
        self.idle: set[asyncio.StreamWriter] = set()
        self.received: list[bytes] = []
        self.connections = 0

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        served = 0
        try:
            while True:
                self.idle.add(writer)
                head = await reader.readuntil(b"\r\n\r\n")
                self.idle.discard(writer)
                length = next((int(line.split(b":", 1)[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")), 0)
                body = await reader.readexactly(length)
                self.received.append(body)
                if self.hang_up_on_request and served == 1:
                    break
                answer = json.dumps({"ok": True, "body": json.loads(body)}).encode()
                writer.write(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: %d\r\n\r\n%s" % (len(answer), answer))
                await writer.drain()
                served += 1
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            self.idle.discard(writer)
            writer.close()

    def close_idle(self) -> None:
        for writer in list(self.idle):
            self.idle.discard(writer)
            writer.close()


@asynccontextmanager
async def serving(server: IdleClosingServer) -> AsyncIterator[str]:
    listener = await asyncio.start_server(server.handle, "127.0.0.1", 0)
    port = listener.sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        listener.close()


@asynccontextmanager
async def warmed(server: IdleClosingServer) -> AsyncIterator[tuple[Transport, Connection]]:
    """A transport holding one kept-alive connection to `server`, warmed by a first POST."""
    transport = Transport(connect_timeout=2.0, read_timeout=5.0, sleep=RecordingSleep())
    try:
        async with serving(server) as url:
            conn = Connection(url, "sk-test")
            await transport.request_json(conn, "POST", "/v1/chat/completions", {"n": 1})
            yield transport, conn
    finally:
        await transport.aclose()


async def post_while_the_server_closes(steps: int) -> tuple[object, list[str], IdleClosingServer]:
    """One POST to warm a connection, then a second POST during which the server closes the idle
    connection after `steps` loop steps. Returns (the second answer or error, attempt outcomes, server)."""
    server = IdleClosingServer()
    async with warmed(server) as (transport, conn):

        async def close_after(n: int) -> None:
            for _ in range(n):
                await asyncio.sleep(0)
            server.close_idle()

        closer = asyncio.create_task(close_after(steps))
        try:
            data, exchange = await transport.request_json(conn, "POST", "/v1/chat/completions", {"n": 2})
            return data, exchange.attempt_outcomes, server
        except errors.GatewayError as error:
            return error, error.exchange.attempt_outcomes, server
        finally:
            await closer


async def test_a_post_on_a_connection_closed_at_the_moment_of_reuse_is_sent_again_only_if_nothing_was_written() -> None:
    outcomes_seen = []
    for steps in range(8):
        answer, outcomes, server = await post_while_the_server_closes(steps)
        if isinstance(answer, errors.GatewayError):  # the close came after the request was written: reported, not resent
            assert outcomes == ["connection broken"] and server.connections == 1, f"close after {steps} loop steps: {outcomes}"
            assert "Could not reach the gateway" in str(answer) or "connection" in str(answer)
        else:
            assert answer == {"ok": True, "body": {"n": 2}}
            assert server.received.count(b'{"n":2}') == 1  # the gateway got the second POST exactly once
        outcomes_seen.append(outcomes)
    # the close landed between the pool's own check and the first byte: sent again on a new connection
    assert [STALE, "200"] in outcomes_seen, outcomes_seen
    assert ["200"] in outcomes_seen, outcomes_seen


async def test_a_post_that_may_have_reached_the_gateway_is_never_resent() -> None:
    server = IdleClosingServer(hang_up_on_request=True)
    async with warmed(server) as (transport, conn):
        with pytest.raises(errors.APIConnectionError) as caught:
            await transport.request_json(conn, "POST", "/v1/chat/completions", {"n": 2})
    assert server.received == [b'{"n":1}', b'{"n":2}'] and server.connections == 1
    assert caught.value.exchange.attempt_outcomes == ["connection broken"]


async def test_an_idle_connection_the_gateway_closed_is_dropped_before_reuse_and_its_socket_found_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pool's readability test of idle connections still drops one the gateway closed (nothing
    is written into it: no resend needed), and is answered from the socket the stream found once,
    not by asking anyio's stream (a getpeername and a dict each time) for every idle connection
    at every request."""
    from httpcore._backends.anyio import AnyIOStream

    asked: list[str] = []
    real = AnyIOStream.get_extra_info
    monkeypatch.setattr(AnyIOStream, "get_extra_info", lambda stream, info: asked.append(info) or real(stream, info))
    server = IdleClosingServer()
    async with warmed(server) as (transport, conn):
        server.close_idle()
        await asyncio.sleep(0.2)  # the gateway's FIN has reached the client's socket
        _, exchange = await transport.request_json(conn, "POST", "/v1/chat/completions", {"n": 2})
        for n in range(3, 8):
            await transport.request_json(conn, "POST", "/v1/chat/completions", {"n": n})
    assert exchange.attempt_outcomes == ["200"] and server.connections == 2
    assert "is_readable" not in asked and asked.count("socket") <= server.connections, asked
