"""The store's database: one SQLite file per data directory, opened once per process, in WAL
mode (readers never wait for the writer; a killed process loses nothing that was committed).

Every statement runs on the database's one thread, so there is one writer and a caller on the
event loop awaits (`run`) instead of blocking it; a caller on a worker thread waits (`call`).
Each call is one transaction (`BEGIN IMMEDIATE` … `COMMIT`, rolled back on an exception), so a
cell and its grades land together or not at all. The schema is brought up to date by
`migrations.migrate` when the file is opened."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from playground.store.migrations import migrate

FILE_NAME = "playground.sqlite3"
T = TypeVar("T")
_OPEN: dict[Path, Database] = {}
_OPEN_LOCK = threading.Lock()


class Database:
    """One SQLite file and the thread that runs every statement on it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._connection: sqlite3.Connection | None = None
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="playground-store")
        self.call(_configure)
        self.call(migrate)

    @classmethod
    def at(cls, data_dir: str | Path) -> Database:
        """The process's database for `data_dir` (opened and migrated on first use)."""
        path = (Path(data_dir) / FILE_NAME).resolve()
        with _OPEN_LOCK:
            if path not in _OPEN:
                _OPEN[path] = cls(path)
            return _OPEN[path]

    def _run(self, work: Callable[..., T], args: tuple[Any, ...]) -> T:
        if self._connection is None:
            self._connection = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=30)
        connection = self._connection
        connection.execute("BEGIN IMMEDIATE")
        try:
            result = work(connection, *args)
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        connection.execute("COMMIT")
        return result

    def submit(self, work: Callable[..., T], *args: Any) -> Future[T]:
        """Queue `work(connection, *args)` as one transaction; its future holds the result."""
        return self._thread.submit(self._run, work, args)

    def call(self, work: Callable[..., T], *args: Any) -> T:
        """Run `work(connection, *args)` as one transaction and wait for it (not on the event loop)."""
        return self.submit(work, *args).result()

    async def run(self, work: Callable[..., T], *args: Any) -> T:
        """Run `work(connection, *args)` as one transaction without blocking the event loop. Once
        queued it completes even if the awaiting task is cancelled (a Stop mid-write)."""
        return await asyncio.shield(asyncio.wrap_future(self.submit(work, *args)))

    def close(self) -> None:
        """Finish queued work and close the file (tests; the app keeps it open)."""
        def shut(_: sqlite3.Connection) -> None:
            return None
        self.call(shut)
        self._thread.submit(self._close_connection).result()
        self._thread.shutdown()
        with _OPEN_LOCK:
            if _OPEN.get(self.path) is self:
                del _OPEN[self.path]

    def _close_connection(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None


def _configure(connection: sqlite3.Connection) -> None:
    connection.execute("COMMIT")  # journal_mode cannot change inside a transaction
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=NORMAL")  # in WAL: a process kill loses no commit
    connection.execute("PRAGMA foreign_keys=ON")
    connection.execute("BEGIN IMMEDIATE")
