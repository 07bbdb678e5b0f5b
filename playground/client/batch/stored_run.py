"""A Batch run kept in the local store (`playground.store`): the same record the runner, the
leaderboard, the grid and the exports read from a run file (`store.RunFile`): the plan and owner,
every cell's summary and votes in memory, a cell's request and raw events read on demand; and
the same facts written as they happen.

The runner's writes are made on its event loop's thread (`Database.run_here`), in order, at most
one commit per request: a cell's outcome (`record_cell`) is encoded at once and waits in memory,
and the next `sent` mark (`record_sent`: a request goes out only once its mark is committed)
carries every outcome waiting with it in the same transaction, with the marks of the other workers
ready in the same turn of the loop. Outcomes no mark follows are written when
`WAITING_LIMIT` are waiting, when a worker runs out of cells and when the run ends or stops
(`settled`); a vote or a cell's detail read queues them first, on the store's thread. After a
kill -9 a cell is finished, known to have been sent (then shown as interrupted and not resent: it
may have been charged), or never sent; at most the cells in flight, one per worker, lose their
outcome. A write queued on the store's thread that failed is raised by the next write or by
`settled`. The other writers (`mark_sent`, `add_cell`, `add_vote`) wait on the calling thread, for
handlers that run off the event loop."""

from __future__ import annotations

import asyncio
import secrets
import threading
import time
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from playground.client.batch.elo import Vote
from playground.client.texts import Text
from playground.client.batch.store import INTERRUPTED, RUN_ID, SUMMARY_FIELDS, CellRecord, cell_key
from playground.store import runs as stored
from playground.store.database import Database

WAITING_LIMIT = 64
"""At most this many outcomes wait for the next `sent` mark; then they are queued by themselves."""


def split_plan(plan: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, str]], str]:
    """(the plan without its data rows, the rows, the data set's name) — the store keeps rows apart."""
    dataset = plan.get("dataset")
    if not isinstance(dataset, dict):
        return dict(plan), [], ""
    rows = dataset.get("rows")
    kept = {**plan, "dataset": {**dataset, "rows": []}}
    return kept, list(rows) if isinstance(rows, list) else [], str(dataset.get("source") or "")


def _columns(plan: dict[str, Any]) -> list[tuple[str, str]]:
    pairs = plan.get("columns")
    return [(str(p[0]), str(p[1])) for p in pairs if isinstance(p, list) and len(p) == 2] if isinstance(pairs, list) else []


def new_run(plan: dict[str, Any], owner: str, *, run_id: str = "", created: float | None = None, origin: str = "app") -> stored.NewRun:
    kept, rows, name = split_plan(plan)
    given = plan.get("repeats")
    repeats = given if isinstance(given, int) else 1
    columns = _columns(plan)
    return stored.NewRun(run_id or secrets.token_hex(16), owner, time.time() if created is None else created, kept, name, rows, columns,
                         repeats, len(rows) * repeats * len(columns), origin)


class StoredRun:
    """One run in the store, with `RunFile`'s interface."""

    def __init__(self, database: Database, run_id: str, header: dict[str, Any]) -> None:
        self.database = database
        self._run_id = run_id
        self.header = header
        self.cells: dict[str, CellRecord] = {}
        self.sent: set[str] = set()
        self.votes: list[Vote] = []
        self._queued: Future[None] | None = None
        self._waiting: list[stored.CellWrite] = []
        self._waiting_lock = threading.Lock()
        self._failure: BaseException | None = None
        self._marks: list[stored.SentMark] = []
        self._marking: asyncio.Future[None] | None = None
        self._last_marking: asyncio.Future[None] | None = None

    @property
    def run_id(self) -> str:
        return self._run_id

    @property
    def owner(self) -> str:
        owner = self.header.get("owner")
        return owner if isinstance(owner, str) else ""

    @property
    def path(self) -> Path:
        """The database file the run is in."""
        return self.database.path

    @classmethod
    def create(cls, database: Database, plan: dict[str, Any], owner: str = "", origin: str = "app") -> StoredRun:
        """A new run of `plan` (as `Plan.to_dict` writes it) owned by `owner`; `origin` says what
        started it (the tab: "app"; a command line or an importer names itself)."""
        run = new_run(plan, owner, origin=origin)
        database.call(stored.insert_run, run)
        return cls(database, run.id, {"type": "run", "created": run.created, "owner": owner, "plan": plan})

    @classmethod
    def open(cls, database: Database, run_id: str) -> StoredRun:
        """A run read back (raises `ValueError` for a malformed id, `FileNotFoundError` for none);
        cells sent but never finished are written down as interrupted."""
        if not RUN_ID.match(run_id or ""):
            raise ValueError(Text("batch.store.not_run_id"))
        loaded = database.call(stored.load_run, run_id)
        if loaded is None:
            raise FileNotFoundError("no such run")
        return cls.from_loaded(database, loaded)

    @classmethod
    def from_loaded(cls, database: Database, loaded: stored.LoadedRun) -> StoredRun:
        plan = loaded.plan
        if isinstance(plan.get("dataset"), dict):
            plan = {**plan, "dataset": {**plan["dataset"], "rows": loaded.rows}}
        run = cls(database, loaded.id, {"type": "run", "created": loaded.created, "owner": loaded.owner, "plan": plan})
        for summary in loaded.cells:
            record = CellRecord(**{name: summary[name] for name in SUMMARY_FIELDS if name in summary})
            run.cells[record.key] = record
        run.sent = {cell_key(*key) for key in loaded.sent}
        run.votes = [Vote(int(v["a"]), int(v["b"]), str(v["outcome"]), int(v["row"])) for v in loaded.votes]
        run.settle_interrupted()
        return run

    def settle_interrupted(self) -> None:
        """Cells sent but never finished become errors (not resent by themselves)."""
        for key in sorted(self.sent - set(self.cells)):
            row, repeat, column = (int(part) for part in key.split("."))
            self.add_cell(CellRecord(row, repeat, column, error=INTERRUPTED), {})

    def _sent_args(self, key: str) -> stored.SentMark:
        row, repeat, column = (int(part) for part in key.split("."))
        return (self.run_id, row, repeat, column, time.time())

    def _cell_write(self, record: CellRecord, detail: dict[str, Any]) -> stored.CellWrite:
        summary = {name: getattr(record, name) for name in SUMMARY_FIELDS}
        return stored.cell_write(self.run_id, summary, detail, time.time(), record.key in self.cells)

    def _take_waiting(self) -> list[stored.CellWrite]:
        with self._waiting_lock:
            waiting, self._waiting = self._waiting, []
        return waiting

    def _queue_waiting(self) -> None:
        """Queue the outcomes waiting for a `sent` mark by themselves (without waiting for them)."""
        waiting = self._take_waiting()
        if waiting:
            queued = self.database.submit(stored.write_cells, waiting)
            queued.add_done_callback(self._note_failure)
            self._queued = queued

    def mark_sent(self, key: str) -> None:
        self.sent.add(key)
        self.database.call(stored.write_cells_then_mark_sent, self._take_waiting(), [self._sent_args(key)])

    async def record_sent(self, key: str) -> None:
        """Mark `key` sent and return once that is committed (the request may then go out), with
        the outcomes waiting in the same transaction. The marks of the workers that reach here in
        the same turn of the event loop share one commit."""
        self._raise_failure()
        self.sent.add(key)
        self._marks.append(self._sent_args(key))
        if self._marking is None or self._marking.get_loop() is not asyncio.get_running_loop():  # none, or one a closed loop left
            self._marking = asyncio.ensure_future(self._commit_marks())
            self._marking.add_done_callback(self._note_failure)  # known even when every waiting worker was stopped
            self._last_marking = self._marking
        await asyncio.shield(self._marking)

    async def _commit_marks(self) -> None:
        await asyncio.sleep(0)  # one more turn: workers woken by the same socket events join
        self._marking = None  # a mark made from here on goes in the next commit
        marks, self._marks = self._marks, []
        await self.database.run_here(stored.write_cells_then_mark_sent, self._take_waiting(), marks)

    def add_cell(self, record: CellRecord, detail: dict[str, Any]) -> None:
        """Keep `record` and write it with `detail` (request, exchange, grader exchanges)."""
        write = self._cell_write(record, detail)
        self.cells[record.key] = record
        self.database.call(stored.write_cells, [*self._take_waiting(), write])

    async def record_cell(self, record: CellRecord, detail: dict[str, Any]) -> None:
        """Keep `record` and its write (the cell and its grades, atomic), encoded now, to go with
        the next `sent` mark's commit."""
        self._raise_failure()
        write = self._cell_write(record, detail)
        self.cells[record.key] = record
        with self._waiting_lock:
            self._waiting.append(write)
            full = len(self._waiting) >= WAITING_LIMIT
        if full:
            await self._write_waiting()

    async def _write_waiting(self) -> None:
        waiting = self._take_waiting()
        if waiting:
            await self.database.run_here(stored.write_cells, waiting)

    async def settled(self) -> None:
        """Return once every write so far is committed (raises the first that failed)."""
        if self._last_marking is not None and not self._last_marking.done():
            await asyncio.wait([self._last_marking])
        await self._write_waiting()
        if self._queued is not None:
            await asyncio.shield(asyncio.wrap_future(self._queued))
        self._raise_failure()

    def _note_failure(self, queued: Future[None] | asyncio.Future[None]) -> None:
        if not queued.cancelled() and queued.exception() is not None and self._failure is None:
            self._failure = queued.exception()

    def _raise_failure(self) -> None:
        if self._failure is not None:
            raise self._failure

    def add_vote(self, vote: Vote) -> None:
        self.votes.append(vote)
        self._queue_waiting()
        self.database.call(stored.add_vote, self.run_id, {"a": vote.a, "b": vote.b, "outcome": vote.outcome, "row": vote.row}, time.time())

    def detail(self, key: str) -> dict[str, Any]:
        """A cell's request, raw events and grader exchanges."""
        if key not in self.cells:
            return {}
        row, repeat, column = (int(part) for part in key.split("."))
        self._queue_waiting()  # a cell just finished: its outcome is written before it is read
        return self.database.call(stored.cell_detail, self.run_id, row, repeat, column)

    def close(self) -> None:
        """Nothing to close: the database stays open for the process."""


def list_runs(database: Database, chosen: stored.RunFilter) -> list[stored.RunSummary]:
    return database.call(stored.list_runs, chosen)
