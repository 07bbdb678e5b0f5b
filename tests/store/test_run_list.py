"""The run list: filtered by data set, model and date, newest first, with progress and passes;
with an owner given (hosted mode), only that owner's runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from playground.store import runs as stored
from playground.store.database import Database

DAY = 86_400.0
START = 1_767_225_600.0  # 2026-01-01 00:00 UTC
ALICE, BOB = "visitor:" + "a" * 32, "visitor:" + "b" * 32


@pytest.fixture
def database(tmp_path: Path) -> Database:
    database = Database.at(tmp_path)
    runs = [("1" * 32, ALICE, 0, "capitals.csv", ["gx-2.5-flash", "gpt-4.1"]),
            ("2" * 32, ALICE, 1, "Maths_100%.jsonl", ["cl-sonnet-4-5-20250929"]),
            ("3" * 32, BOB, 2, "capitals.csv", ["gpt-4.1"]),
            ("4" * 32, "", 3, "pasted rows", ["gx-2.5-flash"])]
    for run_id, owner, day, dataset, models in runs:
        database.call(stored.insert_run, stored.NewRun(run_id, owner, START + day * DAY, {}, dataset, [{"q": "x"}, {"q": "y"}],
                                                       [("chat", model) for model in models], 1, 2 * len(models)))
    summary = {"row": 0, "repeat": 0, "column": 0, "answer": "Paris", "error": "", "marks": [{"passed": True}, {"passed": False}]}
    database.call(stored.save_cell, "1" * 32, summary, {}, START)
    database.call(stored.save_cell, "1" * 32, {**summary, "row": 1, "answer": "", "error": "404", "marks": [{"passed": None}]}, {}, START)
    return database


def _ids(database: Database, **chosen: object) -> list[str]:
    return [summary.id[0] for summary in database.call(stored.list_runs, stored.RunFilter(**chosen))]  # type: ignore[arg-type]


def test_every_run_newest_first_with_its_progress(database: Database) -> None:
    assert _ids(database) == ["4", "3", "2", "1"]
    first = database.call(stored.list_runs, stored.RunFilter(dataset="capitals", owner=ALICE))[0]
    assert (first.models, first.rows, first.total, first.done, first.errors, first.passed, first.graded) == \
        (["gx-2.5-flash", "gpt-4.1"], 2, 4, 2, 1, 1, 2)


def test_filters_by_data_set_model_and_date(database: Database) -> None:
    assert _ids(database, dataset="CAPITALS") == ["3", "1"]
    assert _ids(database, dataset="100%") == ["2"] and _ids(database, dataset="_") == ["2"]  # LIKE's wildcards are literal text
    assert _ids(database, model="gpt-4.1") == ["3", "1"] and _ids(database, model="sonnet") == ["2"]
    assert _ids(database, since=START + DAY, until=START + 3 * DAY) == ["3", "2"]
    assert _ids(database, dataset="capitals", model="gx") == ["1"]
    assert _ids(database, model="no such model") == []


def test_an_owner_sees_only_their_runs(database: Database) -> None:
    assert _ids(database, owner=ALICE) == ["2", "1"]
    assert _ids(database, owner=BOB) == ["3"]
    assert _ids(database, owner=BOB, dataset="maths") == []  # a filter never widens what an owner sees
    assert _ids(database, owner="") == ["4"]
