"""The store's database: one SQLite file per data directory, opened once per process, in WAL
mode (readers never wait for the writer; a killed process loses nothing that was committed).

Every statement runs on the database's one thread, so there is one writer and a caller on the
event loop awaits (`run`) instead of blocking it; a caller on a worker thread waits (`call`).
Each piece of work is atomic (a cell and its grades land together or not at all). The thread
commits what is queued together (group commit: one transaction for the pieces that arrived while
it was busy; if one fails, each runs again alone so only that one is refused), and a piece's
future is resolved only after its commit, so a caller that awaited its work knows it is on disk.
Few statements matter more than fast ones: each one hands Python's GIL to the event loop and
waits to get it back (up to the 5 ms switch interval when the loop is busy), so a one-statement
write (`runs.single_statement`) alone in its group runs without BEGIN and COMMIT around it. Work
awaited from the event loop (`run`) is answered on the loop's own future, and a group's answers to
one loop go in one wake-up of it (`call_soon_threadsafe` once, not once per piece through a
`concurrent.futures.Future` chained to an asyncio one).

One kind of write skips the thread when it can: a short one the event loop must see committed
before it goes on, many times a second (a Batch cell's `sent` mark, `run_here`). Handed to the
thread, each costs the loop far more than the write: the GIL passes back and forth at every system
call of both threads (a 1,000-row run took 1.37x direct calls that way; docs/benchmarks.md). It
runs on a connection of the calling thread's own when no other writer holds the file (WAL: one
writer at a time), and is handed to the thread like `run` when one does, so the loop never waits
for a lock. Nor does it copy the log into the file: that connection never checkpoints; every
`CHECKPOINT_EVERY` of its commits the thread is asked to (a checkpoint syncs the file to disk).

The schema is brought up to date by `migrations.migrate` when the file is opened."""

from __future__ import annotations

import asyncio
import logging
import queue
import sqlite3
import threading
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any, TypeVar

from playground.store.migrations import migrate

FILE_NAME = "playground.sqlite3"
CHECKPOINT_EVERY = 256
"""Commits made on callers' threads between two checkpoints asked of the store's thread."""
GROUP_LIMIT = 128
"""At most this many queued pieces of work share one commit."""
T = TypeVar("T")
_OPEN: dict[Path, Database] = {}
_OPEN_LOCK = threading.Lock()
log = logging.getLogger(__name__)


class _LockHeld(Exception):
    """Another writer holds the file: the work goes to the store's thread instead."""


class _LoopWaiter:
    """Where an event loop awaits a piece of work: its loop and the loop's own future."""

    __slots__ = ("future", "loop")

    def __init__(self, loop: asyncio.AbstractEventLoop, future: asyncio.Future[Any]) -> None:
        self.loop, self.future = loop, future


_Job = tuple["Future[Any] | _LoopWaiter", Callable[..., Any], tuple[Any, ...]]


def _checkpoint(connection: sqlite3.Connection) -> None:
    connection.execute("PRAGMA wal_checkpoint(PASSIVE)")


def _answer_loop(answers: list[tuple[asyncio.Future[Any], bool, Any]]) -> None:
    """On the event loop: resolve the futures a group answered (one awaiting task cancelled meanwhile is skipped)."""
    for future, done, value in answers:
        if future.done():
            continue
        if done:
            future.set_result(value)
        else:
            future.set_exception(value)


class Database:
    """One SQLite file and the thread that runs every statement on it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._here = threading.local()
        self._here_connections: list[sqlite3.Connection] = []
        self._here_lock = threading.Lock()
        self._here_commits = 0
        self._thread = threading.Thread(target=self._serve, name="playground-store", daemon=True)
        self._thread.start()
        try:
            self.call(migrate)
        except BaseException:
            self.close()
            raise

    @classmethod
    def at(cls, data_dir: str | Path) -> Database:
        """The process's database for `data_dir` (opened and migrated on first use)."""
        path = (Path(data_dir) / FILE_NAME).resolve()
        with _OPEN_LOCK:
            if path not in _OPEN:
                _OPEN[path] = cls(path)
            return _OPEN[path]

    def _connect(self, timeout: float) -> sqlite3.Connection:
        connection = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=timeout)
        connection.execute("PRAGMA synchronous=NORMAL")  # in WAL: a process kill loses no commit
        connection.execute("PRAGMA foreign_keys=ON")
        return connection

    def _connect_here(self) -> sqlite3.Connection:
        """A caller's own connection: never waits for the write lock, never checkpoints (`_write_now`)."""
        connection = self._connect(0)
        connection.execute("PRAGMA wal_autocheckpoint=0")
        with self._here_lock:
            self._here_connections.append(connection)
        return connection

    def _serve(self) -> None:
        connection = self._connect(30)
        connection.execute("PRAGMA journal_mode=WAL")
        try:
            while True:
                first = self._jobs.get()
                if first is None:
                    return
                group = [first]
                while len(group) < GROUP_LIMIT:
                    try:
                        following = self._jobs.get_nowait()
                    except queue.Empty:
                        break
                    if following is None:
                        self._jobs.put(None)  # close after this group
                        break
                    group.append(following)
                checkpoints = [job for job in group if job[1] is _checkpoint]
                if len(checkpoints) < len(group):
                    self._commit(connection, [job for job in group if job[1] is not _checkpoint])
                if checkpoints:
                    self._checkpoint_now(connection, checkpoints)
        finally:
            connection.close()

    @staticmethod
    def _checkpoint_now(connection: sqlite3.Connection, asked: list[_Job]) -> None:
        """Copy the log's committed pages into the file, outside any transaction (SQLite refuses one inside)."""
        try:
            _checkpoint(connection)
        except sqlite3.Error as error:
            log.warning("the store could not checkpoint its log: %s", error)
        for waiter, _, _ in asked:
            if isinstance(waiter, Future) and waiter.set_running_or_notify_cancel():
                waiter.set_result(None)

    @classmethod
    def _commit(cls, connection: sqlite3.Connection, group: list[_Job]) -> None:
        """Run `group` in one transaction. If a piece fails, the group is rolled back and each piece
        runs again in a transaction of its own, so only the failing one is refused."""
        outcomes: list[tuple[bool, Any]] = []
        alone = len(group) == 1 and getattr(group[0][1], "single_statement", False)
        try:
            if not alone:
                connection.execute("BEGIN IMMEDIATE")
            outcomes = [(True, work(connection, *args)) for _, work, args in group]
            if not alone:
                connection.execute("COMMIT")
        except Exception as error:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            if len(group) > 1:
                for job in group:
                    cls._commit(connection, [job])
                return
            log.warning("the store refused a piece of work: %s", error)
            outcomes = [(False, error)]
        loops: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], bool, Any]]] = {}
        for (waiter, _, _), (done, value) in zip(group, outcomes):
            if isinstance(waiter, _LoopWaiter):
                loops.setdefault(waiter.loop, []).append((waiter.future, done, value))
            elif not waiter.set_running_or_notify_cancel():
                continue
            elif done:
                waiter.set_result(value)
            else:
                waiter.set_exception(value)
        for loop, answers in loops.items():
            try:
                loop.call_soon_threadsafe(_answer_loop, answers)
            except RuntimeError:  # the loop closed while its work ran: nobody awaits it any more
                pass

    def submit(self, work: Callable[..., T], *args: Any) -> Future[T]:
        """Queue `work(connection, *args)`; its future holds the result once committed."""
        future: Future[T] = Future()
        self._jobs.put((future, work, args))
        return future

    def call(self, work: Callable[..., T], *args: Any) -> T:
        """Run `work(connection, *args)` and wait until it is committed (not on the event loop)."""
        return self.submit(work, *args).result()

    async def run(self, work: Callable[..., T], *args: Any) -> T:
        """Run `work(connection, *args)` without blocking the event loop; returns once committed.
        Once queued it completes even if the awaiting task is cancelled (a Stop mid-write)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._jobs.put((_LoopWaiter(loop, future), work, args))
        return await future

    async def run_here(self, work: Callable[..., T], *args: Any) -> T:
        """`run` for a short write (see above): on the calling thread when the file's write lock is
        free, else on the store's thread; returns once committed (or raises, having written nothing)."""
        try:
            return self._write_now(work, *args)
        except _LockHeld:
            return await self.run(work, *args)

    def _write_now(self, work: Callable[..., T], *args: Any) -> T:
        connection = getattr(self._here, "connection", None)
        if connection is None:
            connection = self._here.connection = self._connect_here()
        try:
            connection.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:
            if getattr(error, "sqlite_errorcode", 0) & 0xFF == sqlite3.SQLITE_BUSY:
                raise _LockHeld from error
            raise
        try:
            result = work(connection, *args)
            connection.execute("COMMIT")
        except BaseException:
            if connection.in_transaction:  # the work or its commit failed: nothing of it stays
                connection.execute("ROLLBACK")
            raise
        self._here_commits += 1
        if self._here_commits % CHECKPOINT_EVERY == 0:
            self.submit(_checkpoint)
        return result

    def close(self) -> None:
        """Finish queued work and close the file (tests and benchmarks; the app keeps it open)."""
        self._jobs.put(None)
        self._thread.join(30)
        with self._here_lock:
            for connection in self._here_connections:
                connection.close()
            self._here_connections.clear()
        with _OPEN_LOCK:
            if _OPEN.get(self.path) is self:
                del _OPEN[self.path]
