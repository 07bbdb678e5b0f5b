"""Visitors who leave are forgotten (issue 41): N visitors each load the page as a browser does (the
page, its load events with the heartbeat open, `bench.page_visit`), send one chat message and close
the page; the app's resident memory before, right after they closed, and after the release window.
The same-run baseline is a second app process with the release turned off
(`PLAYGROUND_SESSION_RELEASE_S=0`: Gradio's own behaviour), driven by the same visitors.

    python -m bench.closed_visitors [--visitors 400] [--release-s 180] [--every-s 30] [--at-once 20] [--port P]

A second wave of as many visitors follows the first's window: the first wave also raises the
process's high-water mark (pages and events served at once, caches filled), which RSS keeps whether
or not the sessions are released; the second wave's growth is what each visitor leaves behind (memory
released in the first window is reused). The two apps run side by side, driven at once, so both
see the same load.

Goal: at most 50 KB a visitor left after the window, the window within 5 minutes of closing. RSS is
what the system sees: memory Python freed but the allocator kept counts as held.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time
from dataclasses import dataclass, field

import httpx

from bench.app_queue import ChatEvents, page_events
from bench.concurrent_chat import AppProcess, start_app_process
from bench.header import print_footer, print_header
from bench.long_session import rss_mb
from bench.page_visit import PageEvents, visit_once


@dataclass
class Measured:
    name: str
    app: AppProcess
    rows: dict[str, float] = field(default_factory=dict)
    failed: list[str] = field(default_factory=list)
    cpu_s: float = 0.0


async def wave(http: httpx.AsyncClient, measured: Measured, page: PageEvents, chat: ChatEvents, visitors: int, at_once: int) -> None:
    """`visitors` visits, `at_once` at a time."""
    cpu = measured.app.cpu_seconds()
    for start in range(0, visitors, at_once):
        visits = await asyncio.gather(*(visit_once(http, measured.app.url, page, chat) for _ in range(min(at_once, visitors - start))))
        measured.failed += [problem for visit in visits for problem in visit.failed]
        if measured.app.process.poll() is not None:
            raise RuntimeError(f"the app ({measured.name}) ended with code {measured.app.process.returncode}")
    measured.cpu_s += measured.app.cpu_seconds() - cpu


async def drive(measured: Measured, visitors: int, at_once: int, wait_s: float) -> None:
    """Two visits to warm up, then two waves of `visitors`, each followed by the release window."""
    app = measured.app
    limits = httpx.Limits(max_connections=at_once * 4 + 8)
    async with httpx.AsyncClient(timeout=120, limits=limits) as http:
        config, chat = await page_events(http, app.url)
        page = PageEvents.of(config)
        for _ in range(2):
            await visit_once(http, app.url, page, chat)
        await asyncio.sleep(1)
        measured.rows["before"] = rss_mb(app.process.pid)
        for number in (1, 2):
            await wave(http, measured, page, chat, visitors, at_once)
            await asyncio.sleep(2)  # the heartbeats' ends reach the app
            measured.rows[f"closed {number}"] = rss_mb(app.process.pid)
            await asyncio.sleep(wait_s - 2)
            measured.rows[f"window {number}"] = rss_mb(app.process.pid)


async def measure(apps: list[Measured], visitors: int, at_once: int, wait_s: float) -> None:
    """The apps side by side (the same load for both)."""
    await asyncio.gather(*(drive(measured, visitors, at_once, wait_s) for measured in apps))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--visitors", type=int, default=400)
    parser.add_argument("--release-s", type=float, default=180.0, help="the release window (PLAYGROUND_SESSION_RELEASE_S)")
    parser.add_argument("--every-s", type=float, default=30.0, help="how often the release looks")
    parser.add_argument("--at-once", type=int, default=20, help="visitors at a time")
    parser.add_argument("--port", type=int, help="the app's port (the baseline's is the next); free ports when not given")
    args = parser.parse_args()
    print_header()
    wait_s = args.release_s + args.every_s + 5
    ports = (args.port, args.port + 1) if args.port else (None, None)
    started = time.perf_counter()
    apps = [Measured("release on", start_app_process(0.0, extra=["--release-s", str(args.release_s), "--release-every-s", str(args.every_s)],
                                                     port=ports[0])),
            Measured("release off (baseline)", start_app_process(0.0, extra=["--release-s", "0"], port=ports[1]))]
    try:
        asyncio.run(measure(apps, args.visitors, args.at_once, wait_s))
    finally:
        for measured in apps:
            measured.app.stop()
    print(f"two waves of {args.visitors} visitors, {args.at_once} at a time: each loaded the page (its load events, heartbeat open), "
          f"sent one message and closed it; RSS right after a wave closed and {wait_s:.0f} s later (window {args.release_s:g} s, "
          f"checked every {args.every_s:g} s); {time.perf_counter() - started:.0f} s; load {os.getloadavg()[0]:.1f}")
    print(f"{'app':<24}{'before':>8}{'closed 1':>9}{'window 1':>9}{'closed 2':>9}{'window 2':>9}  (RSS MB)"
          f"{'KB/visitor, wave 1':>20}{'KB/visitor, wave 2':>20}{'CPU s/visit':>12}")
    for measured in apps:
        rows = measured.rows
        first = (rows["window 1"] - rows["before"]) * 1024 / args.visitors
        second = (rows["window 2"] - rows["window 1"]) * 1024 / args.visitors
        print(f"{measured.name:<24}{rows['before']:>8.1f}{rows['closed 1']:>9.1f}{rows['window 1']:>9.1f}{rows['closed 2']:>9.1f}"
              f"{rows['window 2']:>9.1f}          {first:>20.0f}{second:>20.0f}{measured.cpu_s / (2 * args.visitors):>12.3f}")
    failures = [problem for measured in apps for problem in measured.failed]
    if failures:
        print(f"{len(failures)} page events or visits failed, e.g. {failures[0]}")
    print("goal: <= 50 KB a visitor after the window, returned within 5 minutes of closing (baseline: the release off, same run)")
    print_footer()


if __name__ == "__main__":
    main()
