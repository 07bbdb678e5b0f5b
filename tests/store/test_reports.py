"""Report documents in the store: kept whole and read back after the app restarts (the database
closed and opened again), listed newest first per owner and gateway, never opened or listed for
another visitor; a version 1 database (Batch runs only) gains the table and keeps its runs."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from playground.client.report import clients, document, history
from playground.client.report.model import FAIL, PASS, CheckResult, Report, Scope, Timing
from playground.store import runs as stored
from playground.store.database import FILE_NAME, Database
from playground.store.migrations import MIGRATIONS, VERSION, version_of

ALICE, BOB = "visitor:alice", "visitor:bob"


def _report(created: float, stream: str, gateway: str = "http://gw.example") -> Report:
    report = Report(gateway, Scope({"chat": ["gpt-4o-mini"]}, ("plain", "stream")), created, wall_s=1.5)
    report.results = [clients.judge(CheckResult("chat", "gpt-4o-mini", "plain", PASS, "fine", timings=[Timing(0.2, 50.0)])),
                      clients.judge(CheckResult("chat", "gpt-4o-mini", "stream", stream, "no [DONE]" if stream == FAIL else "fine",
                                                tag="no-done" if stream == FAIL else ""))]
    report.finished = True
    return report


def test_a_kept_report_survives_a_restart_whole(tmp_path: Path) -> None:
    database = Database.at(tmp_path)
    kept = history.keep_now(database, _report(1000.0, FAIL), ALICE)
    database.close()
    reopened = Database.at(tmp_path)
    assert reopened is not database
    [listing] = history.listed(reopened, ALICE)
    assert (listing.id, listing.gateway, listing.passed, listing.failed, listing.compatible_failed, listing.cells, listing.origin) == \
           (kept, "http://gw.example", 1, 1, 0, 2, "cli")
    loaded = history.open_kept(reopened, kept, ALICE)
    assert loaded is not None
    assert [(r.key, r.status, r.verdict("compatible"), r.tag) for r in loaded.results] == \
           [(r.key, r.status, r.verdict("compatible"), r.tag) for r in _report(1000.0, FAIL).results]
    assert listing.summary == document.summary_line(loaded)
    reopened.close()


def test_each_visitor_lists_and_opens_only_their_own_reports(tmp_path: Path) -> None:
    database = Database.at(tmp_path)
    alices = history.keep_now(database, _report(1000.0, PASS), ALICE)
    bobs = history.keep_now(database, _report(2000.0, FAIL), BOB)
    assert [r.id for r in history.listed(database, ALICE)] == [alices]
    assert history.open_kept(database, bobs, ALICE) is None and history.open_kept(database, alices, BOB) is None
    assert history.listed(database, None) == [] and history.open_kept(database, alices, None) is None, "hosted, a request naming nobody sees nothing"
    assert [r.id for r in history.listed(database, history.EVERYONE)] == [bobs, alices], "locally one person sees every report, newest first"
    database.close()


def test_the_last_kept_report_of_a_gateway_and_the_diff_between_two(tmp_path: Path) -> None:
    database = Database.at(tmp_path)
    history.keep_now(database, _report(1000.0, PASS), "")
    history.keep_now(database, _report(3000.0, PASS, gateway="http://other.example"), "")
    history.keep_now(database, _report(2000.0, FAIL), "")
    before = history.last_kept(database, "", "http://gw.example")
    assert before is not None and before.created == 2000.0
    older = history.open_kept(database, history.listed(database, "", "http://gw.example")[1].id, "")
    assert older is not None
    changes = document.diff(older, before)
    assert [r.key for r in changes.newly_failing] == [("chat", "gpt-4o-mini", "stream")] and changes.newly_passing == []
    assert history.last_kept(database, "", "http://never.example") is None
    database.close()


def test_a_version_1_database_gains_the_reports_table_and_keeps_its_runs(tmp_path: Path) -> None:
    with closing(sqlite3.connect(tmp_path / FILE_NAME)) as older:
        for statement in MIGRATIONS[0]:
            older.execute(statement)
        older.execute("PRAGMA user_version = 1")
        older.commit()
    with closing(sqlite3.connect(tmp_path / FILE_NAME)) as older:
        stored.insert_run(older, stored.NewRun("run-1", "", 1.0, {"kind": "k"}, "data.csv", [{"q": "one"}], [("chat", "m")], 1, 1))
        older.commit()
    database = Database.at(tmp_path)
    assert database.call(version_of) == VERSION >= 2
    assert database.call(stored.run_exists, "run-1")
    assert history.listed(database, "") == []
    history.keep_now(database, _report(1.0, PASS), "")
    assert len(history.listed(database, "")) == 1
    database.close()
