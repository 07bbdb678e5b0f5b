"""Kept-alive connections the gateway closed while they sat idle in the pool.

A server closes an idle keep-alive connection on its own timer (uvicorn after 5 s). If that
happens just as the pool hands the connection to a new request, the request is written into a
closed connection and fails with "Server disconnected without sending a response": the
request may or may not have reached the gateway, so a POST must not be sent again.

`ReuseCheckedBackend` narrows that to a case that is provably safe: right before the first
byte of a request is written on a connection that already carried a response, it peeks at the
socket; if the gateway has closed it (end of stream or reset), nothing is written and
`StaleConnectionError` is raised instead. The transport sends such a request again, once, on a
new connection. Everything else (a break after the request was written) is reported, never
resent, as before.

The stream also answers httpcore's own question about an idle pooled connection ("is it
readable?", asked of every idle connection each time the pool places a request) from the socket
it found once: asked of the stream, anyio builds its attributes anew, a `getpeername` call
included, every time (2.2 s of a 1,000-row Batch run's 14 s profile, issue 41's pool-expiry scan).
"""

from __future__ import annotations

from playground.client.texts import Text

import select
import socket
from typing import Any

import httpcore

_PEEK_FLAGS = socket.MSG_PEEK | getattr(socket, "MSG_DONTWAIT", 0)


class StaleConnectionError(httpcore.ConnectError):
    """The pooled connection was closed by the gateway before any byte of the request was written."""


def _closed_by_peer(sock: Any) -> bool:
    """Whether the other end has closed or reset the connection (peeking: nothing is consumed).
    `sock` is the stream's socket (asyncio hands out a wrapper that cannot recv: peek on a dup)."""
    try:
        fileno = sock.fileno() if sock is not None else -1
    except (AttributeError, OSError):
        return False
    if fileno < 0:
        return False
    try:
        with socket.fromfd(fileno, sock.family, sock.type) as peer:
            peer.setblocking(False)
            return peer.recv(1, _PEEK_FLAGS) == b""
    except (BlockingIOError, InterruptedError):
        return False  # nothing to read: open and quiet, as an idle HTTP/1.1 connection should be
    except OSError:
        return True  # reset or otherwise broken


def _readable(sock: Any) -> bool:
    """httpcore's test of an idle connection: data or the end of the stream is waiting (then the
    pool drops it). A socket without a descriptor counts as readable, as httpcore counts it."""
    try:
        fileno = sock.fileno()
    except (AttributeError, OSError):
        return True
    if fileno < 0:
        return True
    poller = select.poll()
    poller.register(fileno, select.POLLIN)
    return bool(poller.poll(0))


_NOT_ASKED = object()


class ReuseCheckedStream(httpcore.AsyncNetworkStream):
    """A network stream that refuses to start a request on a connection the gateway has closed."""

    def __init__(self, inner: httpcore.AsyncNetworkStream) -> None:
        self._inner = inner
        self._socket: Any = _NOT_ASKED
        self._answered = False
        """A response was read on this connection: the next request reuses it."""
        self._writing = False
        """The current request has started to be written."""

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        self._writing = False
        data = await self._inner.read(max_bytes, timeout)
        self._answered = self._answered or bool(data)
        return data

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:
        first, self._writing = not self._writing, True
        if first and self._answered and _closed_by_peer(self._raw_socket()):
            raise StaleConnectionError(Text("keepalive.stale_connection"))
        await self._inner.write(buffer, timeout)

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def start_tls(self, ssl_context: Any, server_hostname: str | None = None, timeout: float | None = None) -> httpcore.AsyncNetworkStream:
        wrapped = ReuseCheckedStream(await self._inner.start_tls(ssl_context, server_hostname, timeout))
        wrapped._answered = self._answered
        return wrapped

    def _raw_socket(self) -> Any:
        if self._socket is _NOT_ASKED:
            self._socket = self._inner.get_extra_info("socket")
        return self._socket

    def get_extra_info(self, info: str) -> Any:
        if info == "socket":
            return self._raw_socket()
        if info == "is_readable" and self._raw_socket() is not None and hasattr(select, "poll"):
            return _readable(self._raw_socket())
        return self._inner.get_extra_info(info)


class ReuseCheckedBackend(httpcore.AsyncNetworkBackend):
    """httpcore's network backend whose streams are `ReuseCheckedStream`s."""

    def __init__(self, inner: httpcore.AsyncNetworkBackend) -> None:
        self._inner = inner

    async def connect_tcp(self, host: str, port: int, timeout: float | None = None, local_address: str | None = None,
                          socket_options: Any = None) -> httpcore.AsyncNetworkStream:
        stream = await self._inner.connect_tcp(host, port, timeout=timeout, local_address=local_address, socket_options=socket_options)
        return ReuseCheckedStream(stream)

    async def connect_unix_socket(self, path: str, timeout: float | None = None, socket_options: Any = None) -> httpcore.AsyncNetworkStream:
        return ReuseCheckedStream(await self._inner.connect_unix_socket(path, timeout=timeout, socket_options=socket_options))

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)
