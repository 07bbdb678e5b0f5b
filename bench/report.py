"""The gateway report's cost: the quick and the thorough report's wall time on the demo gateway,
and what the runner adds over the sum of its probes' own times (goal: under 5%).

Per profile, same gateway, alternating: (a) every cell's probe called one after another in a plain
loop (the baseline: no runner), (b) the runner at one probe at a time (its overhead is its wall
time minus the sum of the probes' own times), (c) the runner at 4 (the tab's default) and 8 at once
(wall time). `--profile` picks the profiles measured: quick (the default, what the smallest run in
tests/bench uses), thorough (every model, thinking variants, one video job per family at the demo's
own video timings), or both.

    python -m bench.report [--runs 3] [--profile quick|thorough|both]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from dataclasses import dataclass, field

from bench.header import print_footer, print_header
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


PROFILES = ("quick", "thorough")


@dataclass
class Measured:
    """One profile's runs: walls and probe sums per way of running (medians are taken when printed)."""

    cells: int = 0
    passed: int = 0
    loop: list[tuple[float, float]] = field(default_factory=list)
    one: list[tuple[float, float]] = field(default_factory=list)
    four: list[float] = field(default_factory=list)
    eight: list[float] = field(default_factory=list)


async def measure(client: GatewayClient, conn: Connection, profile: str, runs: int) -> Measured:
    scope = Scope.default(thorough=profile == "thorough")
    measured = Measured()
    for _ in range(runs):
        measured.loop.append(await plain_loop(client, conn, scope))
        wall, probes, measured.cells, measured.passed = await runner(client, conn, scope, 1)
        measured.one.append((wall, probes))
        measured.four.append((await runner(client, conn, scope, 4))[0])
        measured.eight.append((await runner(client, conn, scope, 8))[0])
    return measured


def _overhead(pairs: list[tuple[float, float]]) -> float:
    return statistics.median((wall - probes) / probes for wall, probes in pairs)


def _median(values: list[float]) -> float:
    return statistics.median(values)


def print_table(results: dict[str, Measured], runs: int) -> None:
    print(f"gateway report on the demo gateway, {runs} run(s) per profile (medians)")
    for profile, m in results.items():
        print(f"  {profile}: {m.cells} cells, {m.passed} passed")
    print(f"{'profile':<10}{'how':<34}{'wall s':>9}{'probes s':>10}{'overhead':>10}")
    for profile, m in results.items():
        print(f"{profile:<10}{'plain loop, no runner (baseline)':<34}{_median([w for w, _ in m.loop]):>9.2f}"
              f"{_median([p for _, p in m.loop]):>10.2f}{_overhead(m.loop):>10.1%}")
        print(f"{profile:<10}{'runner, 1 at once':<34}{_median([w for w, _ in m.one]):>9.2f}{_median([p for _, p in m.one]):>10.2f}{_overhead(m.one):>10.1%}")
        print(f"{profile:<10}{'runner, 4 at once':<34}{_median(m.four):>9.2f}")
        print(f"{profile:<10}{'runner, 8 at once':<34}{_median(m.eight):>9.2f}")
    for profile, m in results.items():
        verdict = "met" if _overhead(m.one) < 0.05 else "NOT met"
        print(f"goal (runner adds under 5% over its probes' own times), {profile}: {verdict}")


async def main(runs: int, profiles: tuple[str, ...]) -> None:
    print_header()
    gateway = start_in_thread(DemoConfig(api_key="bench-key", token_delay=0.0))
    conn = Connection(gateway.url, "bench-key")
    client = GatewayClient(Transport(read_timeout=30))
    await runner(client, conn, Scope.default(), 4)  # warm up: pool, imports, Pillow
    results = {profile: await measure(client, conn, profile, runs) for profile in profiles}
    await client.aclose()
    gateway.stop()
    print_table(results, runs)
    print_footer()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--profile", choices=(*PROFILES, "both"), default="quick", help="the profiles measured (default: quick)")
    arguments = parser.parse_args()
    asyncio.run(main(arguments.runs, PROFILES if arguments.profile == "both" else (arguments.profile,)))
