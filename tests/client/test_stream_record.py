"""What a long stream leaves behind: its raw record is complete (also past a stop in the middle
of a read) and holds no object per event that the garbage collector has to track (one tracked
object per event set off full collections of the whole heap every few long streams)."""

from __future__ import annotations

import gc

from playground.client.gateway import GatewayClient
from playground.client.messages import MessagesRequest
from playground.client.transport import Connection, Transport
from tests.client.test_body_reader import END, HEAD, START, ChunkServer, _chunk, _delta, serving

EVENTS = 5000


def _request() -> MessagesRequest:
    return MessagesRequest.build(model="cl-sonnet-4-5-20250929", messages=[{"role": "user", "content": "hi"}], max_tokens=50)


async def test_a_long_streams_record_is_complete_and_not_tracked_by_the_garbage_collector() -> None:
    body = START + b"".join(_delta(f"w{i} ") for i in range(EVENTS)) + END
    server = ChunkServer([HEAD + _chunk(body) + b"0\r\n\r\n"])
    client = GatewayClient(Transport(connect_timeout=2.0, read_timeout=5.0))
    async with serving(server) as url:
        gc.collect()
        before = len(gc.get_objects())
        stream = client.messages.stream(Connection(url, "sk-test-key"), _request())
        async with stream:
            async for _ in stream:
                pass
        gc.collect()
        added = len(gc.get_objects()) - before
        await client.aclose()
    assert stream.result.text == "".join(f"w{i} " for i in range(EVENTS))
    assert added < EVENTS // 10, f"{added} more objects tracked by the garbage collector after a stream of {EVENTS} events"
    assert len(stream.exchange.events) == EVENTS + 5 and stream.exchange.events[-1].event == "message_stop"


async def test_a_stream_stopped_in_the_middle_of_a_read_records_the_rest_of_that_read() -> None:
    server = ChunkServer([HEAD + _chunk(START + _delta("one") + _delta("two") + _delta("three")), _chunk(END) + b"0\r\n\r\n"])
    client = GatewayClient(Transport(connect_timeout=2.0, read_timeout=5.0))
    async with serving(server) as url:
        stream = client.messages.stream(Connection(url, "sk-test-key"), _request())
        async with stream:
            events = stream.__aiter__()
            while getattr(await events.__anext__(), "text", "") != "one":
                pass
            await events.aclose()  # Stop
        await client.aclose()
    assert stream.result.text == "one"
    recorded = [event.data for event in stream.exchange.events]
    assert len(recorded) == 5 and '"three"' in recorded[-1], recorded
