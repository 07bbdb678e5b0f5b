"""Today's run files (`store.RunFile`, one JSON line per fact under `batch-runs/`) moved into the
local store once, when the app starts: each file's run with its owner, rows, cells (with their
requests and raw events), grades, sent marks and votes, in one transaction per file.

Idempotent: a file already imported (same name, size and time) or whose run is already in the
store is skipped. A file that cannot be read whole (not a run file, a plan that fails its checks,
too large) is refused with its name and the reason, remembered so it is not read again until it
changes, and the rest go on; the files themselves are left as they are."""

from __future__ import annotations

import logging
import sqlite3
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from playground.client.batch.plan import Plan, PlanError
from playground.client.batch.store import RUN_ID, RunFile
from playground.client.batch.stored_run import new_run
from playground.client.texts import Text
from playground.store import runs as stored
from playground.store.database import Database

MAX_RUN_FILE_BYTES = 1 << 30
log = logging.getLogger(__name__)


@dataclass
class ImportReport:
    imported: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    refused: list[tuple[str, str]] = field(default_factory=list)
    """(file name, why)."""


def _store(connection: sqlite3.Connection, run: RunFile, name: str, size: int, mtime: float) -> None:
    header = run.header
    given = header.get("created")
    created = float(given) if isinstance(given, (int, float)) else mtime
    stored.insert_run(connection, new_run(header["plan"], run.owner, run_id=run.run_id, created=created, origin="run-file"))
    for key in sorted(run.sent):
        row, repeat, column = (int(part) for part in key.split("."))
        stored.mark_sent(connection, run.run_id, row, repeat, column, created)
    for record in run.cells.values():
        summary = {name: value for name, value in asdict(record).items() if name != "offset"}
        stored.save_cell(connection, run.run_id, summary, run.detail(record.key), created)
    for vote in run.votes:
        stored.add_vote(connection, run.run_id, {"a": vote.a, "b": vote.b, "outcome": vote.outcome, "row": vote.row}, created)
    stored.record_import(connection, name, size, mtime, run.run_id, "", time.time())


def _read(path: Path, max_rows: int) -> RunFile:
    """The file's run, checked whole (raises `ValueError` with the reason)."""
    if not RUN_ID.match(path.stem):
        raise ValueError(Text("store.run_file_name"))
    if path.stat().st_size > MAX_RUN_FILE_BYTES:
        raise ValueError(Text("store.run_file_too_large", limit=MAX_RUN_FILE_BYTES >> 20))
    try:
        run, _ = RunFile.read(path)
    except RecursionError:
        raise ValueError(Text("store.run_file_too_deep")) from None
    except (ValueError, UnicodeDecodeError) as error:
        raise ValueError(Text("store.run_file_unreadable", reason=str(error))) from None
    try:
        Plan.from_dict(run.header.get("plan"), max_rows)
    except PlanError as error:
        raise ValueError(Text("store.run_file_plan", reason=str(error))) from None
    return run


def import_run_files(database: Database, directory: Path, max_rows: int) -> ImportReport:
    """Move every run file in `directory` not yet imported into the store."""
    report = ImportReport()
    if not directory.is_dir():
        return report
    for path in sorted(directory.glob("*.jsonl")):
        try:
            status = path.stat()
        except OSError:
            continue
        name, size, mtime = path.name, status.st_size, status.st_mtime
        if database.call(stored.import_seen, name, size, mtime):
            report.skipped.append(name)
            continue
        try:
            run = _read(path, max_rows)
            if database.call(stored.run_exists, run.run_id):
                database.call(stored.record_import, name, size, mtime, run.run_id, "", time.time())
                report.skipped.append(name)
                continue
            database.call(_store, run, name, size, mtime)
        except (ValueError, OSError) as problem:
            reason = str(problem)
            log.warning("run file %s not imported: %s", name, reason)
            database.call(stored.record_import, name, size, mtime, "", reason or "refused", time.time())
            report.refused.append((name, reason))
            continue
        report.imported.append(name)
    return report
