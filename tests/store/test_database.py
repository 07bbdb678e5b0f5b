"""The store's database: created and migrated to the current schema when first opened, in WAL
mode, one per data directory in a process; a database from a newer app is refused; each call is
one transaction (an error leaves nothing half-written); work awaited from the event loop."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from contextlib import closing
from pathlib import Path

import pytest

from playground.store import runs as stored
from playground.store import database as database_module
from playground.store.database import FILE_NAME, Database
from playground.store.migrations import MIGRATIONS, VERSION, NewerDatabaseError, version_of


def _run(run_id: str, **changes: object) -> stored.NewRun:
    fields: dict[str, object] = {"id": run_id, "owner": "", "created": 1_700_000_000.0, "plan": {"kind": "k"}, "dataset": "data.csv",
                                 "rows": [{"q": "one"}], "columns": [("chat", "gx-2.5-flash")], "repeats": 1, "total": 1}
    fields.update(changes)
    return stored.NewRun(**fields)  # type: ignore[arg-type]


def test_a_new_database_has_the_whole_schema_in_wal_mode(tmp_path: Path) -> None:
    database = Database.at(tmp_path)
    assert database is Database.at(tmp_path) and database.path == (tmp_path / FILE_NAME).resolve()
    assert database.call(version_of) == VERSION == len(MIGRATIONS)
    with closing(sqlite3.connect(database.path)) as reader:
        assert reader.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {name for (name,) in reader.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"runs", "run_columns", "run_rows", "sent", "cells", "grades", "votes", "imported_files"} <= tables
    database.close()
    assert Database.at(tmp_path).call(version_of) == VERSION  # opened again: nothing to migrate


def test_a_database_written_by_a_newer_app_is_refused(tmp_path: Path) -> None:
    with closing(sqlite3.connect(tmp_path / FILE_NAME)) as older:
        older.execute(f"PRAGMA user_version = {VERSION + 1}")
    with pytest.raises(NewerDatabaseError, match="newer"):
        Database(tmp_path / FILE_NAME)


def test_an_older_database_is_migrated_forward(tmp_path: Path) -> None:
    with closing(sqlite3.connect(tmp_path / FILE_NAME)) as empty:  # version 0: a file from before the store had tables
        assert version_of(empty) == 0
    assert Database.at(tmp_path).call(version_of) == VERSION


def test_a_call_that_fails_writes_nothing(tmp_path: Path) -> None:
    database = Database.at(tmp_path)

    def half(connection: sqlite3.Connection) -> None:
        stored.insert_run(connection, _run("a" * 32))
        stored.insert_run(connection, _run("a" * 32))  # the same id again: the transaction is rolled back whole

    with pytest.raises(sqlite3.IntegrityError):
        database.call(half)
    assert not database.call(stored.run_exists, "a" * 32)


async def test_work_from_the_event_loop_is_awaited_and_committed(tmp_path: Path) -> None:
    database = Database.at(tmp_path)
    await database.run(stored.insert_run, _run("b" * 32))
    await database.run(stored.mark_sent, "b" * 32, 0, 0, 0, 1.0)
    with closing(sqlite3.connect(database.path)) as reader:  # another connection sees it: it is committed
        assert reader.execute("SELECT count(*) FROM sent").fetchone()[0] == 1


def test_text_sqlite_cannot_hold_is_kept_readable(tmp_path: Path) -> None:
    database = Database.at(tmp_path)
    database.call(stored.insert_run, _run("c" * 32))
    summary = {"row": 0, "repeat": 0, "column": 0, "answer": "half \ud83d of a pair", "error": "", "marks": [{"passed": True, "detail": "ok"}]}
    database.call(stored.save_cell, "c" * 32, summary, {"raw": "\ud83d"}, 1.0)
    loaded = database.call(stored.load_run, "c" * 32)
    assert loaded is not None and loaded.cells[0]["answer"] == "half \ufffd of a pair" and loaded.cells[0]["marks"][0]["passed"] is True


async def test_work_awaited_from_the_event_loop_raises_its_error_and_is_kept_when_its_task_is_cancelled(tmp_path: Path) -> None:
    database = Database.at(tmp_path)
    await database.run(stored.insert_run, _run("d" * 32))
    with pytest.raises(sqlite3.IntegrityError):  # the refusal reaches the awaiting task, the store goes on
        await database.run(stored.insert_run, _run("d" * 32))
    started, release = threading.Event(), threading.Event()

    def slow(connection: sqlite3.Connection) -> None:
        started.set()
        release.wait(10)

    blocker = asyncio.ensure_future(database.run(slow))
    await asyncio.to_thread(started.wait, 10)  # the store's thread is busy: what follows waits in its queue
    writes = [asyncio.ensure_future(database.run(stored.mark_sent, "d" * 32, 0, 0, column, 1.0)) for column in range(3)]
    await asyncio.sleep(0)
    writes[1].cancel()  # a Stop while the mark waits: the task ends, the queued work is still done
    release.set()
    await blocker
    await asyncio.gather(writes[0], writes[2])
    with pytest.raises(asyncio.CancelledError):
        await writes[1]
    assert database.call(lambda connection: connection.execute("SELECT count(*) FROM sent").fetchone()[0]) == 3


async def test_a_write_here_is_committed_when_it_returns_and_writes_nothing_when_it_fails(tmp_path: Path) -> None:
    database = Database.at(tmp_path)
    await database.run_here(stored.insert_run, _run("e" * 32))
    await database.run_here(stored.mark_sent, "e" * 32, 0, 0, 0, 1.0)
    with closing(sqlite3.connect(database.path)) as reader:  # another connection sees both: committed
        assert reader.execute("SELECT count(*) FROM sent WHERE run_id = ?", ("e" * 32,)).fetchone()[0] == 1

    def half(connection: sqlite3.Connection) -> None:
        stored.mark_sent(connection, "e" * 32, 1, 0, 0, 1.0)
        stored.insert_run(connection, _run("e" * 32))  # refused: the mark before it is rolled back with it

    with pytest.raises(sqlite3.IntegrityError):
        await database.run_here(half)
    assert database.call(lambda connection: connection.execute("SELECT count(*) FROM sent").fetchone()[0]) == 1
    await database.run_here(stored.mark_sent, "e" * 32, 2, 0, 0, 1.0)  # the connection is usable after a refusal
    assert database.call(lambda connection: connection.execute("SELECT count(*) FROM sent").fetchone()[0]) == 2


async def test_a_write_here_goes_to_the_stores_thread_while_another_writer_holds_the_file(tmp_path: Path) -> None:
    database = Database.at(tmp_path)
    database.call(stored.insert_run, _run("f" * 32))
    other = sqlite3.connect(database.path, isolation_level=None, check_same_thread=False)  # e.g. a second app process
    other.execute("BEGIN IMMEDIATE")
    stored.mark_sent(other, "f" * 32, 0, 0, 0, 1.0)
    write = asyncio.ensure_future(database.run_here(stored.mark_sent, "f" * 32, 1, 0, 0, 1.0))
    await asyncio.sleep(0.3)  # the loop is not held: this sleep ends while the write waits
    assert not write.done() and not database._here_connections[0].in_transaction
    other.execute("COMMIT")
    other.close()
    await asyncio.wait_for(write, 30)  # the store's thread waited for the lock, then wrote
    assert database.call(lambda connection: connection.execute("SELECT count(*) FROM sent").fetchone()[0]) == 2


async def test_each_thread_writes_here_on_a_connection_of_its_own_closed_with_the_database(tmp_path: Path) -> None:
    database = Database(tmp_path / FILE_NAME)
    database.call(stored.insert_run, _run("g" * 32))
    loops = [threading.Thread(target=lambda row=row: asyncio.run(database.run_here(stored.mark_sent, "g" * 32, row, 0, 0, 1.0)))
             for row in range(3)]  # three threads, each with its event loop
    for thread in loops:
        thread.start()
    for thread in loops:
        thread.join(10)
    await database.run_here(stored.mark_sent, "g" * 32, 3, 0, 0, 1.0)
    connections = list(database._here_connections)
    assert len(connections) == 4 and database.call(lambda connection: connection.execute("SELECT count(*) FROM sent").fetchone()[0]) == 4
    database.close()
    for connection in connections:
        with pytest.raises(sqlite3.ProgrammingError):  # closed
            connection.execute("SELECT 1")


async def test_writes_here_leave_the_checkpoint_to_the_stores_thread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(database_module, "CHECKPOINT_EVERY", 4)
    database = Database(tmp_path / FILE_NAME)
    database.call(stored.insert_run, _run("h" * 32))
    with closing(sqlite3.connect(database.path, isolation_level=None)) as other:
        other.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # everything so far in the file
    size = database.path.stat().st_size
    summary = {"row": 0, "repeat": 0, "column": 0, "answer": "", "error": "", "marks": []}

    async def write(row: int) -> None:
        await database.run_here(stored.write_cells, [stored.cell_write("h" * 32, {**summary, "row": row}, {"raw": "x" * 1_500_000}, 1.0)])

    for row in range(3):
        await write(row)
    assert database.path.stat().st_size == size  # 4.5 MB (over 1,000 pages) in the log only: the caller never checkpoints
    await write(3)  # the fourth: the store's thread is asked to checkpoint
    for _ in range(200):
        if database.path.stat().st_size > size + 5_000_000:
            break
        await asyncio.sleep(0.05)
    assert database.path.stat().st_size > size + 5_000_000  # the four cells' pages copied into the file
    database.close()
