"""Memory over a long session: the app's resident memory at start, after 500 chat turns in one
session, after 200 more sessions each with one turn, and after those sessions closed (their
page's heartbeat stream ends, as when a tab is closed). The baseline is the app's own memory at
start, in the same run.

    python -m bench.long_session [--turns 500] [--sessions 200]

Gradio keeps a closed session's state for an hour by default; the app process here runs with
`GRADIO_IS_E2E_TEST=1`, which makes that one second, so the release can be seen in the run.
Python rarely returns freed memory to the system, so the last row runs the same number of new
sessions again: if the closed sessions' memory was released, it is reused and RSS stays flat.
"""

from __future__ import annotations

import argparse
import json
import asyncio
import os
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

import httpx

from bench.app_queue import ChatEvents, chat_chain, open_session, page_events
from bench.concurrent_chat import AppProcess
from bench.header import print_footer, print_header
from playground.demo_gateway.server import free_port

ROOT = Path(__file__).resolve().parents[1]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def start(token_delay: float) -> AppProcess:
    import subprocess

    port = free_port()
    env = {**os.environ, "GRADIO_IS_E2E_TEST": "1"}
    process = subprocess.Popen([sys.executable, "-m", "bench.serve_app", "--port", str(port), "--token-delay", str(token_delay)],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    assert process.stdout is not None
    if process.stdout.readline().strip() != b"ready":
        raise RuntimeError("the app did not start")
    return AppProcess(f"http://127.0.0.1:{port}", process)


async def heartbeat(http: httpx.AsyncClient, url: str, session: str) -> None:
    """The stream a browser page keeps open; cancelling it is closing the page."""
    async with http.stream("GET", f"{url}/gradio_api/heartbeat/{session}") as stream:
        async for _ in stream.aiter_bytes():
            pass


def python_bytes(text: str) -> int:
    """What JSON text costs as Python objects (dicts, lists, strings), measured with tracemalloc."""
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        value = json.loads(text)
        held = tracemalloc.get_traced_memory()[0] - before
        del value
        return held
    finally:
        tracemalloc.stop()


async def one_session(http: httpx.AsyncClient, url: str, events: ChatEvents, turns: int,
                      app: AppProcess | None = None) -> tuple[list[tuple[float, float]], int, int]:
    """Run `turns` turns; with `app`, each turn's (wall seconds, app CPU seconds); and the size of
    the conversation as the page holds it, as JSON bytes and as Python objects."""
    session = await open_session(http, url, events)
    beating = asyncio.create_task(heartbeat(http, url, session))
    history: list[Any] = []
    times = []
    for turn in range(turns):
        cpu, started = app.cpu_seconds() if app else 0.0, time.perf_counter()
        reply = await chat_chain(http, url, events.send, f"turn {turn}", session)
        if app:
            times.append((time.perf_counter() - started, app.cpu_seconds() - cpu))
        assert reply.ttft is not None, "a turn got no reply"
        history = json.loads(reply.text)
    beating.cancel()
    text = json.dumps(history, ensure_ascii=False)
    return times, len(text.encode()), python_bytes(text)


def turn_rows(times: list[tuple[float, float]]) -> list[tuple[int, float, float]]:
    """(turn, mean wall ms, mean app CPU ms) over 5 turns around turn 10 and at the end."""
    rows = []
    for last in sorted({min(10, len(times)), len(times)}):
        window = times[max(0, last - 5):last]
        rows.append((last, sum(w for w, _ in window) / len(window) * 1000, sum(c for _, c in window) / len(window) * 1000))
    return rows


async def measure(app: AppProcess, turns: int, sessions: int) -> tuple[list[tuple[str, float]], list[tuple[int, float, float]], tuple[int, int]]:
    rows = []
    async with httpx.AsyncClient(timeout=120, limits=httpx.Limits(max_connections=64)) as http:
        events = (await page_events(http, app.url))[1]
        await one_session(http, app.url, events, 1)
        rows.append(("start (after one warm-up turn)", rss_mb(app.process.pid)))
        times, json_bytes, object_bytes = await one_session(http, app.url, events, turns, app)
        per_turn = turn_rows(times)
        rows.append((f"after {turns} turns in one session", rss_mb(app.process.pid)))
        for batch in range(0, sessions, 20):
            await asyncio.gather(*(one_session(http, app.url, events, 1) for _ in range(min(20, sessions - batch))))
        rows.append((f"after {sessions} more sessions", rss_mb(app.process.pid)))
        await asyncio.sleep(8)  # closed sessions' state is dropped after its time to live
        rows.append(("after those sessions closed", rss_mb(app.process.pid)))
        for batch in range(0, sessions, 20):  # memory given back to Python is reused, not grown
            await asyncio.gather(*(one_session(http, app.url, events, 1) for _ in range(min(20, sessions - batch))))
        await asyncio.sleep(8)
        rows.append((f"after {sessions} new sessions, closed", rss_mb(app.process.pid)))
    return rows, per_turn, (json_bytes, object_bytes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=500)
    parser.add_argument("--sessions", type=int, default=200)
    args = parser.parse_args()
    print_header()
    app = start(token_delay=0.0)
    started = time.perf_counter()
    try:
        rows, per_turn, history_bytes = asyncio.run(measure(app, args.turns, args.sessions))
    finally:
        app.stop()
    baseline = rows[0][1]
    print(f"resident memory of the app process (baseline: its own memory at start, same run), {time.perf_counter() - started:.0f} s")
    print(f"{'moment':<36}{'RSS MB':>9}{'vs start':>10}")
    for moment, mb in rows:
        print(f"{moment:<36}{mb:>9.1f}{mb - baseline:>+10.1f}")
    json_bytes, object_bytes = history_bytes
    print(f"the long session's conversation: {json_bytes / 1024:.0f} KB as JSON, {object_bytes / 1024:.0f} KB as Python objects; "
          f"the process grew {(rows[1][1] - baseline) * 1024:.0f} KB over its turns (goal: less than the conversation)")
    print(f"one turn of the long session, mean of 5 turns (baseline: turn {per_turn[0][0]}, same run; load {os.getloadavg()[0]:.1f})")
    print(f"{'turn':>6}{'wall ms':>10}{'app CPU ms':>12}{'CPU ratio':>11}")
    for turn, wall, cpu in per_turn:
        print(f"{turn:>6}{wall:>10.0f}{cpu:>12.0f}{cpu / max(per_turn[0][2], 1e-9):>11.2f}")
    print_footer()


if __name__ == "__main__":
    main()
