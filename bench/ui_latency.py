"""What the UI adds to time to first token: the same streamed chat reply read directly through
the client and through the running app's Gradio queue (as a browser receives it), alternating.

    python -m bench.ui_latency [--tries 30]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

import httpx

from bench.app_queue import KEY, RunningApp, chat_once, start_app
from bench.header import print_footer, print_header
from playground.client.chat import ChatRequest
from playground.client.gateway import GatewayClient
from playground.client.results import TextDelta
from playground.client.transport import Connection, Transport


async def direct_ttft(client: GatewayClient, conn: Connection, text: str) -> float:
    request = ChatRequest.build(model="gx-2.5-flash", messages=[{"role": "user", "content": text}], stream=True,
                                temperature=0.7, top_p=1.0)
    start = time.perf_counter()
    first: float | None = None
    async with client.chat.stream(conn, request) as stream:
        async for event in stream:
            if first is None and isinstance(event, TextDelta) and event.text:
                first = time.perf_counter() - start
    assert first is not None, "the direct stream carried no text"
    return first


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


async def measure(app: RunningApp, tries: int) -> tuple[list[float], list[float]]:
    client = GatewayClient(Transport())
    conn = Connection(app.gateway.url, KEY)
    direct, through_app = [], []
    async with httpx.AsyncClient(timeout=60) as http:
        await chat_once(http, app, "warm up")
        await direct_ttft(client, conn, "warm up")
        for index in range(tries):
            direct.append(await direct_ttft(client, conn, f"hello {index}"))
            reply = await chat_once(http, app, f"hello {index}")
            assert reply.ttft is not None, f"no reply text came through the queue: {reply.text[:200]}"
            through_app.append(reply.ttft)
    await client.aclose()
    return direct, through_app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tries", type=int, default=30)
    tries = parser.parse_args().tries
    print_header()
    app = start_app()
    try:
        direct, through_app = asyncio.run(measure(app, tries))
    finally:
        app.stop()
    print(f"time to first token over {tries} tries each (demo gateway, token delay 30 ms)")
    print(f"{'path':<28}{'p50 ms':>9}{'p95 ms':>9}")
    for name, values in (("client directly (baseline)", direct), ("through the app's queue", through_app)):
        print(f"{name:<28}{statistics.median(values) * 1000:>9.1f}{percentile(values, 0.95) * 1000:>9.1f}")
    added = [(statistics.median(through_app) - statistics.median(direct)) * 1000, (percentile(through_app, 0.95) - percentile(direct, 0.95)) * 1000]
    print(f"{'added by the UI':<28}{added[0]:>9.1f}{added[1]:>9.1f}   (goal: at most 30 ms at p50)")
    print_footer()


if __name__ == "__main__":
    main()
