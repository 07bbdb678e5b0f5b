"""What changed between two runs (issue 38): per column and per row, better and worse, rows matched
by their values and columns by what they send, answers that changed where there are no graders,
and a suite's trend over its runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from playground.client.batch.changes import BETTER, CHANGED, NEW, WORSE, RunView, column_key, diff, suite_key, trend
from playground.client.batch.cost import Price
from playground.client.batch.dataset import Dataset
from playground.client.batch.graders import GraderSpec
from playground.client.batch.plan import Plan
from playground.client.batch.report import leaderboard
from playground.client.batch.store import CellRecord, RunFile

ROWS = [{"q": "one"}, {"q": "two"}, {"q": "three"}]
PRICES = {"m1": Price(1.0, 2.0), "m2": Price(1.0, 2.0)}


def _view(tmp_path: Path, created: float, rows: list[dict[str, str]], columns: list[tuple[str, str]], passes: dict[tuple[int, int], bool | None],
          graders: bool = True, answers: dict[tuple[int, int], str] | None = None) -> RunView:
    plan = Plan("{{q}}", dataset=Dataset(["q"], rows), columns=columns, graders=[GraderSpec("contains", "x")] if graders else [])
    run = RunFile.create(tmp_path, plan.to_dict())
    for (row, column), passed in passes.items():
        answer = (answers or {}).get((row, column), "x" if passed else "y")
        record = CellRecord(row, 0, column, answer=answer, error="" if passed is not None else "boom",
                            marks=[{"passed": passed, "detail": ""}] if graders and passed is not None else [],
                            ttft=0.1 * (row + 1), usage={"input": 10, "output": 10})
        run.add_cell(record, {})
    run.header["created"] = created
    return RunView.of(run, plan)


def test_better_and_worse_per_row_and_per_column(tmp_path: Path) -> None:
    columns = [("chat", "m1"), ("chat", "m2")]
    before = _view(tmp_path, 1.0, ROWS, columns, {(0, 0): True, (1, 0): False, (2, 0): None, (0, 1): True, (1, 1): True, (2, 1): True})
    after = _view(tmp_path, 2.0, ROWS, columns, {(0, 0): True, (1, 0): True, (2, 0): True, (0, 1): False, (1, 1): True, (2, 1): True})
    result = diff(before, after, PRICES)
    assert result.same_suite and result.rows_matched == 3 and result.rows_new == result.rows_gone == 0
    assert [(c.row, c.column, c.status, c.before, c.after) for c in result.cells] == [
        (0, "chat completions · m2", WORSE, 1.0, 0.0), (1, "chat completions · m1", BETTER, 0.0, 1.0),
        (2, "chat completions · m1", BETTER, 0.0, 1.0)]  # the error counted as a failure before
    first, second = result.columns
    assert first.before is not None and first.after is not None and first.before.pass_rate == 0.5  # as the leaderboard: the error among the errors
    assert first.after.pass_rate == 1.0 and (first.better, first.worse) == (2, 0) and (second.better, second.worse) == (0, 1)
    assert first.before.errors == 1 and first.after.ttft_p50 == pytest.approx(0.2) and first.after.cost == pytest.approx(90 / 1e6)


def test_rows_and_columns_are_matched_by_what_they_are(tmp_path: Path) -> None:
    before = _view(tmp_path, 1.0, ROWS, [("chat", "m1"), ("chat", "m2")], {(0, 0): False, (1, 0): True, (0, 1): True})
    shuffled = [ROWS[1], ROWS[0], {"q": "four"}]
    after = _view(tmp_path, 2.0, shuffled, [("chat", "m2"), ("chat", "m1")], {(0, 1): True, (1, 1): True, (1, 0): True, (2, 1): True})
    result = diff(before, after, PRICES)
    assert not result.same_suite and (result.rows_matched, result.rows_new, result.rows_gone) == (2, 1, 1)
    # "one" moved to row 2 and m1 to column 2: it is still m1's answer to "one", now passing; "four" is new
    assert [(c.row, c.column, c.status) for c in result.cells] == [(1, "chat completions · m1", BETTER), (2, "chat completions · m1", NEW)]


def test_without_graders_an_answer_that_changed_is_said(tmp_path: Path) -> None:
    columns = [("chat", "m1")]
    before = _view(tmp_path, 1.0, ROWS[:2], columns, {(0, 0): True, (1, 0): True}, graders=False, answers={(0, 0): "Paris", (1, 0): "Rome"})
    after = _view(tmp_path, 2.0, ROWS[:2], columns, {(0, 0): True, (1, 0): True}, graders=False, answers={(0, 0): "Paris ", (1, 0): "Milan"})
    assert [(c.row, c.status) for c in diff(before, after, PRICES).cells] == [(1, CHANGED)]


def test_the_trend_of_a_suite_over_its_runs(tmp_path: Path) -> None:
    columns = [("chat", "m1")]
    first = _view(tmp_path, 1.0, ROWS, columns, {(0, 0): False, (1, 0): False, (2, 0): True})
    third = _view(tmp_path, 3.0, ROWS, columns, {(0, 0): True, (1, 0): True, (2, 0): True})
    second = _view(tmp_path, 2.0, ROWS, columns, {(0, 0): True, (1, 0): False, (2, 0): True})
    other = _view(tmp_path, 1.5, ROWS[:1], columns, {(0, 0): True})
    points = trend([third, other, first], second, PRICES)
    assert [p.run_id for p in points] == [first.run_id, second.run_id, third.run_id]
    assert [p.pass_rates["chat completions · m1"] for p in points] == [pytest.approx(1 / 3), pytest.approx(2 / 3), 1.0]
    assert suite_key(first.plan) == suite_key(third.plan) != suite_key(other.plan)
    assert column_key(first.plan, 0) == "chat completions · m1"


def test_a_column_that_only_errored_has_no_pass_rate_here_as_on_the_leaderboard(tmp_path: Path) -> None:
    errored = _view(tmp_path, 1.0, ROWS, [("chat", "m1")], {(0, 0): None, (1, 0): None, (2, 0): None})
    (column,) = diff(errored, errored, PRICES).columns
    assert column.after is not None and (column.after.pass_rate, column.after.errors) == (None, 3)
    assert trend([], errored, PRICES)[0].pass_rates == {"chat completions · m1": None}
    (stats,) = leaderboard(errored.plan, errored.run, PRICES)
    assert (stats.pass_rates, stats.errors) == ([None], 3)
