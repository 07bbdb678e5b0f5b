"""The run file: one JSON line per fact, appended as it happens, under the app's data directory,
so a reload of the page or a restart of the app loses nothing.

Lines: `run` (the plan and its owner, first), `sent` (a cell's request is about to go out), `cell` (its
outcome: answer, marks, timing, usage, the request and raw events), `vote` (a blind A/B choice).
A cell whose request was sent but whose outcome never arrived (the app stopped mid-call) is
recorded as interrupted and is not resent by itself: it may have been paid for.
The last `cell` line of a key wins (a rerun of an error writes a new one).

The owner is a plain string the caller chooses (the UI writes the visitor who started the run;
"" when everyone is one owner, as on a person's own machine); `owner` reads it back, and a file
written before owners were recorded has the owner "".
"""

from __future__ import annotations

from playground.client.texts import Text

import json
import os
import re
import secrets
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

from playground.client.batch.elo import Vote

RUN_ID = re.compile(r"^[0-9a-f]{32}$")
INTERRUPTED = Text("batch.store.interrupted_request_sent_before_app")


@dataclass
class CellRecord:
    """What the grid, the leaderboard and the exports need of one cell (the exchange stays on disk)."""

    row: int
    repeat: int
    column: int
    answer: str = ""
    error: str = ""
    marks: list[dict[str, Any]] = field(default_factory=list)
    """One per grader: {passed, detail, score}."""
    ttft: float | None = None
    total: float | None = None
    tokens_per_s: float | None = None
    usage: dict[str, int | None] = field(default_factory=dict)
    cached: bool = False
    """Answered from the run's cache (no request sent)."""
    request_key: str = ""
    offset: int = -1

    @property
    def key(self) -> str:
        return cell_key(self.row, self.repeat, self.column)


def cell_key(row: int, repeat: int, column: int) -> str:
    return f"{row}.{repeat}.{column}"


SUMMARY_FIELDS = tuple(name for name in CellRecord.__dataclass_fields__ if name != "offset")


class RunRecord(Protocol):
    """What the runner, the views and the exports read and write of a run: a `RunFile`, or a run
    in the local store (`stored_run.StoredRun`)."""

    header: dict[str, Any]
    cells: dict[str, CellRecord]
    sent: set[str]
    votes: list[Vote]

    @property
    def run_id(self) -> str: ...

    @property
    def owner(self) -> str: ...

    def settle_interrupted(self) -> None: ...

    def mark_sent(self, key: str) -> None: ...

    async def record_sent(self, key: str) -> None: ...

    def add_cell(self, record: CellRecord, detail: dict[str, Any]) -> None: ...

    async def record_cell(self, record: CellRecord, detail: dict[str, Any]) -> None: ...

    async def settled(self) -> None: ...

    def add_vote(self, vote: Vote) -> None: ...

    def detail(self, key: str) -> dict[str, Any]: ...

    def close(self) -> None: ...


class RunFile:
    """One run's file: appends facts and keeps the light summary of every cell in memory."""

    def __init__(self, path: Path, header: dict[str, Any]) -> None:
        self.path = path
        self.header = header
        self.cells: dict[str, CellRecord] = {}
        self.sent: set[str] = set()
        self.votes: list[Vote] = []
        self._handle: Any = None

    @property
    def run_id(self) -> str:
        return self.path.stem

    @property
    def owner(self) -> str:
        """Who started the run, as the caller wrote it ("" for a file that names nobody)."""
        owner = self.header.get("owner")
        return owner if isinstance(owner, str) else ""

    @classmethod
    def create(cls, directory: Path, plan: dict[str, Any], owner: str = "") -> RunFile:
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / f"{secrets.token_hex(16)}.jsonl"
        run = cls(path, {"type": "run", "created": time.time(), "owner": owner, "plan": plan})
        run._append(run.header)
        return run

    @classmethod
    def open(cls, directory: Path, run_id: str) -> RunFile:
        """Read a run back (raises `FileNotFoundError`/`ValueError`); a torn last line is ignored,
        and cells sent but never finished are written down as interrupted."""
        if not RUN_ID.match(run_id or ""):
            raise ValueError(Text("batch.store.not_run_id"))
        path = directory / f"{run_id}.jsonl"
        run, torn = cls.read(path)
        if torn:
            with path.open("ab") as handle:  # a torn last line: start the next fact on a line of its own
                handle.write(b"\n")
        run.settle_interrupted()
        return run

    @classmethod
    def read(cls, path: Path) -> tuple[RunFile, bool]:
        """A run file as it is, writing nothing: (the run, whether its last line is torn)
        (raises `FileNotFoundError`/`ValueError`)."""
        run: RunFile | None = None
        offset, raw = 0, b""
        with path.open("rb") as handle:
            for raw in handle:
                start, offset = offset, offset + len(raw)
                try:
                    item = json.loads(raw)
                except ValueError:
                    continue
                if not isinstance(item, dict):
                    continue
                if run is None:
                    if item.get("type") != "run" or not isinstance(item.get("plan"), dict):
                        raise ValueError(Text("batch.store.not_run_file"))
                    run = cls(path, item)
                    continue
                run._load(item, start)
        if run is None:
            raise ValueError(Text("batch.store.empty_run_file"))
        return run, bool(raw) and not raw.endswith(b"\n")

    def settle_interrupted(self) -> None:
        """Cells sent but never finished become errors (not resent by themselves)."""
        for key in sorted(self.sent - set(self.cells)):
            row, repeat, column = (int(part) for part in key.split("."))
            self.add_cell(CellRecord(row, repeat, column, error=INTERRUPTED), {})

    def _load(self, item: dict[str, Any], offset: int) -> None:
        kind = item.get("type")
        if kind == "sent" and isinstance(item.get("key"), str):
            self.sent.add(item["key"])
        elif kind == "cell" and isinstance(item.get("cell"), dict):
            data = item["cell"]
            try:
                record = CellRecord(**{name: data[name] for name in SUMMARY_FIELDS if name in data}, offset=offset)
            except TypeError:
                return
            self.cells[record.key] = record
        elif kind == "vote":
            try:
                self.votes.append(Vote(int(item["a"]), int(item["b"]), str(item["outcome"]), int(item.get("row", 0))))
            except (KeyError, TypeError, ValueError):
                return

    def _append(self, item: dict[str, Any]) -> int:
        # encoded before the file is opened: a fact that cannot be written (a lone surrogate) leaves no empty run file
        line = json.dumps(item, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"
        if self._handle is None:
            self._handle = self.path.open("ab")
        offset = self._handle.tell()
        self._handle.write(line)
        self._handle.flush()
        return offset

    def mark_sent(self, key: str) -> None:
        self.sent.add(key)
        self._append({"type": "sent", "key": key})

    def add_cell(self, record: CellRecord, detail: dict[str, Any]) -> None:
        """Keep `record` and write it with `detail` (request, exchange, grader exchanges)."""
        summary = {name: value for name, value in asdict(record).items() if name != "offset"}
        record.offset = self._append({"type": "cell", "cell": summary, "detail": detail})
        self.cells[record.key] = record

    async def record_sent(self, key: str) -> None:
        """`mark_sent` for the runner (a run record in the store awaits its commit here)."""
        self.mark_sent(key)

    async def record_cell(self, record: CellRecord, detail: dict[str, Any]) -> None:
        """`add_cell` for the runner."""
        self.add_cell(record, detail)

    async def settled(self) -> None:
        """Every fact is written when appended: nothing to wait for."""

    def add_vote(self, vote: Vote) -> None:
        self.votes.append(vote)
        self._append({"type": "vote", "a": vote.a, "b": vote.b, "outcome": vote.outcome, "row": vote.row})

    def detail(self, key: str) -> dict[str, Any]:
        """A cell's full line from disk (request, raw events, grader exchanges)."""
        record = self.cells.get(key)
        if record is None or record.offset < 0:
            return {}
        with self.path.open("rb") as handle:
            handle.seek(record.offset)
            try:
                item = json.loads(handle.readline())
            except ValueError:
                return {}
        return item.get("detail") or {} if isinstance(item, dict) else {}

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None


def runs_directory(data_dir: str | os.PathLike[str]) -> Path:
    return Path(data_dir) / "batch-runs"
