"""The store's schema, versioned: `MIGRATIONS[n]` brings a database from version n to n + 1
(SQLite's `user_version`). A migration is only ever added, never edited once released; a
database newer than this code is refused rather than written to."""

from __future__ import annotations

import sqlite3

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (  # 1: Batch runs, every row, cell, grade and vote; the run files already imported
        """CREATE TABLE runs (
            id TEXT PRIMARY KEY, owner TEXT NOT NULL, created REAL NOT NULL, plan TEXT NOT NULL,
            dataset TEXT NOT NULL, row_count INTEGER NOT NULL, repeats INTEGER NOT NULL, cell_total INTEGER NOT NULL,
            origin TEXT NOT NULL)""",
        "CREATE INDEX runs_by_owner ON runs (owner, created)",
        """CREATE TABLE run_columns (
            run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE, position INTEGER NOT NULL,
            format TEXT NOT NULL, model TEXT NOT NULL, PRIMARY KEY (run_id, position))""",
        "CREATE INDEX run_columns_by_model ON run_columns (model)",
        """CREATE TABLE run_rows (
            run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE, row INTEGER NOT NULL, run_values TEXT NOT NULL,
            PRIMARY KEY (run_id, row))""",
        """CREATE TABLE sent (
            run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE, row INTEGER NOT NULL, repeat INTEGER NOT NULL,
            col INTEGER NOT NULL, at REAL NOT NULL, PRIMARY KEY (run_id, row, repeat, col))""",
        """CREATE TABLE cells (
            run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE, row INTEGER NOT NULL, repeat INTEGER NOT NULL,
            col INTEGER NOT NULL, answer TEXT NOT NULL, error TEXT NOT NULL, ttft REAL, total REAL, tokens_per_s REAL,
            usage TEXT NOT NULL, cached INTEGER NOT NULL, request_key TEXT NOT NULL, detail TEXT NOT NULL, written REAL NOT NULL,
            PRIMARY KEY (run_id, row, repeat, col))""",
        """CREATE TABLE grades (
            run_id TEXT NOT NULL, row INTEGER NOT NULL, repeat INTEGER NOT NULL, col INTEGER NOT NULL, grader INTEGER NOT NULL,
            passed INTEGER, score INTEGER, detail TEXT NOT NULL, PRIMARY KEY (run_id, row, repeat, col, grader),
            FOREIGN KEY (run_id, row, repeat, col) REFERENCES cells (run_id, row, repeat, col) ON DELETE CASCADE)""",
        """CREATE TABLE votes (
            id INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
            a INTEGER NOT NULL, b INTEGER NOT NULL, outcome TEXT NOT NULL, row INTEGER NOT NULL, at REAL NOT NULL)""",
        """CREATE TABLE imported_files (
            name TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime REAL NOT NULL, run_id TEXT NOT NULL, problem TEXT NOT NULL,
            at REAL NOT NULL)""",
    ),
    (  # 2: Report documents kept (the tab's finished runs, the command line's --keep), listed per owner and gateway
        """CREATE TABLE reports (
            id TEXT PRIMARY KEY, owner TEXT NOT NULL, created REAL NOT NULL, gateway TEXT NOT NULL, thorough INTEGER NOT NULL,
            summary TEXT NOT NULL, passed INTEGER NOT NULL, failed INTEGER NOT NULL, compatible_failed INTEGER NOT NULL,
            cells INTEGER NOT NULL, origin TEXT NOT NULL, document TEXT NOT NULL, kept REAL NOT NULL)""",
        "CREATE INDEX reports_by_owner ON reports (owner, created)",
    ),
    (  # 3: the prompt library: named prompts per owner, their immutable numbered versions, labels, partials
        """CREATE TABLE prompts (
            id INTEGER PRIMARY KEY AUTOINCREMENT, owner TEXT NOT NULL, name TEXT NOT NULL, created REAL NOT NULL,
            UNIQUE (owner, name))""",
        """CREATE TABLE prompt_versions (
            prompt_id INTEGER NOT NULL REFERENCES prompts (id) ON DELETE CASCADE, number INTEGER NOT NULL,
            created REAL NOT NULL, content TEXT NOT NULL, PRIMARY KEY (prompt_id, number))""",
        """CREATE TABLE prompt_labels (
            prompt_id INTEGER NOT NULL, label TEXT NOT NULL, number INTEGER NOT NULL, moved REAL NOT NULL,
            PRIMARY KEY (prompt_id, label),
            FOREIGN KEY (prompt_id, number) REFERENCES prompt_versions (prompt_id, number) ON DELETE CASCADE)""",
        """CREATE TABLE prompt_partials (
            owner TEXT NOT NULL, name TEXT NOT NULL, text TEXT NOT NULL, saved REAL NOT NULL, PRIMARY KEY (owner, name))""",
    ),
)
VERSION = len(MIGRATIONS)


class NewerDatabaseError(RuntimeError):
    """The database was written by a newer version of the app."""


def version_of(connection: sqlite3.Connection) -> int:
    return int(connection.execute("PRAGMA user_version").fetchone()[0])


def migrate(connection: sqlite3.Connection) -> int:
    """Apply the migrations the database lacks (inside the caller's transaction); its version."""
    current = version_of(connection)
    if current > VERSION:
        raise NewerDatabaseError(f"the database {current} is newer than this app's ({VERSION}): not opened")
    for number in range(current, VERSION):
        for statement in MIGRATIONS[number]:
            connection.execute(statement)
        connection.execute(f"PRAGMA user_version = {number + 1}")
    return VERSION
