"""A chunked stream read straight from the connection (`body.iter_body`): the same events as
through httpx for any chunking, the connection reused after a complete body, and a body that is
cut or broken reported as such with the partial answer kept and the connection not reused.

A raw asyncio loopback server writes the HTTP/1.1 chunk framing itself (chunk extensions, an
event split across chunks, several events in one chunk, a header split across writes, trailers).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import h11
import httpx
import pytest

from playground.client import body as body_module
from playground.client.errors import IncompleteStreamError
from playground.client.gateway import GatewayClient
from playground.client.messages import MessagesRequest
from playground.client.transport import Connection, Transport

HEAD = b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n"


def _event(kind: str, **fields: object) -> bytes:
    return f"event: {kind}\ndata: {json.dumps({'type': kind, **fields})}\n\n".encode()


def _delta(text: str) -> bytes:
    return _event("content_block_delta", index=0, delta={"type": "text_delta", "text": text})


START = _event("message_start", message={"usage": {"input_tokens": 3, "output_tokens": 1}}) + \
    _event("content_block_start", index=0, content_block={"type": "text", "text": ""})
END = _event("content_block_stop", index=0) + _event("message_delta", delta={"stop_reason": "end_turn"}, usage={"output_tokens": 4}) + \
    _event("message_stop")
WORDS = ["Hé", "llo", " wörld", " ✓"]


def _chunk(data: bytes, extension: bytes = b"") -> bytes:
    return b"%x%s\r\n%s\r\n" % (len(data), extension, data)


def complete_writes() -> list[bytes]:
    """One answer, written in pieces that cut the framing in awkward places."""
    split = _delta(WORDS[1])
    return [
        HEAD + _chunk(START),
        _chunk(_delta(WORDS[0]), b";name=value"),
        _chunk(split[:10])[:-1], b"\n" + _chunk(split[10:])[:3], _chunk(split[10:])[3:],  # an event across two chunks, a footer and a header cut
        _chunk(_delta(WORDS[2]) + _delta(WORDS[3]) + END) + b"0\r\nx-trailer: 1\r\n\r\n",
    ]


class ChunkServer:
    """Answers every POST on a connection with `writes` (each written, then a short pause, so
    they tend to arrive in separate reads); `close_after` writes, it closes the connection."""

    def __init__(self, writes: list[bytes], close_after: int | None = None) -> None:
        self.writes = writes
        self.close_after = close_after
        self.connections = 0
        self.requests = 0

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = next((int(line.split(b":", 1)[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")), 0)
                await reader.readexactly(length)
                self.requests += 1
                for number, piece in enumerate(self.writes):
                    if self.close_after is not None and number == self.close_after:
                        return
                    writer.write(piece)
                    await writer.drain()
                    await asyncio.sleep(0.01)
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()


@asynccontextmanager
async def serving(server: ChunkServer) -> AsyncIterator[str]:
    listener = await asyncio.start_server(server.handle, "127.0.0.1", 0)
    try:
        yield f"http://127.0.0.1:{listener.sockets[0].getsockname()[1]}"
    finally:
        listener.close()


@pytest.fixture
def direct_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the bodies read straight from the connection."""
    taken: list[int] = []
    original = body_module._read_chunked

    def counted(*args: object) -> AsyncIterator[bytes]:
        taken.append(1)
        return original(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(body_module, "_read_chunked", counted)
    return taken


async def _stream(client: GatewayClient, url: str):  # type: ignore[no-untyped-def]
    request = MessagesRequest.build(model="cl-sonnet-4-5-20250929", messages=[{"role": "user", "content": "hi"}], max_tokens=50)
    stream = client.messages.stream(Connection(url, "sk-test-key"), request)
    async with stream:
        async for _ in stream:
            pass
    return stream


async def test_a_chunked_stream_read_directly_has_every_event_and_the_connection_is_reused(direct_reads: list[int]) -> None:
    server = ChunkServer(complete_writes())
    client = GatewayClient(Transport(connect_timeout=2.0, read_timeout=5.0))
    async with serving(server) as url:
        for _ in range(2):
            stream = await _stream(client, url)
            assert stream.result.text == "".join(WORDS)
            assert stream.result.complete and stream.result.finish_reason == "end_turn"
            assert stream.result.usage is not None and stream.result.usage.output_tokens == 4
            assert [event.event for event in stream.exchange.events][-1] == "message_stop"
        await client.aclose()
    assert direct_reads == [1, 1], "the body was not read straight from the connection"
    assert (server.connections, server.requests) == (1, 2), "the connection was not reused after a complete body"


@pytest.mark.parametrize("cut", [2, 3], ids=["between chunks", "inside a chunk"])
async def test_a_cut_chunked_stream_keeps_the_partial_answer_and_drops_the_connection(direct_reads: list[int], cut: int) -> None:
    server = ChunkServer(complete_writes(), close_after=cut)
    client = GatewayClient(Transport(connect_timeout=2.0, read_timeout=5.0))
    async with serving(server) as url:
        for _ in range(2):
            with pytest.raises(IncompleteStreamError, match="connection was cut") as caught:
                await _stream(client, url)
            assert caught.value.partial.text == WORDS[0]  # type: ignore[attr-defined]
        await client.aclose()
    assert direct_reads == [1, 1]
    assert server.connections == 2, "a connection whose body was cut went back to the pool"


async def test_a_malformed_chunk_header_is_a_broken_stream(direct_reads: list[int]) -> None:
    writes = [HEAD + _chunk(START), _chunk(_delta(WORDS[0])), b"zz\r\n" + _delta(WORDS[1]) + b"\r\n", b"0\r\n\r\n"]
    server = ChunkServer(writes)
    client = GatewayClient(Transport(connect_timeout=2.0, read_timeout=5.0))
    async with serving(server) as url:
        with pytest.raises(IncompleteStreamError) as caught:
            await _stream(client, url)
        await client.aclose()
    assert caught.value.partial.text == WORDS[0]  # type: ignore[attr-defined]
    assert direct_reads == [1]


class SlicedNetwork:
    """A network stream that returns `data` `size` bytes per read."""

    def __init__(self, data: bytes, size: int) -> None:
        self._pieces = [data[i:i + size] for i in range(0, len(data), size)]

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._pieces.pop(0) if self._pieces else b""


@pytest.mark.parametrize("size", [1, 2, 3, 5, 7, 64, 100_000])
async def test_the_chunk_decoder_gives_the_payload_for_any_read_size(size: int) -> None:
    payload = [START, _delta(WORDS[0]), b"", _delta(WORDS[1]) * 3, END]
    framed = b"".join(_chunk(p, b";x=1" if i % 2 else b"") for i, p in enumerate(payload) if p) + b"0\r\nx-trailer: 1\r\n\r\n"
    wire = HEAD + framed
    state = h11.Connection(h11.CLIENT)
    state.send(h11.Request(method="POST", target="/", headers=[("Host", "x"), ("Content-Length", "0")]))
    state.send(h11.EndOfMessage())
    state.receive_data(wire[:len(HEAD) + min(size, 9)])  # what httpcore read with the headers
    assert isinstance(state.next_event(), h11.Response)
    request = httpx.Request("POST", "http://x/")
    response = httpx.Response(200, request=request)
    network = SlicedNetwork(wire[len(HEAD) + min(size, 9):], size)
    got = [piece async for piece in body_module._read_chunked(response, state, network)]
    assert b"".join(got) == b"".join(payload)
    assert state.their_state is h11.DONE, "h11 did not see the end of the message"
