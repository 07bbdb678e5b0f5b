"""Reading the local store as it is on disk, beside the app (a reader of its own: WAL lets it
read while the app writes), for tests that check what a visitor's actions wrote."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from playground.store import runs as stored
from playground.store.database import FILE_NAME


def run_ids(data_dir: Path) -> list[str]:
    with closing(sqlite3.connect(Path(data_dir) / FILE_NAME)) as connection:
        return [summary.id for summary in stored.list_runs(connection, stored.RunFilter())]


def snapshot(data_dir: Path, run_id: str) -> str:
    """Everything stored of one run (plan, owner, rows, cells, sent marks, votes, every detail), as text."""
    with closing(sqlite3.connect(Path(data_dir) / FILE_NAME)) as connection:
        loaded = stored.load_run(connection, run_id)
        details = list(connection.execute("SELECT row, repeat, col, detail FROM cells WHERE run_id = ? ORDER BY row, repeat, col", (run_id,)))
    return repr((loaded, details))
