"""Stream handling throughput: our chat client vs the official openai SDK, same local stream.

Both read the same long chat-completions stream from the demo gateway (no token delay) over
loopback, alternating runs so machine noise hits both alike. Prints a table and the ratio.

    python -m bench.stream_throughput [--runs 15]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

import openai

from bench.header import print_footer, print_header
from playground.client.chat import ChatRequest
from playground.client.gateway import GatewayClient
from playground.client.transport import Connection, Transport
from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.server import start_in_thread

PROMPT = "please write a long answer"
MODEL = "gx-2.5-flash"


async def ours(client: GatewayClient, conn: Connection) -> tuple[float, int]:
    request = ChatRequest.build(model=MODEL, messages=[{"role": "user", "content": PROMPT}])
    start = time.perf_counter()
    async with client.chat.stream(conn, request) as stream:
        count = sum([1 async for _ in stream])
    return time.perf_counter() - start, count


async def sdk(client: openai.AsyncOpenAI) -> tuple[float, int]:
    start = time.perf_counter()
    stream = await client.chat.completions.create(model=MODEL, messages=[{"role": "user", "content": PROMPT}], stream=True)
    count = 0
    text = []
    async for chunk in stream:
        count += 1
        if chunk.choices and chunk.choices[0].delta.content:
            text.append(chunk.choices[0].delta.content)
    assert "".join(text), "the SDK stream carried no text"
    return time.perf_counter() - start, count


async def main(runs: int) -> None:
    gateway = start_in_thread(DemoConfig(api_key="bench-key", token_delay=0.0))
    conn = Connection(gateway.url, "bench-key")
    ours_client = GatewayClient(Transport())
    sdk_client = openai.AsyncOpenAI(base_url=gateway.url + "/v1", api_key="bench-key", max_retries=0)
    await ours(ours_client, conn)
    await sdk(sdk_client)
    ours_times, sdk_times, events, chunks = [], [], 0, 0
    for _ in range(runs):
        elapsed, events = await ours(ours_client, conn)
        ours_times.append(elapsed)
        elapsed, chunks = await sdk(sdk_client)
        sdk_times.append(elapsed)
    await ours_client.aclose()
    await sdk_client.close()
    gateway.stop()
    ours_median, sdk_median = statistics.median(ours_times), statistics.median(sdk_times)
    print(f"{'client':<22}{'median ms':>12}{'min ms':>10}{'events':>9}{'events/s':>12}")
    print(f"{'playground client':<22}{ours_median * 1000:>12.1f}{min(ours_times) * 1000:>10.1f}{events:>9}{events / ours_median:>12.0f}")
    print(f"{'openai SDK':<22}{sdk_median * 1000:>12.1f}{min(sdk_times) * 1000:>10.1f}{chunks:>9}{chunks / sdk_median:>12.0f}")
    print(f"ratio (SDK time / playground time): {sdk_median / ours_median:.2f}  (>1 means the playground client is faster)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    runs = parser.parse_args().runs
    print_header()
    asyncio.run(main(runs))
    print_footer()
