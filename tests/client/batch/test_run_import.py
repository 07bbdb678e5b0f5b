"""The run files of before move into the local store once, when the app starts: written here by
today's code (`RunFile` and the runner against the demo gateway, a vote, a cell sent but never
finished, a torn last line), imported, and read back from the store exactly as the file reads
(cells, marks, usage, requests and raw events, votes, owner). A second start imports nothing
again; a file that is not a run file is refused with its name and the others still come in."""

from __future__ import annotations

import json
from pathlib import Path

from playground.client.batch.dataset import Dataset
from playground.client.batch.elo import Vote
from playground.client.batch.graders import GraderSpec
from playground.client.batch.plan import Plan
from playground.client.batch.run_import import import_run_files
from playground.client.batch.runner import Runner
from playground.client.batch.store import INTERRUPTED, RunFile, runs_directory
from playground.client.batch.stored_run import StoredRun
from playground.client.gateway import GatewayClient
from playground.client.transport import Connection
from playground.store import runs as stored
from playground.store.database import FILE_NAME, Database
from playground.ui.tabs.batch.runs import BatchRuns

OWNER = "visitor:0123456789abcdef0123456789abcdef"


def _plan(rows: int = 3) -> Plan:
    return Plan("Answer: {{q}}", dataset=Dataset(["q"], [{"q": f"question {n}"} for n in range(rows)], "questions.csv"),
                columns=[("chat", "gx-2.5-flash"), ("messages", "cl-sonnet-4-5-20250929")], graders=[GraderSpec("regex", r"\w")], repeats=2)


async def _run_file(client: GatewayClient, conn: Connection, directory: Path, owner: str = OWNER) -> RunFile:
    """A run file as today's app writes it, finished, with a vote; then a cell sent whose outcome
    never came (the app was stopped) and a torn last line."""
    plan = _plan()
    run = RunFile.create(directory, plan.to_dict(), owner)
    await Runner(client, conn, plan, run).run()
    run.add_vote(Vote(0, 1, "a", 2))
    del run.cells["2.1.1"]  # as if this cell's outcome had never arrived
    run.close()
    lines = run.path.read_bytes().splitlines(keepends=True)
    kept = [line for line in lines if not (b'"type":"cell"' in line and b'"row":2,"repeat":1,"column":1' in line)]
    run.path.write_bytes(b"".join(kept) + b'{"type":"cell","cel')
    return run


async def test_a_run_file_of_today_reads_back_the_same_from_the_store(client: GatewayClient, conn: Connection, tmp_path: Path) -> None:
    written = await _run_file(client, conn, runs_directory(tmp_path))
    before = written.path.read_bytes()
    database = Database.at(tmp_path)
    report = import_run_files(database, runs_directory(tmp_path), 100)
    assert report.imported == [written.path.name] and not report.refused
    assert written.path.read_bytes() == before  # the file is left as it was

    as_file = RunFile.open(runs_directory(tmp_path), written.run_id)
    in_store = StoredRun.open(database, written.run_id)
    assert in_store.owner == OWNER and in_store.header["plan"] == as_file.header["plan"]
    assert in_store.header["created"] == as_file.header["created"]
    assert set(in_store.cells) == set(as_file.cells) and len(in_store.cells) == 12
    for key, record in as_file.cells.items():
        mine = in_store.cells[key]
        assert (mine.answer, mine.error, mine.marks, mine.usage, mine.ttft, mine.request_key) == \
            (record.answer, record.error, record.marks, record.usage, record.ttft, record.request_key)
        assert in_store.detail(key) == as_file.detail(key)
    assert in_store.cells["2.1.1"].error == INTERRUPTED  # sent, never finished: not resent by itself
    assert in_store.sent == as_file.sent and in_store.votes == as_file.votes == [Vote(0, 1, "a", 2)]
    assert in_store.detail("0.0.1")["exchange"]["url"].endswith("/v1/messages")
    (summary,) = database.call(stored.list_runs, stored.RunFilter())
    assert (summary.dataset, summary.models, summary.rows, summary.repeats, summary.total, summary.done) == \
        ("questions.csv", ["gx-2.5-flash", "cl-sonnet-4-5-20250929"], 3, 2, 12, 12)
    assert summary.graded == 11 and summary.passed == 11  # every answered cell's grade, row by row (any answer passes)


async def test_the_import_happens_once_and_a_broken_file_is_named_not_fatal(client: GatewayClient, conn: Connection, tmp_path: Path) -> None:
    directory = runs_directory(tmp_path)
    good = await _run_file(client, conn, directory, owner="")
    (directory / ("ab" * 16 + ".jsonl")).write_text("this is not json\n", encoding="utf-8")
    bad_plan = {"type": "run", "created": 1.0, "owner": "", "plan": {"kind": "gateway-playground/batch", "repeats": 99}}
    (directory / ("cd" * 16 + ".jsonl")).write_text(json.dumps(bad_plan) + "\n", encoding="utf-8")
    (directory / "notes.jsonl").write_text(json.dumps({"type": "run", "plan": {}}) + "\n", encoding="utf-8")

    runs = BatchRuns.at(tmp_path, 100)  # what the Batch tab holds once the app is built
    assert not (tmp_path / FILE_NAME).exists()  # building the page writes nothing; the first use opens the store
    refused = dict(runs.imported.refused)
    assert runs.imported.imported == [good.path.name]
    assert set(refused) == {"ab" * 16 + ".jsonl", "cd" * 16 + ".jsonl", "notes.jsonl"}
    assert "an empty run file" in refused["ab" * 16 + ".jsonl"] and "repeats" in refused["cd" * 16 + ".jsonl"]
    assert "not a run id" in refused["notes.jsonl"]
    assert runs.database.call(stored.import_problems) == sorted(refused.items())
    run, plan = runs.open(good.run_id, "")
    assert len(run.cells) == 12 and plan.repeats == 2

    again = BatchRuns.at(tmp_path, 100)  # the next start: nothing imported twice
    assert not again.imported.imported and not again.imported.refused and len(again.imported.skipped) == 4
    assert len(again.database.call(stored.list_runs, stored.RunFilter())) == 1

    fixed = directory / ("ab" * 16 + ".jsonl")  # a refused file that changes is read again
    fixed.write_bytes(good.path.read_bytes().replace(good.run_id.encode(), b"ab" * 16))
    assert import_run_files(again.database, directory, 100).imported == [fixed.name]
