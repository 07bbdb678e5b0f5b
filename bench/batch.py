"""A batch of 1,000 rows x 2 columns on the demo gateway (token delay off, or `--token-delay`): the Batch tab's
runner with its runs kept in the local store (SQLite) against direct client calls at the same
concurrency, and the process's memory.

The demo gateway runs in its own process. Each approach runs in a fresh worker process that
reports its time and its peak resident memory (ru_maxrss) over its resident memory when idle (every
module already imported):

- direct (the baseline): the same requests (`intent.to_request` + the shared client, streamed),
  N workers, answers kept in a list; no run file, no grading;
- store: `client.batch.runner.Runner` with a `contains` grader, every cell written to the local
  store as the tab does (a `sent` mark committed before each request, with the outcomes finished
  before it, on the runner's own thread: `Database.run_here`), then the leaderboard and the results grid built once,
  as the tab does at the end;
- runfile: the same runner writing a run file instead (how runs were kept before the store);
- with `--before REF`, also "store" from the tree of REF (extracted with `git archive`, this
  tree's `bench/` over its own), so a change to the store is measured before and after in one run.

Each round runs every approach once, in turn (the order reversed every other round); the table
holds medians of wall time and of the worker process's CPU time (user + system, every thread),
which moves less than wall time on a shared machine. The machine's load average is printed
before and after, beside the same-run baseline.

With the token delay off a call takes about a millisecond of the client's CPU and nothing else, so
the table shows the runner's own cost per cell at its largest; `--token-delay 0.002` (a fast
gateway: 2 ms between streamed pieces) shows it beside a gateway that takes time to answer.

    python -m bench.batch [--rows 1000] [--concurrency 8] [--runs 2] [--before REF] [--port N] [--token-delay S]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

KEY = "bench-key"
COLUMNS = [("chat", "gx-2.5-flash"), ("messages", "cl-sonnet-4-5-20250929")]
APPROACHES = ("direct", "store", "runfile")
LABELS = {"direct": "direct client calls (baseline)", "store": "the Batch runner, runs in the store (SQLite)",
          "runfile": "the Batch runner, a run file (before the store)", "before": "the Batch runner, the store as in {ref}"}
ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = "Answer briefly: {{question}}"


def rows_for(count: int) -> list[dict[str, str]]:
    return [{"question": f"What is {n} plus {n}?", "expected": str(2 * n)} for n in range(count)]


async def _direct(url: str, rows: list[dict[str, str]], concurrency: int) -> int:
    from playground.client.batch.call import run_request
    from playground.client.batch.template import fill
    from playground.client.gateway import GatewayClient
    from playground.client.intent import Intent, to_request
    from playground.client.transport import Connection, Transport

    client = GatewayClient(Transport(read_timeout=60))
    conn = Connection(url, KEY)
    answers: list[str] = []
    jobs = iter([(row, column) for row in rows for column in COLUMNS])

    async def worker() -> None:
        for row, (fmt, model) in jobs:
            request = to_request(Intent(fill(TEMPLATE, row)), fmt, model).request
            result, _ = await run_request(client, conn, fmt, request)
            answers.append(result.text)

    try:
        await asyncio.gather(*(worker() for _ in range(concurrency)))
    finally:
        await client.aclose()
    return len(answers)


async def _runner(url: str, rows: list[dict[str, str]], concurrency: int, kept: str) -> int:
    from playground.client.batch.dataset import Dataset
    from playground.client.batch.graders import GraderSpec
    from playground.client.batch.plan import Plan
    from playground.client.batch.report import leaderboard
    from playground.client.batch.runner import Runner
    from playground.client.batch.store import RunFile, RunRecord
    from playground.client.batch.stored_run import StoredRun
    from playground.store.database import FILE_NAME, Database
    from playground.client.gateway import GatewayClient
    from playground.client.transport import Connection, Transport
    from playground.ui.tabs.batch.views import grid

    client = GatewayClient(Transport(read_timeout=60))
    plan = Plan(TEMPLATE, dataset=Dataset(["question", "expected"], rows), columns=list(COLUMNS),
                graders=[GraderSpec("contains", "{{question}}")], concurrency=concurrency)
    with tempfile.TemporaryDirectory() as folder:
        database = Database(Path(folder) / FILE_NAME) if kept == "store" else None
        run: RunRecord = StoredRun.create(database, plan.to_dict()) if database else RunFile.create(Path(folder), plan.to_dict())
        try:
            progress = await Runner(client, Connection(url, KEY), plan, run).run()
            assert progress.errors == 0, progress
            leaderboard(plan, run, {})
            grid(plan, run, {})
        finally:
            run.close()
            if database is not None:
                database.close()
            await client.aclose()
    return progress.done


def _resident_now() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def worker(approach: str, url: str, count: int, concurrency: int) -> None:
    import playground.client.batch.runner
    import playground.client.batch.stored_run
    import playground.ui.tabs.batch.views  # noqa: F401

    rows = rows_for(count)
    rss_before = _resident_now()  # not the peak so far: a peak while importing would hide the run's growth under it
    cpu_before = time.process_time()
    started = time.perf_counter()
    work = _direct(url, rows, concurrency) if approach == "direct" else _runner(url, rows, concurrency, approach)
    cells = asyncio.run(work)
    seconds = time.perf_counter() - started
    cpu = time.process_time() - cpu_before
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - rss_before
    print(json.dumps({"seconds": seconds, "cpu": cpu, "rss_growth": peak, "cells": cells}))


def _round(order: list[str], url: str, args: argparse.Namespace, before_root: Path | None, results: dict[str, list[dict[str, float]]]) -> None:
    for approach in order:
        root = before_root if approach == "before" and before_root is not None else ROOT
        worker_approach = "store" if approach == "before" else approach
        call = [sys.executable, "-m", "bench.batch", "--worker", worker_approach, url, str(args.rows), str(args.concurrency)]
        done = subprocess.run(call, capture_output=True, text=True, cwd=root)
        if done.returncode != 0:
            raise SystemExit(f"{approach} failed ({done.returncode}):\n{done.stderr[-3000:]}")
        results[approach].append(json.loads(done.stdout.strip().splitlines()[-1]))
        print(f"{approach}: {results[approach][-1]['seconds']:.2f} s, {results[approach][-1]['cpu']:.2f} CPU s", file=sys.stderr, flush=True)


def _print_table(args: argparse.Namespace, approaches: list[str], results: dict[str, list[dict[str, float]]],
                 loads: tuple[tuple[float, ...], tuple[float, ...]]) -> None:
    cells = args.rows * len(COLUMNS)
    baseline = statistics.median(r["seconds"] for r in results["direct"])
    base_cpu = statistics.median(r["cpu"] for r in results["direct"])
    base_rss = statistics.median(r["rss_growth"] for r in results["direct"]) / 1e6
    print(f"{args.rows:,} rows x {len(COLUMNS)} columns ({cells:,} streamed calls), {args.concurrency} at once, token delay {args.token_delay:g} s, "
          f"medians of {args.runs} runs, approaches alternating; baseline: direct client calls in the same run")
    print(f"load average (1, 5, 15 min) before {' '.join(f'{v:.2f}' for v in loads[0])}, "
          f"after {' '.join(f'{v:.2f}' for v in loads[1])}, on {os.cpu_count()} cores")
    print(f"{'approach':<52} {'seconds':>8} {'rows/s':>7} {'CPU s':>7} {'RSS +MB':>8} {'MB over direct':>15} {'ratio to direct':>16} "
          f"{'CPU ratio':>10}")
    for approach in approaches:
        runs = results[approach]
        seconds = statistics.median(r["seconds"] for r in runs)
        cpu = statistics.median(r["cpu"] for r in runs)
        peak = statistics.median(r["rss_growth"] for r in runs) / 1e6
        print(f"{LABELS[approach].format(ref=args.before):<52} {seconds:>8.2f} {args.rows / seconds:>7,.1f} {cpu:>7.2f} {peak:>8.1f} "
              f"{peak - base_rss:>15.1f} {seconds / baseline:>16.3f} {cpu / base_cpu:>10.3f}")
    print("each round (wall s / CPU s):")
    for index in range(args.runs):
        print("  " + ", ".join(f"{approach} {results[approach][index]['seconds']:.2f} / {results[approach][index]['cpu']:.2f}"
                               for approach in approaches))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=1_000)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--before", help="also run the store approach from this commit's tree (e.g. main before a change)")
    parser.add_argument("--port", type=int, help="the demo gateway's port (a free one by default)")
    parser.add_argument("--token-delay", type=float, default=0.0, help="seconds between the demo gateway's streamed pieces (0: none)")
    parser.add_argument("--worker", nargs=4, metavar=("APPROACH", "URL", "ROWS", "CONCURRENCY"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker[0], args.worker[1], int(args.worker[2]), int(args.worker[3]))
        return
    from bench.embeddings import _wait_until_up
    from bench.reply_cpu import extract
    from playground.demo_gateway.server import free_port

    port = args.port or free_port()
    url = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "playground.demo_gateway", "--port", str(port), "--key", KEY, "--token-delay", str(args.token_delay)]
    approaches = [*APPROACHES, "before"] if args.before else list(APPROACHES)
    results: dict[str, list[dict[str, float]]] = {approach: [] for approach in approaches}
    with tempfile.TemporaryDirectory(prefix="bench-batch-") as scratch:
        before_root = extract(args.before, Path(scratch)) if args.before else None
        gateway = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        load_before = os.getloadavg()
        try:
            _wait_until_up(url)
            for run in range(args.runs):
                _round(approaches if run % 2 == 0 else approaches[::-1], url, args, before_root, results)
        finally:
            gateway.terminate()
            gateway.wait(10)
        load_after = os.getloadavg()
    _print_table(args, approaches, results, (load_before, load_after))

if __name__ == "__main__":
    main()
