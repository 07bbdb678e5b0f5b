"""What keeping a Batch run in the local store costs per cell, without the network: the runner's
calls to its run record (`record_sent` awaited before each request, `record_cell` with the cell's
summary, one grade and a detail shaped like a streamed answer's: 19 events, about 3.4 KB of JSON;
`settled` at the end) from N workers at once, into a fresh SQLite file.

Each tree runs in a fresh worker process that reports wall time and its CPU time (user + system,
every thread, so the store's own thread counts); with `--before REF` the tree of REF (extracted with
`git archive`, this tree's `bench/` over its own) runs in the same rounds, alternating, so a change
to the store is measured before and after under the same load. `bench.batch` measures the whole
run against direct client calls; this one isolates the part the store adds.

    python -m bench.batch_store [--cells 2000] [--concurrency 8] [--runs 3] [--before REF]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
COLUMNS = [["chat", "gx-2.5-flash"], ["messages", "cl-sonnet-4-5-20250929"]]


def _detail(row: int) -> dict[str, Any]:
    chunk = '{"id":"chatcmpl-%d","object":"chat.completion.chunk","created":1764230000,"model":"gx-2.5-flash",' \
            '"choices":[{"index":0,"delta":{"content":"word "},"finish_reason":null}]}'
    events = [[round(0.001 * n, 4), None, chunk % row] for n in range(19)]
    exchange = {"method": "POST", "url": "http://127.0.0.1/v1/chat/completions", "request_headers": {"content-type": "application/json"},
                "request_body": {"model": "gx-2.5-flash", "messages": [{"role": "user", "content": f"What is {row} plus {row}?"}], "stream": True},
                "status": 200, "response_body": None, "events": events, "attempts": 1, "attempt_outcomes": [], "error": None, "notes": [],
                "first_token_at": 0.002, "finished_at": 0.02}
    return {"exchange": exchange, "reasoning": "", "finish": "stop", "grader_exchanges": [None]}


async def _cells(rows: int, concurrency: int, folder: Path) -> int:
    from playground.client.batch.store import CellRecord, cell_key
    from playground.client.batch.stored_run import StoredRun
    from playground.store.database import FILE_NAME, Database

    database = Database(folder / FILE_NAME)
    plan = {"user": "Answer briefly: {{question}}", "columns": COLUMNS, "repeats": 1,
            "dataset": {"columns": ["question"], "rows": [{"question": f"What is {n} plus {n}?"} for n in range(rows)], "source": "bench.csv"}}
    run = StoredRun.create(database, plan)
    jobs = iter([(row, column) for row in range(rows) for column in range(len(COLUMNS))])

    async def worker() -> None:
        for row, column in jobs:
            await run.record_sent(cell_key(row, 0, column))
            await asyncio.sleep(0)  # the request (here: nothing but a turn of the loop)
            record = CellRecord(row, 0, column, answer=f"{2 * row}", marks=[{"passed": True, "detail": "contains", "score": None}],
                                ttft=0.002, total=0.02, tokens_per_s=900.0, request_key=f"{row:032x}",
                                usage={"input": 12, "output": 19, "reasoning": None, "cached": None, "cache_write": None, "cache_write_1h": None})
            await run.record_cell(record, _detail(row))

    try:
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        await run.settled()
    finally:
        database.close()
    return len(run.cells)


def worker(rows: int, concurrency: int) -> None:
    import playground.client.batch.stored_run  # noqa: F401 - imported before the clocks start

    with tempfile.TemporaryDirectory() as folder:
        cpu, started = time.process_time(), time.perf_counter()
        cells = asyncio.run(_cells(rows, concurrency, Path(folder)))
        print(json.dumps({"seconds": time.perf_counter() - started, "cpu": time.process_time() - cpu, "cells": cells}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cells", type=int, default=2_000)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--before", help="also run the tree of this commit (e.g. main before a change)")
    parser.add_argument("--worker", nargs=2, metavar=("ROWS", "CONCURRENCY"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(int(args.worker[0]), int(args.worker[1]))
        return
    from bench.reply_cpu import extract

    rows = max(1, args.cells // len(COLUMNS))
    results: dict[str, list[dict[str, float]]] = {}
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="bench-batch-store-") as scratch:
        trees = [("this tree", ROOT)] + ([(f"before ({args.before})", extract(args.before, Path(scratch)))] if args.before else [])
        for run in range(args.runs):
            for name, root in trees if run % 2 == 0 else trees[::-1]:
                done = subprocess.run([sys.executable, "-m", "bench.batch_store", "--worker", str(rows), str(args.concurrency)],
                                      capture_output=True, text=True, cwd=root)
                if done.returncode != 0:
                    raise SystemExit(f"{name} failed ({done.returncode}):\n{done.stderr[-3000:]}")
                results.setdefault(name, []).append(json.loads(done.stdout.strip().splitlines()[-1]))
    load_after = os.getloadavg()
    cells = rows * len(COLUMNS)
    print(f"{cells:,} cells through a run in the store ({args.concurrency} workers, no network), medians of {args.runs} runs, trees alternating")
    print(f"load average (1, 5, 15 min) before {' '.join(f'{v:.2f}' for v in load_before)}, "
          f"after {' '.join(f'{v:.2f}' for v in load_after)}, on {os.cpu_count()} cores")
    print(f"{'tree':<28} {'seconds':>8} {'CPU s':>7} {'CPU µs per cell':>16} {'wall µs per cell':>17} {'CPU ratio to this tree':>23}")
    base_cpu = statistics.median(r["cpu"] for r in results["this tree"])
    for name, runs in results.items():
        seconds = statistics.median(r["seconds"] for r in runs)
        cpu = statistics.median(r["cpu"] for r in runs)
        print(f"{name:<28} {seconds:>8.2f} {cpu:>7.2f} {cpu / cells * 1e6:>16,.0f} {seconds / cells * 1e6:>17,.0f} {cpu / base_cpu:>23.3f}")
    print("each round (wall s / CPU s): " + "; ".join(", ".join(f"{name} {runs[i]['seconds']:.2f} / {runs[i]['cpu']:.2f}" for name, runs in results.items())
                                                       for i in range(args.runs)))


if __name__ == "__main__":
    main()
