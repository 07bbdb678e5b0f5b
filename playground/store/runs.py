"""Batch runs in the store: a run (its plan, owner, data set name, columns), its data rows, the
cells sent and finished (answer, error, timing, usage, the exact request and raw events as its
detail), one grade per grader per cell, and blind votes; and the list of runs filtered by owner,
data set, model and date.

Functions take the connection first and run inside one transaction of `Database` (`db.call`,
`await db.run`). A cell is what the client's run record writes (`summary`: row, repeat, column,
answer, error, marks, ttft, total, tokens_per_s, usage, cached, request_key); the last one written
for a key wins, with its grades."""

from __future__ import annotations

import json
import re
import sqlite3
from dataclasses import dataclass, field
from typing import Any

import orjson

MAX_LISTED = 200
LONE_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass(frozen=True)
class NewRun:
    """A run as it starts: `plan` is the run's settings without its data rows (those are `rows`)."""

    id: str
    owner: str
    created: float
    plan: dict[str, Any]
    dataset: str
    rows: list[dict[str, str]]
    columns: list[tuple[str, str]]
    repeats: int
    total: int
    origin: str = "app"


@dataclass
class LoadedRun:
    """A run read back: its header fields, rows, cells (summaries), sent keys and votes."""

    id: str
    owner: str
    created: float
    plan: dict[str, Any]
    rows: list[dict[str, str]]
    cells: list[dict[str, Any]] = field(default_factory=list)
    sent: list[tuple[int, int, int]] = field(default_factory=list)
    votes: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class RunFilter:
    """Which runs to list: `owner` None lists every owner's (a person's own machine); the other
    fields narrow by data set name and model (parts of the text, case-folded) and creation time."""

    owner: str | None = None
    dataset: str = ""
    model: str = ""
    since: float | None = None
    until: float | None = None
    limit: int = MAX_LISTED


@dataclass(frozen=True)
class RunSummary:
    id: str
    created: float
    dataset: str
    models: list[str]
    rows: int
    repeats: int
    total: int
    done: int
    errors: int
    passed: int
    graded: int


def storable_text(value: Any) -> str:
    """Text SQLite can hold (a lone surrogate from an answer becomes U+FFFD)."""
    text = value if isinstance(value, str) else ("" if value is None else str(value))
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return LONE_SURROGATE.sub("\ufffd", text)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=True, separators=(",", ":"), default=str)


def _cell_json(value: dict[str, Any]) -> str:
    """A cell's detail (its exchange: request, raw events; ~3.4 KB a streamed answer) or usage as
    JSON, with orjson (a tenth of the standard library's time, twice per cell); what orjson refuses
    (a lone surrogate, an int past 64 bits, a key that is not a string) goes through `_json` as
    before. A non-finite number, which no gateway answer or request holds, is written as null."""
    try:
        return orjson.dumps(value, default=str).decode()
    except orjson.JSONEncodeError:
        return _json(value)


def insert_run(connection: sqlite3.Connection, run: NewRun) -> None:
    connection.execute("INSERT INTO runs (id, owner, created, plan, dataset, row_count, repeats, cell_total, origin) VALUES (?,?,?,?,?,?,?,?,?)",
                       (run.id, run.owner, run.created, _json(run.plan), storable_text(run.dataset), len(run.rows), run.repeats, run.total, run.origin))
    connection.executemany("INSERT INTO run_columns (run_id, position, format, model) VALUES (?,?,?,?)",
                           [(run.id, index, storable_text(fmt), storable_text(model)) for index, (fmt, model) in enumerate(run.columns)])
    connection.executemany("INSERT INTO run_rows (run_id, row, run_values) VALUES (?,?,?)",
                           [(run.id, index, _json(values)) for index, values in enumerate(run.rows)])


def run_exists(connection: sqlite3.Connection, run_id: str) -> bool:
    return connection.execute("SELECT 1 FROM runs WHERE id = ?", (run_id,)).fetchone() is not None


def load_run(connection: sqlite3.Connection, run_id: str) -> LoadedRun | None:
    """Everything of a run but its cells' details (None when there is no such run)."""
    head = connection.execute("SELECT owner, created, plan FROM runs WHERE id = ?", (run_id,)).fetchone()
    if head is None:
        return None
    rows = [json.loads(text) for (text,) in connection.execute("SELECT run_values FROM run_rows WHERE run_id = ? ORDER BY row", (run_id,))]
    loaded = LoadedRun(run_id, head[0], head[1], json.loads(head[2]), rows)
    marks: dict[tuple[int, int, int], list[dict[str, Any]]] = {}
    for row, repeat, col, passed, score, detail in connection.execute(
            "SELECT row, repeat, col, passed, score, detail FROM grades WHERE run_id = ? ORDER BY row, repeat, col, grader", (run_id,)):
        marks.setdefault((row, repeat, col), []).append({"passed": None if passed is None else bool(passed), "detail": detail, "score": score})
    for (row, repeat, col, answer, error, ttft, total, rate, usage, cached, key) in connection.execute(
            "SELECT row, repeat, col, answer, error, ttft, total, tokens_per_s, usage, cached, request_key FROM cells WHERE run_id = ?", (run_id,)):
        loaded.cells.append({"row": row, "repeat": repeat, "column": col, "answer": answer, "error": error, "marks": marks.get((row, repeat, col), []),
                             "ttft": ttft, "total": total, "tokens_per_s": rate, "usage": json.loads(usage), "cached": bool(cached), "request_key": key})
    loaded.sent = [tuple(item) for item in connection.execute("SELECT row, repeat, col FROM sent WHERE run_id = ?", (run_id,))]
    loaded.votes = [{"a": a, "b": b, "outcome": outcome, "row": row}
                    for a, b, outcome, row in connection.execute("SELECT a, b, outcome, row FROM votes WHERE run_id = ? ORDER BY id", (run_id,))]
    return loaded


def single_statement(work: Any) -> Any:
    """Marks a function that writes with one statement (atomic by itself): alone in its group, the
    database runs it without a transaction around it (fewer round trips on the store's thread)."""
    work.single_statement = True
    return work


_MARK_SENT = "INSERT OR IGNORE INTO sent (run_id, row, repeat, col, at) VALUES (?,?,?,?,?)"


@single_statement
def mark_sent(connection: sqlite3.Connection, run_id: str, row: int, repeat: int, col: int, at: float) -> None:
    connection.execute(_MARK_SENT, (run_id, row, repeat, col, at))


CellWrite = tuple[tuple[str, int, int, int], tuple[Any, ...], list[tuple[Any, ...]], bool]
"""A cell ready to write: (its key, the cells row's values, one row per grade, whether an earlier
outcome may be there to replace), every text made storable and every JSON field encoded once."""


def cell_write(run_id: str, summary: dict[str, Any], detail: dict[str, Any], at: float, replace: bool = True) -> CellWrite:
    """`summary` and `detail` as the values `write_cells` stores (encoded on the caller's thread, so
    the store's thread only runs statements, and a later change to the caller's objects is not written)."""
    key = (run_id, summary["row"], summary["repeat"], summary["column"])
    values = (*key, storable_text(summary.get("answer")), storable_text(summary.get("error")), summary.get("ttft"), summary.get("total"),
              summary.get("tokens_per_s"), _cell_json(summary.get("usage") or {}), int(bool(summary.get("cached"))),
              storable_text(summary.get("request_key")), _cell_json(detail), at)
    grades = [(*key, grader, None if mark.get("passed") is None else int(bool(mark["passed"])),
               mark.get("score") if isinstance(mark.get("score"), int) and not isinstance(mark.get("score"), bool) else None,
               storable_text(mark.get("detail"))) for grader, mark in enumerate(summary.get("marks") or [])]
    return key, values, grades, replace


def write_cells(connection: sqlite3.Connection, writes: list[CellWrite]) -> None:
    """Write cells and their grades, each kind with one prepared statement (`executemany`); of two
    writes of one cell the last wins. Runs in the caller's transaction."""
    if not writes:
        return
    latest: dict[tuple[str, int, int, int], CellWrite] = {}
    for key, values, grades, replace in writes:
        earlier = latest.pop(key, None)  # re-inserted: the dict keeps the order of the last writes
        latest[key] = (key, values, grades, replace or earlier is not None)
    replaced = [key for key, _, _, replace in latest.values() if replace]
    if replaced:
        connection.executemany("DELETE FROM grades WHERE run_id = ? AND row = ? AND repeat = ? AND col = ?", replaced)
    connection.executemany("INSERT OR REPLACE INTO cells (run_id, row, repeat, col, answer, error, ttft, total, tokens_per_s, usage, cached, "
                           "request_key, detail, written) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)", [values for _, values, _, _ in latest.values()])
    grades = [grade for _, _, cell_grades, _ in latest.values() for grade in cell_grades]
    if grades:
        connection.executemany("INSERT INTO grades (run_id, row, repeat, col, grader, passed, score, detail) VALUES (?,?,?,?,?,?,?,?)", grades)


SentMark = tuple[str, int, int, int, float]
"""(run id, row, repeat, column, when): a request about to go out."""


def write_cells_then_mark_sent(connection: sqlite3.Connection, writes: list[CellWrite], marks: list[SentMark]) -> None:
    """The outcomes waiting to be written and the next requests' `sent` marks, in one transaction."""
    write_cells(connection, writes)
    connection.executemany(_MARK_SENT, marks)


def save_cell(connection: sqlite3.Connection, run_id: str, summary: dict[str, Any], detail: dict[str, Any], at: float,
              replace: bool = True) -> None:
    """Write a cell and its grades; `replace` (the default) first removes an earlier outcome's grades
    (the caller passes False for a cell never written, saving a statement)."""
    write_cells(connection, [cell_write(run_id, summary, detail, at, replace)])


def cell_detail(connection: sqlite3.Connection, run_id: str, row: int, repeat: int, col: int) -> dict[str, Any]:
    found = connection.execute("SELECT detail FROM cells WHERE run_id = ? AND row = ? AND repeat = ? AND col = ?", (run_id, row, repeat, col)).fetchone()
    detail = json.loads(found[0]) if found else {}
    return detail if isinstance(detail, dict) else {}


def add_vote(connection: sqlite3.Connection, run_id: str, vote: dict[str, Any], at: float) -> None:
    connection.execute("INSERT INTO votes (run_id, a, b, outcome, row, at) VALUES (?,?,?,?,?,?)",
                       (run_id, vote["a"], vote["b"], vote["outcome"], vote["row"], at))


def _like(text: str) -> str:
    return "%" + text.casefold().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def list_runs(connection: sqlite3.Connection, chosen: RunFilter) -> list[RunSummary]:
    """The runs `chosen` selects, newest first, with their progress and pass counts."""
    where: list[str] = []
    args: list[Any] = []
    if chosen.owner is not None:
        where.append("r.owner = ?")
        args.append(chosen.owner)
    if chosen.dataset.strip():
        where.append("lower(r.dataset) LIKE ? ESCAPE '\\'")
        args.append(_like(chosen.dataset.strip()))
    if chosen.model.strip():
        where.append("EXISTS (SELECT 1 FROM run_columns m WHERE m.run_id = r.id AND lower(m.model) LIKE ? ESCAPE '\\')")
        args.append(_like(chosen.model.strip()))
    if chosen.since is not None:
        where.append("r.created >= ?")
        args.append(chosen.since)
    if chosen.until is not None:
        where.append("r.created < ?")
        args.append(chosen.until)
    query = ("SELECT r.id, r.created, r.dataset, r.row_count, r.repeats, r.cell_total, "
             "(SELECT group_concat(model, char(31)) FROM (SELECT model FROM run_columns WHERE run_id = r.id ORDER BY position)), "
             "(SELECT count(*) FROM cells c WHERE c.run_id = r.id), (SELECT count(*) FROM cells c WHERE c.run_id = r.id AND c.error != ''), "
             "(SELECT count(*) FROM grades g WHERE g.run_id = r.id AND g.passed = 1), "
             "(SELECT count(*) FROM grades g WHERE g.run_id = r.id AND g.passed IS NOT NULL) "
             "FROM runs r" + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY r.created DESC, r.id LIMIT ?")
    return [RunSummary(run_id, created, dataset, (models or "").split("\x1f") if models else [], rows, repeats, total, done, errors, passed, graded)
            for run_id, created, dataset, rows, repeats, total, models, done, errors, passed, graded
            in connection.execute(query, (*args, max(1, min(chosen.limit, MAX_LISTED))))]


def import_seen(connection: sqlite3.Connection, name: str, size: int, mtime: float) -> bool:
    """Whether this file (same name, size and time) was imported, or refused, already."""
    return connection.execute("SELECT 1 FROM imported_files WHERE name = ? AND size = ? AND mtime = ?", (name, size, mtime)).fetchone() is not None


def record_import(connection: sqlite3.Connection, name: str, size: int, mtime: float, run_id: str, problem: str, at: float) -> None:
    connection.execute("INSERT OR REPLACE INTO imported_files (name, size, mtime, run_id, problem, at) VALUES (?,?,?,?,?,?)",
                       (name, size, mtime, run_id, storable_text(problem), at))


def import_problems(connection: sqlite3.Connection) -> list[tuple[str, str]]:
    """(file name, why it was refused) for every run file not imported."""
    return list(connection.execute("SELECT name, problem FROM imported_files WHERE problem != '' ORDER BY name"))
