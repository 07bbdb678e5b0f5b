"""The gateway report's cost: the quick report's wall time on the demo gateway, and what the
runner adds over the sum of its probes' own times (goal: under 5%).

Same run, same gateway, alternating: (a) every cell's probe called one after another in a plain
loop (the baseline: no runner), (b) the runner at one probe at a time (its overhead is its wall
time minus the sum of the probes' own times), (c) the runner at 4 and 8 at once (wall time).

    python -m bench.report [--runs 3]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from playground.client.gateway import GatewayClient
from playground.client.report.model import Scope
from playground.client.report.probe import one_attempt
from playground.client.report.runner import run_cell, run_report
from playground.client.transport import Connection, Transport
from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.server import start_in_thread


async def plain_loop(client: GatewayClient, conn: Connection, scope: Scope) -> tuple[float, float]:
    """(wall, sum of probe times) calling each cell's probe in turn, no runner."""
    quiet = one_attempt(client)
    started = time.perf_counter()
    probes = 0.0
    for cell in scope.cells():
        probes += (await run_cell(quiet, conn, scope, *cell)).seconds
    return time.perf_counter() - started, probes


async def runner(client: GatewayClient, conn: Connection, scope: Scope, concurrency: int) -> tuple[float, float, int, int]:
    """(wall, sum of probe times, cells, passed) through the runner."""
    started = time.perf_counter()
    state = None
    async for state in run_report(client, conn, scope, concurrency=concurrency):
        pass
    wall = time.perf_counter() - started
    assert state is not None
    results = state.report.results
    return wall, sum(r.seconds for r in results), len(results), sum(r.status == "pass" for r in results)


async def main(runs: int) -> None:
    gateway = start_in_thread(DemoConfig(api_key="bench-key", token_delay=0.0))
    conn = Connection(gateway.url, "bench-key")
    client = GatewayClient(Transport(read_timeout=30))
    scope = Scope.default()
    await runner(client, conn, scope, 4)  # warm up: pool, imports, Pillow
    loop_walls, loop_sums, one_walls, one_sums, walls4, walls8 = [], [], [], [], [], []
    cells = passed = 0
    for _ in range(runs):
        wall, probes = await plain_loop(client, conn, scope)
        loop_walls.append(wall)
        loop_sums.append(probes)
        wall, probes, cells, passed = await runner(client, conn, scope, 1)
        one_walls.append(wall)
        one_sums.append(probes)
        walls4.append((await runner(client, conn, scope, 4))[0])
        walls8.append((await runner(client, conn, scope, 8))[0])
    await client.aclose()
    gateway.stop()
    overheads = [(w - s) / s for w, s in zip(one_walls, one_sums)]
    loop_overheads = [(w - s) / s for w, s in zip(loop_walls, loop_sums)]
    print(f"quick report on the demo gateway: {cells} cells, {passed} passed, {runs} runs (medians)")
    print(f"{'how':<34}{'wall s':>9}{'probes s':>10}{'overhead':>10}")
    print(f"{'plain loop, no runner (baseline)':<34}{statistics.median(loop_walls):>9.2f}{statistics.median(loop_sums):>10.2f}{statistics.median(loop_overheads):>10.1%}")
    print(f"{'runner, 1 at once':<34}{statistics.median(one_walls):>9.2f}{statistics.median(one_sums):>10.2f}{statistics.median(overheads):>10.1%}")
    print(f"{'runner, 4 at once':<34}{statistics.median(walls4):>9.2f}{'':>10}{'':>10}")
    print(f"{'runner, 8 at once':<34}{statistics.median(walls8):>9.2f}{'':>10}{'':>10}")
    verdict = "met" if statistics.median(overheads) < 0.05 else "NOT met"
    print(f"goal (runner adds under 5% over its probes' own times): {verdict}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    asyncio.run(main(parser.parse_args().runs))
