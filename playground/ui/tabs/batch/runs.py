"""The process's batch runs: runs in the local store by id (a few kept in memory) and the runner
tasks in progress, so a reloaded page finds its run (running or stopped) and two pages never run
one run twice. `BatchRuns` opens the store of the app's data directory when first used and moves
the run files of before into it (once; `client.batch.run_import`).

Every run records its owner (`owners.owner_of`); opening and stopping one take the caller's
owner, and another visitor's run id answers exactly as an id that does not exist. Below the
class, the work on one run the tab's handlers use: start, resume, watch, a cell's exchange, votes
(a vote on answers that name a model is dropped: `not_blind`)."""

from __future__ import annotations

import asyncio
import random
import threading
from collections import OrderedDict
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Any

from playground.client.batch.call import exchange_from_dict
from playground.client.batch.elo import Vote
from playground.client.batch.plan import Plan
from playground.client.batch.runner import Progress, Runner
from playground.client.batch.blind import named_model
from playground.client.batch.run_import import ImportReport, import_run_files
from playground.client.batch.store import RunRecord, cell_key, runs_directory
from playground.client.batch.stored_run import StoredRun, list_runs
from playground.client.gateway import GatewayClient
from playground.client.texts import Text
from playground.client.transport import Connection, Exchange
from playground.ui.i18n import say
from playground.ui.shared.render import plain
from playground.store.database import Database
from playground.store.runs import RunFilter
from playground.ui.web.owners import EVERYONE, may_open

KEEP_OPEN = 16
MAX_LISTED = 40
"""Runs a visitor is offered as a baseline (and a trend is drawn over): the newest this many."""
WATCH_INTERVAL_S = 0.4


@dataclass
class BatchRuns:
    """The runs of the store in `data_dir`. The store is opened, and the run files found there
    imported, the first time a run is read, written or listed after the app starts (building the
    page writes nothing)."""

    data_dir: Path
    max_rows: int
    _database: Database | None = None
    _imported: ImportReport = field(default_factory=ImportReport)
    _opening: threading.Lock = field(default_factory=threading.Lock)
    _files: OrderedDict[str, RunRecord] = field(default_factory=OrderedDict)
    _tasks: dict[str, tuple[Runner, asyncio.Task[object]]] = field(default_factory=dict)

    @classmethod
    def at(cls, data_dir: str | PathLike[str], max_rows: int) -> BatchRuns:
        return cls(Path(data_dir), max_rows)

    @property
    def database(self) -> Database:
        with self._opening:
            if self._database is None:
                database = Database.at(self.data_dir)
                self._imported = import_run_files(database, runs_directory(self.data_dir), self.max_rows)
                self._database = database
            return self._database

    @property
    def imported(self) -> ImportReport:
        """What moving the run files of before into the store did (files refused are named in the tab)."""
        _ = self.database  # opening the store imports the run files
        return self._imported

    def create(self, plan: Plan, owner: str) -> RunRecord:
        run = StoredRun.create(self.database, plan.to_dict(), owner)
        self._keep(run)
        return run

    def _keep(self, run: RunRecord) -> None:
        self._files[run.run_id] = run
        self._files.move_to_end(run.run_id)
        while len(self._files) > KEEP_OPEN:
            old_id, old = next(iter(self._files.items()))
            if old_id in self._tasks:
                break
            self._files.pop(old_id)
            old.close()

    def open(self, run_id: str, owner: str | None) -> tuple[RunRecord, Plan]:
        """A run by id with its plan, for `owner` (raises `FileNotFoundError`, `ValueError` or
        `PlanError`; another owner's run raises `FileNotFoundError` as a missing one does)."""
        run = self._files.get(run_id)
        if run is None:
            run = StoredRun.open(self.database, run_id)
            self._keep(run)
        if not may_open(run.owner, owner):
            raise FileNotFoundError("no such run")
        return run, Plan.from_dict(run.header.get("plan"), self.max_rows)

    def listed(self, owner: str | None, limit: int = MAX_LISTED) -> list[tuple[RunRecord, Plan]]:
        """`owner`'s runs, newest first (at most `limit`), each opened as `open` does; a run that
        cannot be read is left out."""
        if owner is None:
            return []
        chosen = RunFilter(owner=None if owner == EVERYONE else owner, limit=limit)
        found = []
        for summary in list_runs(self.database, chosen):
            try:
                found.append(self.open(summary.id, owner))
            except (OSError, ValueError):
                continue
        return found

    def active(self, run_id: str) -> Runner | None:
        entry = self._tasks.get(run_id)
        return entry[0] if entry and not entry[1].done() else None

    def task(self, run_id: str) -> asyncio.Task[object] | None:
        entry = self._tasks.get(run_id)
        return entry[1] if entry else None

    def start(self, client: GatewayClient, conn: Connection, plan: Plan, run: RunRecord, rerun_errors: bool = False) -> Runner:
        """Start the run (or return the runner already running it)."""
        running = self.active(run.run_id)
        if running is not None:
            return running
        runner = Runner(client, conn, plan, run, rerun_errors=rerun_errors)
        task = asyncio.create_task(runner.run())
        self._tasks[run.run_id] = (runner, task)
        task.add_done_callback(lambda _: self._tasks.pop(run.run_id, None) if self._tasks.get(run.run_id, (None, None))[1] is task else None)
        return runner

    async def stop(self, run_id: str, owner: str | None) -> bool:
        """Stop `owner`'s running run; what finished is kept. False when it was not running
        (or is not theirs)."""
        try:
            self.open(run_id, owner)
        except (OSError, ValueError):
            return False
        entry = self._tasks.get(run_id)
        if entry is None or entry[1].done():
            return False
        entry[1].cancel()
        await asyncio.gather(entry[1], return_exceptions=True)
        return True


def progress_of(run: RunRecord, plan: Plan) -> Progress:
    cells = run.cells.values()
    return Progress(plan.total, len(run.cells), sum(1 for c in cells if c.error), running=False)


async def watch(runs: BatchRuns, run_id: str) -> AsyncIterator[Progress]:
    """The run's progress at a bounded rate while it runs (also for a run another page started)."""
    task, runner = runs.task(run_id), runs.active(run_id)
    while task is not None and runner is not None and not task.done():
        yield runner.progress
        await asyncio.wait([task], timeout=WATCH_INTERVAL_S)
    if runner is not None:
        yield runner.progress


def run_problem(runs: BatchRuns, run_id: str) -> str:
    """What went wrong inside a finished runner task, if anything did (its exception)."""
    task = runs.task(run_id)
    if task is None or not task.done() or task.cancelled() or task.exception() is None:
        return ""
    return say("bview.run_error", error=plain(type(task.exception()).__name__))


async def start(runs: BatchRuns, client: GatewayClient, conn: Connection, plan: Plan, owner: str) -> str:
    """A new run of `plan` for `owner`, stored (off the event loop) and started; its id."""
    run = await asyncio.to_thread(runs.create, plan, owner)
    runs.start(client, conn, plan, run)
    return run.run_id


async def resume(runs: BatchRuns, client: GatewayClient, conn: Connection, run_id: str, rerun_errors: bool, owner: str | None) -> Plan:
    """Resume `owner`'s run (read off the event loop); raises as `BatchRuns.open` does."""
    run, plan = await asyncio.to_thread(runs.open, run_id, owner)
    runs.start(client, conn, plan, run, rerun_errors)
    return plan


def cell_exchange(run: RunRecord, key: str) -> tuple[Exchange | None, dict[str, Any]]:
    detail = run.detail(key)
    return exchange_from_dict(detail.get("exchange")), detail


def not_blind(plan: Plan, run: RunRecord, pair: dict[str, Any] | None) -> Text | None:
    """Why a vote on the shown pair is dropped: an answer names a model, either column's (`blind`)."""
    if not pair:
        return None
    answers = {}
    for label, column in (("A", pair["a"]), ("B", pair["b"])):
        record = run.cells.get(cell_key(int(pair["row"]), int(pair["repeat"]), int(column)))
        answers[label] = record.answer if record is not None else ""
    return named_model(answers, [plan.columns[int(pair["a"])][1], plan.columns[int(pair["b"])][1]])


def vote(run: RunRecord, pair: dict[str, Any] | None, outcome: str) -> bool:
    """Record a blind vote on the pair shown ("a", "b" or "tie"); False when no pair is shown."""
    if not pair or outcome not in ("a", "b", "tie"):
        return False
    run.add_vote(Vote(int(pair["a"]), int(pair["b"]), outcome, int(pair["row"])))
    return True


def rng_for(run: RunRecord) -> random.Random:
    return random.Random(f"{run.run_id}:{len(run.votes)}")
