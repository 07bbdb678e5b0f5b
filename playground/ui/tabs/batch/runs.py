"""The process's batch runs: run files by id (a few kept open) and the runner tasks in progress,
so a reloaded page finds its run (running or stopped) and two pages never run one run twice.

Every run records its owner (`owners.owner_of`); opening and stopping one take the caller's
owner, and another visitor's run id answers exactly as an id that does not exist."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

from playground.client.batch.plan import Plan
from playground.client.batch.runner import Runner
from playground.client.batch.store import RunFile
from playground.client.gateway import GatewayClient
from playground.client.transport import Connection
from playground.ui.web.owners import may_open

KEEP_OPEN = 16


@dataclass
class BatchRuns:
    directory: Path
    max_rows: int
    _files: OrderedDict[str, RunFile] = field(default_factory=OrderedDict)
    _tasks: dict[str, tuple[Runner, asyncio.Task[object]]] = field(default_factory=dict)

    def create(self, plan: Plan, owner: str) -> RunFile:
        run = RunFile.create(self.directory, plan.to_dict(), owner)
        self._keep(run)
        return run

    def _keep(self, run: RunFile) -> None:
        self._files[run.run_id] = run
        self._files.move_to_end(run.run_id)
        while len(self._files) > KEEP_OPEN:
            old_id, old = next(iter(self._files.items()))
            if old_id in self._tasks:
                break
            self._files.pop(old_id)
            old.close()

    def open(self, run_id: str, owner: str | None) -> tuple[RunFile, Plan]:
        """A run by id with its plan, for `owner` (raises `FileNotFoundError`, `ValueError` or
        `PlanError`; another owner's run raises `FileNotFoundError` as a missing one does)."""
        run = self._files.get(run_id)
        if run is None:
            run = RunFile.open(self.directory, run_id)
            self._keep(run)
        if not may_open(run.owner, owner):
            raise FileNotFoundError("no such run")
        return run, Plan.from_dict(run.header.get("plan"), self.max_rows)

    def active(self, run_id: str) -> Runner | None:
        entry = self._tasks.get(run_id)
        return entry[0] if entry and not entry[1].done() else None

    def task(self, run_id: str) -> asyncio.Task[object] | None:
        entry = self._tasks.get(run_id)
        return entry[1] if entry else None

    def start(self, client: GatewayClient, conn: Connection, plan: Plan, run: RunFile, rerun_errors: bool = False) -> Runner:
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
