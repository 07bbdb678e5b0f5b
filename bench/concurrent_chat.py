"""Many people chatting at once: N concurrent chat sessions through the app's Gradio queue (the
app and its demo gateway in a process of their own, normal token delay), each message carrying a
unique token that must come back in its own reply.

    python -m bench.concurrent_chat [--sessions 50] [--video-jobs 0] [--gateway process|thread]

Prints completed, lost and mixed-up replies, p50/p95 time to first visible token, p50/p95 of the
streaming step's queue-join request, p95 total time, and the app process's CPU seconds per reply.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from bench.app_queue import ChatEvents, Reply, chat_chain, find_event, open_session, page_events, stream_event
from bench.header import print_footer, print_header
from playground.demo_gateway.server import free_port

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class AppProcess:
    url: str
    process: subprocess.Popen[bytes]

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(10)


def start_app_process(token_delay: float, gateway: str = "process", root: Path = ROOT, extra: list[str] | None = None,
                      port: int | None = None) -> AppProcess:
    """The app as `bench.serve_app` runs it; `gateway`: the demo gateway in a process of its own (as
    `app.py` runs it) or in a thread of the app's; `root`: the tree whose code runs; `extra`: more
    arguments for `bench.serve_app`; `port`: the app's (a free one when None)."""
    port = port or free_port()
    process = subprocess.Popen([sys.executable, "-m", "bench.serve_app", "--port", str(port), "--token-delay", str(token_delay), *(extra or [])],
                               cwd=root, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env={**os.environ, "BENCH_GATEWAY": gateway})
    assert process.stdout is not None
    seen = []
    for line in process.stdout:  # anything the app prints before it is ready is passed over
        if line.strip() == b"ready":
            break
        seen.append(line.decode("utf-8", "replace").strip())
    else:
        raise RuntimeError(f"the app did not start (exit code {process.wait(10)}; it printed: {' | '.join(seen)[-300:]})")
    return AppProcess(f"http://127.0.0.1:{port}", process)


async def one_session(http: httpx.AsyncClient, url: str, events: ChatEvents, token: str, session_hash: str) -> Reply:
    return await chat_chain(http, url, events.send, f"Please repeat {token}", session_hash)


@dataclass
class VideoWatchers:
    """The video jobs' watcher events, running as the page runs them (one per job's session)."""

    tasks: list[asyncio.Task[Reply]]

    def summary(self) -> str:
        """How the watchers stand: still polling, ended (with their board updates), failed."""
        ended = [task.result() for task in self.tasks if task.done() and not task.cancelled() and task.exception() is None]
        failed = [task.exception() for task in self.tasks if task.done() and not task.cancelled() and task.exception() is not None]
        running = len(self.tasks) - len(ended) - len(failed)
        shown = f"{running} of {len(self.tasks)} still polling"
        if ended:
            shown += f", {len(ended)} ended after {statistics.mean(r.messages for r in ended):.0f} board updates on average"
        if failed:
            shown += f", {len(failed)} failed ({type(failed[0]).__name__}: {str(failed[0])[:80]})"
        return shown

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


async def submit_videos(http: httpx.AsyncClient, url: str, config: dict[str, Any], jobs: int) -> VideoWatchers:
    """Start `jobs` video jobs as the page does: the Submit event, then the watcher (the `.then`
    event the browser starts when Submit ends), which polls the job and streams the board."""
    if not jobs:
        return VideoWatchers([])
    fn_index = find_event(config, "video-submit", "click")
    dependency = next(d for d in config["dependencies"] if d["id"] == fn_index)
    watcher = next(d for d in config["dependencies"] if d.get("trigger_after") == fn_index)
    by_id = {c["id"]: c for c in config["components"]}

    def defaults(inputs: list[int]) -> list[Any]:
        return [by_id[i].get("props", {}).get("value") if by_id[i].get("type") != "state" else None for i in inputs]

    async def one(index: int) -> Reply:
        data = defaults(dependency["inputs"])
        prompt_at = [by_id[i].get("props", {}).get("elem_id") for i in dependency["inputs"]].index("video-prompt")
        data[prompt_at] = f"bench video {index}"
        session = uuid.uuid4().hex[:12]
        await stream_event(http, url, fn_index, data, session)
        return await stream_event(http, url, watcher["id"], defaults(watcher["inputs"]), session)

    tasks = [asyncio.create_task(one(index)) for index in range(jobs)]
    await asyncio.sleep(3)  # the jobs are submitted and their watchers polling before the chats start
    return VideoWatchers(tasks)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))] if ordered else float("nan")


async def measure(app: AppProcess, sessions: int, video_jobs: int) -> dict[str, Any]:
    limits = httpx.Limits(max_connections=sessions * 2 + video_jobs * 2 + 10)
    async with httpx.AsyncClient(timeout=120, limits=limits) as http:
        config, events = await page_events(http, app.url)
        await one_session(http, app.url, events, "warmup", await open_session(http, app.url, events))
        alone = await one_session(http, app.url, events, "alone", await open_session(http, app.url, events))
        watchers = await submit_videos(http, app.url, config, video_jobs)
        tokens = [f"tok{uuid.uuid4().hex[:10]}" for _ in range(sessions)]
        hashes = [await open_session(http, app.url, events) for _ in tokens]
        cpu_before, start = app.cpu_seconds(), time.perf_counter()
        replies = await asyncio.gather(*(one_session(http, app.url, events, token, session) for token, session in zip(tokens, hashes)),
                                       return_exceptions=True)
        wall, cpu = time.perf_counter() - start, app.cpu_seconds() - cpu_before
        watched = watchers.summary()
        await watchers.stop()
    done = [(token, r) for token, r in zip(tokens, replies) if isinstance(r, Reply) and r.ttft is not None]
    mixed = [token for token, r in done if token not in r.text or any(other in r.text for other in tokens if other != token)]
    return {"sessions": sessions, "completed": len(done), "lost": sessions - len(done), "mixed": len(mixed),
            "ttft": [r.ttft for _, r in done], "join": [r.join for _, r in done if r.join is not None], "total": [r.total for _, r in done], "cpu": cpu, "wall": wall,
            "updates": statistics.mean(r.messages for _, r in done) if done else 0, "watchers": watched, "alone": alone.ttft}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=50)
    parser.add_argument("--video-jobs", type=int, default=0)
    parser.add_argument("--token-delay", type=float, default=0.03)
    parser.add_argument("--gateway", choices=["process", "thread"], default="process", help="where the demo gateway runs")
    args = parser.parse_args()
    print_header()
    app = start_app_process(args.token_delay, args.gateway)
    try:
        row = asyncio.run(measure(app, args.sessions, args.video_jobs))
    finally:
        app.stop()
    print(f"{args.sessions} concurrent chat sessions, {args.video_jobs} video jobs polling, token delay {args.token_delay * 1000:.0f} ms, "
          f"demo gateway in a {args.gateway}")
    print(f"{'completed':>10}{'lost':>6}{'mixed':>7}{'TTFT p50 ms':>13}{'TTFT p95 ms':>13}{'join p50 ms':>13}{'join p95 ms':>13}{'total p95 s':>13}{'CPU s/reply':>13}{'updates/reply':>15}")
    print(f"{row['completed']:>10}{row['lost']:>6}{row['mixed']:>7}{statistics.median(row['ttft'] or [float('nan')]) * 1000:>13.0f}"
          f"{percentile(row['ttft'], 0.95) * 1000:>13.0f}{percentile(row['join'], 0.5) * 1000:>13.0f}"
          f"{percentile(row['join'], 0.95) * 1000:>13.0f}{percentile(row['total'], 0.95):>13.2f}"
          f"{row['cpu'] / max(row['completed'], 1):>13.3f}{row['updates']:>15.1f}")
    if args.video_jobs:
        print(f"video watchers (the page's .then event after Submit) when the last reply ended: {row['watchers']}")
    alone = f"{row['alone'] * 1000:.0f} ms" if row["alone"] is not None else "no reply"
    print(f"baseline (same run): one reply alone, before the burst: TTFT {alone}; wall time {row['wall']:.1f} s for all")
    print_footer()


if __name__ == "__main__":
    main()
