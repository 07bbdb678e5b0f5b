"""`python -m playground.batch run SUITE`: run an eval suite in CI and exit 0 when its pass rate is
at least `--fail-under`, 1 when below, 2 when the suite could not run (not imported, no model, a
bad option, or not one cell answered: the gateway failed, not the suite).

SUITE is a promptfoo config, an OpenAI eval's JSON or a data set (CSV, JSONL, XLSX); the files a
suite names (`file://`, an eval's rows and run) are read from the SUITE's folder, by name, within
the importers' limits. The gateway is `GATEWAY_BASE_URL` / `GATEWAY_API_KEY`, or the demo gateway
in a process of its own when they are unset, as the app does. `--models` replaces the suite's
columns (`chat:gpt-4.1`, `openai:chat:gpt-4.1`, `anthropic:messages:MODEL`, `google:MODEL`, or a bare
model for chat completions); `--repeat k` runs every row k times (the plan's repeats). The run is
stored under `PLAYGROUND_DATA_DIR` like a run started in the Batch tab (owner: everyone, as on a
person's own machine), so the tab opens it by its id. Progress goes to stderr, one line at most
every `PROGRESS_EVERY_S`; `--json` writes the result document (`docs/batch-result.schema.json`).

The pass rate counts every grader's verdict on every cell: a pass, a fail, or a cell that failed
(no answer) counted as a fail; a grader that does not apply to a row is left out. Without graders
it is the share of cells answered without an error."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from playground.client.batch.importers import Suite, SuiteError, read_suite
from playground.client.batch.importers.bounds import MAX_FILES
from playground.client.batch.importers.providers import column_of
from playground.client.batch.plan import MAX_REPEATS, Plan
from playground.client.batch.runner import Progress, Runner
from playground.client.batch.report import column_label
from playground.client.batch.store import CellRecord, RunRecord
from playground.client.batch.stored_run import StoredRun
from playground.store.database import Database
from playground.client.gateway import GatewayClient
from playground.client.intent import FORMATS
from playground.client.transport import Connection, Transport
from playground.demo_gateway.config import DemoConfig
from playground.demo_process import GatewayProcess
from playground.settings import Settings

PASSED, FAILED, COULD_NOT_RUN = 0, 1, 2
PROGRESS_EVERY_S = 2.0
RESULT_KIND = "gateway-playground/batch-result"
SUITE_SUFFIXES = (".yaml", ".yml", ".json", ".jsonl", ".csv", ".txt", ".md", ".xlsx")


class CommandError(Exception):
    """The suite could not run: exit code 2, and this message on stderr."""


def parser() -> argparse.ArgumentParser:
    command = argparse.ArgumentParser(prog="python -m playground.batch", description="Run an eval suite on the gateway (for CI).")
    actions = command.add_subparsers(dest="action", required=True)
    run = actions.add_parser("run", help="run SUITE and exit 0 (pass rate ≥ --fail-under), 1 (below) or 2 (could not run)")
    run.add_argument("suite", metavar="SUITE", help="a promptfoo config, an OpenAI eval's JSON, or a data set (CSV, JSONL, XLSX)")
    run.add_argument("--models", nargs="+", metavar="MODEL", help="columns instead of the suite's: chat:gpt-4.1, openai:chat:gpt-4.1, a bare model ...")
    run.add_argument("--repeat", type=int, default=1, metavar="K", help=f"run every row K times (1 to {MAX_REPEATS})")
    run.add_argument("--fail-under", type=float, default=1.0, metavar="RATE", help="the least pass rate that exits 0 (0 to 1; default 1)")
    run.add_argument("--json", type=Path, metavar="OUT", help="write the result document here")
    run.add_argument("--concurrency", type=int, default=4, metavar="N", help="requests at once (default 4)")
    return command


def column_for(text: str) -> tuple[str, str]:
    """A `--models` item as (format, model)."""
    head, _, rest = text.partition(":")
    if rest and head in FORMATS:
        return head, rest
    if not rest:
        return "chat", text
    mapped = column_of(text)
    if isinstance(mapped, str):
        raise CommandError(f"--models {text}: {mapped}")
    return mapped


def suite_files(suite: Path) -> list[str | Path]:
    """The SUITE and the files beside it it may name (`file://`, rows, a run)."""
    if not suite.is_file():
        raise CommandError(f"{suite}: no such file")
    others = sorted(path for path in suite.parent.iterdir() if path.is_file() and path != suite and path.suffix.lower() in SUITE_SUFFIXES)
    if len(others) + 1 > MAX_FILES:
        raise CommandError(f"{suite.parent}: {len(others) + 1} files beside the suite; a suite is at most {MAX_FILES} files (put it in a folder of its own)")
    return [suite, *others]


def build_plan(suite: Suite, models: list[str] | None, repeat: int, concurrency: int, max_rows: int) -> Plan:
    columns = [column_for(item) for item in models] if models else None
    if not (columns or suite.columns):
        raise CommandError("the suite names no model this playground maps: give --models")
    plan = suite.plan(columns, repeats=repeat, concurrency=concurrency)
    blocking, _ = plan.problems(max_rows, 64)
    if blocking:
        raise CommandError("; ".join(blocking))
    return plan


def pass_rate(plan: Plan, run: RunRecord) -> tuple[float | None, list[float | None]]:
    """(the run's pass rate, each column's), None where nothing was graded."""
    counts = [[0, 0] for _ in plan.columns]
    for record in run.cells.values():
        verdicts = [mark.get("passed") for mark in record.marks] if plan.graders else [not record.error]
        failed_cell = bool(record.error) and not record.answer
        for passed in verdicts:
            if passed is None and not failed_cell:
                continue
            counts[record.column][0] += bool(passed)
            counts[record.column][1] += 1
    rates = [passed / graded if graded else None for passed, graded in counts]
    total = sum(graded for _, graded in counts)
    return (sum(passed for passed, _ in counts) / total if total else None), rates


def cells_in_order(run: RunRecord) -> list[CellRecord]:
    """The run's cells by row, repeat and column."""
    return [run.cells[key] for key in sorted(run.cells, key=lambda key: tuple(int(part) for part in key.split(".")))]


def column_errors(plan: Plan, run: RunRecord) -> list[tuple[str, int, str]]:
    """(column, cells with an error, the first of them in row order, up to 300 characters) for each column that had one."""
    found: dict[int, list[CellRecord]] = {}
    for record in cells_in_order(run):
        if record.error:
            found.setdefault(record.column, []).append(record)
    return [(str(column_label(plan, column)), len(records), records[0].error[:300]) for column, records in sorted(found.items())]


def result_document(suite: Suite, suite_path: Path, plan: Plan, run: RunRecord, fail_under: float) -> dict[str, Any]:
    rate, rates = pass_rate(plan, run)
    cells = cells_in_order(run)
    return {
        "kind": RESULT_KIND, "version": 1, "run_id": run.run_id,
        "suite": {"path": str(suite_path), "source": suite.source, "name": suite.name, "unmapped": [str(text) for text in suite.unmapped]},
        "columns": [{"format": fmt, "model": model, "pass_rate": rates[index]} for index, (fmt, model) in enumerate(plan.columns)],
        "graders": [str(spec.label) for spec in plan.graders],
        "repeats": plan.repeats, "pass_rate": rate, "fail_under": fail_under, "passed": rate is not None and rate >= fail_under,
        "cells": [{"row": cell.row, "repeat": cell.repeat, "column": cell.column, "answer": cell.answer, "error": cell.error,
                   "marks": [{"passed": mark.get("passed"), "detail": str(mark.get("detail") or "")} for mark in cell.marks]} for cell in cells],
    }


class ProgressLines:
    """Progress on stderr: a line when the run starts, at most one every `PROGRESS_EVERY_S`, and one at the end."""

    def __init__(self, stream: TextIO) -> None:
        self.stream, self.last = stream, 0.0

    def say(self, text: str) -> None:
        print(f"playground.batch: {text}", file=self.stream, flush=True)

    def tick(self, progress: Progress, force: bool = False) -> None:
        now = time.monotonic()
        if force or now - self.last >= PROGRESS_EVERY_S:
            self.last = now
            self.say(f"{progress.done}/{progress.total} cells, {progress.errors} error(s)")


async def run_suite(plan: Plan, conn: Connection, run: RunRecord, lines: ProgressLines) -> Progress:
    client = GatewayClient(Transport())
    runner = Runner(client, conn, plan, run)
    task = asyncio.create_task(runner.run())
    try:
        while not task.done():
            lines.tick(runner.progress)
            await asyncio.wait([task], timeout=PROGRESS_EVERY_S)
        return await task
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await client.aclose()
        run.close()


def gateway(settings: Settings, lines: ProgressLines) -> tuple[Connection, GatewayProcess | None]:
    """The configured gateway, or the demo gateway in a process of its own (stopped by the caller), at the
    app's pace (`DEMO_TOKEN_DELAY`), so its times compare with a run in the tab."""
    if settings.gateway_base_url is not None:
        return Connection(settings.gateway_base_url, settings.gateway_api_key), None
    lines.say("GATEWAY_BASE_URL is not set: running on the demo gateway")
    demo = GatewayProcess.start(DemoConfig(api_key=settings.demo_api_key, token_delay=settings.demo_token_delay), hosted=False)
    demo.wait_ready()
    return Connection(demo.url, settings.demo_api_key), demo


def run_command(args: argparse.Namespace, settings: Settings, stderr: TextIO) -> int:
    lines = ProgressLines(stderr)
    if not 1 <= args.repeat <= MAX_REPEATS:
        raise CommandError(f"--repeat must be 1 to {MAX_REPEATS}")
    if not 0 <= args.fail_under <= 1:
        raise CommandError("--fail-under is a pass rate from 0 to 1")
    suite_path = Path(args.suite)
    try:
        suite = read_suite(suite_files(suite_path), settings.batch_max_rows, main=suite_path)
    except SuiteError as error:
        raise CommandError("not imported: " + "; ".join(error.problems)) from None
    for text in suite.unmapped:
        lines.say(f"not mapped: {text}")
    plan = build_plan(suite, args.models, args.repeat, args.concurrency, settings.batch_max_rows)
    conn, demo = gateway(settings, lines)
    try:
        database = Database.at(settings.data_dir)
        run = StoredRun.create(database, plan.to_dict(), origin="command line")
        lines.say(f"run {run.run_id}: {plan.total} cells ({len(plan.dataset.rows)} rows x {plan.repeats} x {len(plan.columns)} columns), "
                  f"stored in {database.path}")
        progress = asyncio.run(run_suite(plan, conn, run, lines))
    finally:
        if demo is not None:
            demo.stop()
    lines.tick(progress, force=True)
    for label, count, first in column_errors(plan, run):
        lines.say(f"{label}: {count} error(s), the first: {first}")
    document = result_document(suite, suite_path, plan, run, args.fail_under)
    if args.json is not None:
        args.json.write_text(json.dumps(document, ensure_ascii=False, indent=2), encoding="utf-8")
    if run.cells and not any(cell.answer or not cell.error for cell in run.cells.values()):
        first = next(iter(run.cells.values())).error
        raise CommandError(f"no cell was answered (the gateway, not the suite): {first[:300]}")
    rate = document["pass_rate"]
    if rate is None:
        raise CommandError("nothing was graded")
    lines.say(f"pass rate {rate:.1%} (at least {args.fail_under:.1%} to pass): {'passed' if document['passed'] else 'failed'}")
    return PASSED if document["passed"] else FAILED


def main(argv: Sequence[str], stderr: TextIO = sys.stderr) -> int:
    args = parser().parse_args(list(argv))
    try:
        return run_command(args, Settings.from_env(), stderr)
    except (CommandError, OSError) as error:
        print(f"playground.batch: could not run: {error}", file=stderr, flush=True)
        return COULD_NOT_RUN
