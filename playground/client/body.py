"""A streamed response body read with fewer layers.

httpx hands a chunked body over one HTTP chunk at a time through six async-generator layers
(httpx's response and stream wrappers, httpcore's pool and connection streams, its event loop
over h11, h11's chunked reader): about 15 µs per chunk, which with a gateway that flushes every
event as its own chunk costs more than the rest of the client's work on the event.

`iter_body` reads such a body (HTTP/1.1, chunked, not content-encoded) straight from the
connection's network stream, takes the chunk framing apart with bytes operations and hands over
what one read brought as one piece. The last chunk and the trailers are given to the
connection's h11 state machine, so the connection goes back to the pool exactly as when httpcore
reads the body itself; a body that ends early, is cut or is stopped leaves h11 mid-message, and
httpcore closes the connection, as before. Anything else (another transport, HTTP/2, a
content-encoded or a Content-Length body, a body already being read) is read through httpx.
Read errors are httpx's (`ReadTimeout`, `ReadError`, `RemoteProtocolError`), as from `aiter_raw`.

It relies on httpx's and httpcore's internals (pinned in requirements.txt);
`tests/client/test_body_reader.py` fails if the direct path is no longer taken.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any

import h11
import httpcore
import httpx

READ_BYTES = 64 * 1024
"""As much as httpcore reads at once."""
MAX_CHUNK_LINE = 4096
"""A chunk-size line longer than this is a broken stream, not a line still arriving."""
_CHUNK_LINE = re.compile(rb"([0-9A-Fa-f]{1,20})(?:;[^\r\n]*)?[ \t]*")
"""h11's chunk header: hex size, optional extensions, optional trailing whitespace."""


def _direct(response: httpx.Response) -> tuple[h11.Connection, Any] | None:
    """(the connection's h11 state, its network stream) when the body can be read directly."""
    headers = response.headers
    if headers.get("transfer-encoding", "").strip().lower() != "chunked":
        return None
    if headers.get("content-encoding", "identity").strip().lower() not in ("", "identity"):
        return None
    if response.is_stream_consumed or response.is_closed or response.http_version != "HTTP/1.1":
        return None
    try:
        stream: Any = response.stream  # its private chain is read as untyped, each step checked by the AttributeError below
        connection = stream._stream._httpcore_stream._stream._connection
        state = connection._h11_state
        network = connection._network_stream
        state._receive_buffer.maybe_extract_at_most  # noqa: B018 (the method the drain uses)
    except AttributeError:
        return None
    if not isinstance(state, h11.Connection) or state.their_state is not h11.SEND_BODY or state.trailing_data[1]:
        return None
    if network is None or response.extensions.get("network_stream") is not network:
        return None
    return state, network


async def iter_body(response: httpx.Response) -> AsyncIterator[bytes]:
    """The body's bytes as they arrive (one piece per read), without content decoding."""
    direct = _direct(response)
    if direct is None:
        async for chunk in response.aiter_raw():
            yield chunk
        return
    response.is_stream_consumed = True
    async for piece in _read_chunked(response, *direct):
        yield piece


async def _read(network: Any, timeout: float | None, request: httpx.Request) -> bytes:
    try:
        return await network.read(READ_BYTES, timeout=timeout)
    except httpcore.TimeoutException as exc:
        raise httpx.ReadTimeout(str(exc) or "read timed out", request=request) from exc
    except (httpcore.NetworkError, OSError) as exc:
        raise httpx.ReadError(str(exc) or type(exc).__name__, request=request) from exc


def _broken(what: str, request: httpx.Request) -> httpx.RemoteProtocolError:
    return httpx.RemoteProtocolError(what, request=request)


async def _read_chunked(response: httpx.Response, state: h11.Connection, network: Any) -> AsyncIterator[bytes]:
    request = response.request
    timeout = request.extensions.get("timeout", {}).get("read")
    buffer = state._receive_buffer  # what h11 read past the headers
    pending = bytes(buffer.maybe_extract_at_most(len(buffer)) or b"")
    remaining = 0
    """Payload bytes of the current chunk still to come."""
    footer = False
    """The CRLF after a chunk's payload is still to come."""
    while True:
        pieces: list[bytes] = []
        pos, size = 0, len(pending)
        last = -1
        while True:
            if remaining:
                end = min(pos + remaining, size)
                if end > pos:
                    pieces.append(pending[pos:end])
                    remaining -= end - pos
                    pos = end
                if remaining:
                    break
                footer = True
            if footer:
                if size - pos < 2:
                    break
                if pending[pos] != 13 or pending[pos + 1] != 10:
                    raise _broken(f"malformed chunk footer: {pending[pos:pos + 2]!r}", request)
                pos += 2
                footer = False
            eol = pending.find(b"\r\n", pos)
            if eol < 0:
                if size - pos > MAX_CHUNK_LINE:
                    raise _broken("chunk header too long", request)
                break
            match = _CHUNK_LINE.fullmatch(pending, pos, eol)
            if match is None:
                raise _broken(f"illegal chunk header: {pending[pos:min(eol, pos + 40)]!r}", request)
            remaining = int(match.group(1), 16)
            if not remaining:
                last = pos
                break
            pos = eol + 2
        if pieces:
            yield b"".join(pieces)
        if last >= 0:
            await _finish(state, network, pending[last:], timeout, request)
            return
        pending = pending[pos:]
        data = await _read(network, timeout, request)
        if not data:
            raise _broken("peer closed connection without sending complete message body (incomplete chunked read)", request)
        pending = pending + data if pending else data


async def _finish(state: h11.Connection, network: Any, tail: bytes, timeout: float | None, request: httpx.Request) -> None:
    """Give h11 the last chunk, the trailers and whatever followed: it ends the message (the
    connection can be reused) as when it reads the whole body itself."""
    state.receive_data(tail)
    while True:
        try:
            event = state.next_event()
        except h11.RemoteProtocolError as exc:
            raise _broken(str(exc), request) from exc
        if event is h11.NEED_DATA:
            state.receive_data(await _read(network, timeout, request))
        elif isinstance(event, h11.EndOfMessage) or event is h11.PAUSED:
            return
        elif isinstance(event, h11.ConnectionClosed):
            raise _broken("peer closed connection without sending complete message body", request)
