"""How a run in the local store is written while the runner works: at most one commit per request
(workers ready at once share one), made on the runner's own thread (never queued behind the store's
thread), carrying the outcomes finished before it; every outcome on disk before the next request
goes out, when too many wait, when its detail is read, and when the run ends; two writes of one
cell in one commit keep the last."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Callable
from concurrent.futures import Future
from contextlib import closing
from pathlib import Path
from typing import Any, TypeVar

import pytest

from playground.client.batch import runner as runner_module
from playground.client.batch.dataset import Dataset
from playground.client.batch.graders import GraderSpec
from playground.client.batch.plan import Plan
from playground.client.batch.runner import Runner
from playground.client.batch.store import CellRecord, cell_key
from playground.client.batch.stored_run import WAITING_LIMIT, StoredRun
from playground.client.gateway import GatewayClient
from playground.client.transport import Connection
from playground.store import runs as stored
from playground.store.database import FILE_NAME, Database

T = TypeVar("T")
COLUMNS = [("chat", "gx-2.5-flash"), ("messages", "cl-sonnet-4-5-20250929")]


class CountingDatabase(Database):
    """The store's database, counting the pieces of work handed to its thread and the writes made on the caller's."""

    handed: int = 0
    here: int = 0

    def submit(self, work: Callable[..., T], *args: Any) -> Future[T]:
        self.handed += 1
        return super().submit(work, *args)

    async def run(self, work: Callable[..., T], *args: Any) -> T:
        self.handed += 1
        return await super().run(work, *args)

    async def run_here(self, work: Callable[..., T], *args: Any) -> T:
        self.here += 1
        return await super().run_here(work, *args)


def _plan(rows: int, concurrency: int) -> Plan:
    return Plan("Answer: what is {{q}}?", dataset=Dataset(["q"], [{"q": f"{n} + 100"} for n in range(rows)], "writes.csv"),
                columns=list(COLUMNS), graders=[GraderSpec("contains", "{{q}}")], concurrency=concurrency)


def _on_disk(path: Path, query: str) -> int:
    with closing(sqlite3.connect(path)) as reader:  # another connection: it sees only what is committed
        return int(reader.execute(query).fetchone()[0])


async def test_each_request_is_one_commit_on_the_runners_thread_carrying_the_outcomes_before_it(client: GatewayClient, conn: Connection,
                                                                                                 tmp_path: Path) -> None:
    database = CountingDatabase(tmp_path / FILE_NAME)
    plan = _plan(10, 3)
    run = StoredRun.create(database, plan.to_dict())
    database.handed = 0
    progress = await Runner(client, conn, plan, run).run()
    assert progress.done == 20 and progress.errors == 0
    assert database.handed == 0  # nothing waited for the store's thread
    assert database.here <= 20 + plan.concurrency  # one per request, and one per worker when it runs out (was two per cell)
    assert _on_disk(database.path, "SELECT count(*) FROM cells") == 20
    assert _on_disk(database.path, "SELECT count(*) FROM sent") == 20
    assert _on_disk(database.path, "SELECT count(*) FROM grades WHERE passed = 1") == 20
    reread = StoredRun.open(database, run.run_id)
    assert {key: cell.answer for key, cell in reread.cells.items()} == {key: cell.answer for key, cell in run.cells.items()}
    database.close()


async def test_a_run_goes_on_through_the_stores_thread_while_another_writer_holds_the_file(client: GatewayClient, conn: Connection,
                                                                                            tmp_path: Path) -> None:
    database = CountingDatabase(tmp_path / FILE_NAME)
    plan = _plan(3, 2)
    run = StoredRun.create(database, plan.to_dict())
    other = sqlite3.connect(database.path, isolation_level=None, check_same_thread=False)  # e.g. a second app process
    other.execute("BEGIN IMMEDIATE")
    threading.Timer(0.5, lambda: (other.execute("COMMIT"), other.close())).start()
    database.handed = 0
    progress = await Runner(client, conn, plan, run).run()
    assert progress.done == 6 and _on_disk(database.path, "SELECT count(*) FROM cells") == 6
    assert _on_disk(database.path, "SELECT count(*) FROM sent") == 6
    assert database.handed >= 1  # the marks made while the file was held went to the store's thread
    database.close()


async def test_every_outcome_is_on_disk_before_the_next_request_goes_out(client: GatewayClient, conn: Connection, tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    database = Database(tmp_path / FILE_NAME)
    plan = _plan(4, 1)
    run = StoredRun.create(database, plan.to_dict())
    seen: list[tuple[int, int, int]] = []
    real = runner_module.run_request

    async def checked(*args: Any, **kwargs: Any) -> Any:
        cells = _on_disk(database.path, "SELECT count(*) FROM cells")
        seen.append((len(run.cells), cells, _on_disk(database.path, "SELECT count(*) FROM sent")))
        return await real(*args, **kwargs)

    monkeypatch.setattr(runner_module, "run_request", checked)
    await Runner(client, conn, plan, run).run()
    assert seen == [(n, n, n + 1) for n in range(8)]  # every finished cell and this request's mark are committed
    assert _on_disk(database.path, "SELECT count(*) FROM cells") == 8  # the last one too, once the run ended
    database.close()


async def test_outcomes_no_request_follows_are_written_when_too_many_wait_and_when_settled(tmp_path: Path) -> None:
    database = Database(tmp_path / FILE_NAME)
    run = StoredRun.create(database, _plan(WAITING_LIMIT + 6, 1).to_dict())
    for row in range(WAITING_LIMIT + 6):  # e.g. answers from the run's cache: no request, no `sent` mark
        await run.record_cell(CellRecord(row, 0, 0, answer=f"answer {row}", marks=[{"passed": True, "detail": "", "score": None}]),
                              {"row": row})
        if row == WAITING_LIMIT - 1:
            database.call(stored.run_exists, run.run_id)  # the store's thread has done what was queued before
            assert _on_disk(database.path, "SELECT count(*) FROM cells") == WAITING_LIMIT  # too many waited: written
    assert _on_disk(database.path, "SELECT count(*) FROM cells") == WAITING_LIMIT  # the six after them still wait
    assert run.detail("69.0.0") == {"row": 69}  # a waiting cell's detail is written before it is read
    assert _on_disk(database.path, "SELECT count(*) FROM cells") == WAITING_LIMIT + 6
    await run.record_cell(CellRecord(1, 0, 0, answer="again", marks=[]), {})
    await run.settled()
    assert _on_disk(database.path, "SELECT count(*) FROM cells") == WAITING_LIMIT + 6
    assert _on_disk(database.path, "SELECT count(*) FROM grades") == WAITING_LIMIT + 5  # the rewritten cell lost its old grade
    database.close()


async def test_workers_ready_at_once_share_one_commit_and_a_stopped_one_does_not_hold_it(tmp_path: Path) -> None:
    database = CountingDatabase(tmp_path / FILE_NAME)
    run = StoredRun.create(database, _plan(8, 8).to_dict())
    await run.record_cell(CellRecord(7, 0, 1, answer="earlier", marks=[]), {})
    marked: list[int] = []

    async def worker(row: int) -> None:
        await run.record_sent(cell_key(row, 0, 0))
        marked.append(_on_disk(database.path, "SELECT count(*) FROM sent"))  # this worker's request would go out now

    stopped = asyncio.ensure_future(worker(7))
    workers = [asyncio.ensure_future(worker(row)) for row in range(7)]
    await asyncio.sleep(0)
    stopped.cancel()  # e.g. Stop while it waited for the commit
    await asyncio.gather(*workers)
    assert marked == [8] * 7  # every mark was on disk before any of the requests went out
    assert database.here == 1  # one commit for the eight, with the outcome that waited
    assert _on_disk(database.path, "SELECT count(*) FROM cells") == 1
    assert stopped.cancelled()
    database.close()


def test_two_writes_of_one_cell_in_one_commit_keep_the_last(tmp_path: Path) -> None:
    database = Database(tmp_path / FILE_NAME)
    run = StoredRun.create(database, _plan(1, 1).to_dict())
    first = stored.cell_write(run.run_id, {"row": 0, "repeat": 0, "column": 0, "answer": "first", "marks": [{"passed": False}]}, {}, 1.0, False)
    last = stored.cell_write(run.run_id, {"row": 0, "repeat": 0, "column": 0, "answer": "last", "marks": [{"passed": True}, {"passed": True}]},
                             {}, 2.0, True)
    database.call(stored.write_cells, [first, last])
    loaded = database.call(stored.load_run, run.run_id)
    assert loaded is not None and [cell["answer"] for cell in loaded.cells] == ["last"]
    assert [mark["passed"] for mark in loaded.cells[0]["marks"]] == [True, True]
    database.close()
