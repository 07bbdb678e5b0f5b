"""Repeats and stability: pass rate, pass^k (the chance all k repeats of a row pass), the spread of
the pass rate between repeats, and the rows whose verdict flips, in the leaderboard, the grid's
filter and the exports; and a run with repeats against the demo gateway sends each repeat."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from playground.client.batch.dataset import Dataset
from playground.client.batch.exports import cell_dicts, write_exports
from playground.client.batch.graders import GraderSpec
from playground.client.batch.plan import Plan
from playground.client.batch.report import grid_keys, leaderboard, leaderboard_rows
from playground.client.batch.runner import Runner
from playground.client.batch.stability import column_stability, pass_hat_k, verdict
from playground.client.batch.store import CellRecord, RunFile
from playground.client.gateway import GatewayClient
from playground.client.transport import Connection

PASS, FAIL = {"passed": True, "detail": "", "score": None}, {"passed": False, "detail": "", "score": None}


def test_pass_hat_k_is_the_chance_that_k_runs_all_pass() -> None:
    assert pass_hat_k(4, 3, 2) == pytest.approx(0.5)  # C(3,2)/C(4,2) = 3/6
    assert pass_hat_k(3, 3, 3) == 1.0 and pass_hat_k(3, 2, 3) == 0.0  # k = n: every repeat passed, or not
    assert pass_hat_k(5, 5, 1) == 1.0 and pass_hat_k(5, 2, 1) == pytest.approx(0.4)  # k = 1: the pass rate
    assert pass_hat_k(10, 7, 3) == pytest.approx(35 / 120)
    assert pass_hat_k(2, 2, 3) is None and pass_hat_k(3, 4, 2) is None  # fewer runs than k; impossible counts


def test_a_verdict_needs_every_judged_mark_to_pass() -> None:
    assert verdict(CellRecord(0, 0, 0, marks=[PASS, {"passed": None}])) is True
    assert verdict(CellRecord(0, 0, 0, marks=[PASS, FAIL])) is False
    assert verdict(CellRecord(0, 0, 0, error="404", marks=[PASS])) is None and verdict(CellRecord(0, 0, 0)) is None


@pytest.fixture
def run(tmp_path: Path) -> tuple[Plan, RunFile]:
    """Three rows x three repeats x two columns. Column 1: row 1 passes every time, row 2 flips
    (pass, fail, pass), row 3 always fails. Column 2: row 1 passes twice and errors once, row 2
    passes, row 3 fails, then passes, then fails."""
    plan = Plan("Q: {{q}}", dataset=Dataset(["q"], [{"q": "a"}, {"q": "b"}, {"q": "c"}]), columns=[("chat", "m1"), ("chat", "m2")],
                repeats=3, graders=[GraderSpec("contains", "x")])
    record = RunFile.create(tmp_path, plan.to_dict())
    outcomes = {0: [[PASS] * 3, [PASS, FAIL, PASS], [FAIL] * 3], 1: [[PASS, None, PASS], [PASS] * 3, [FAIL, PASS, FAIL]]}
    for column, rows in outcomes.items():
        for row, marks in enumerate(rows):
            for repeat, mark in enumerate(marks):
                cell = CellRecord(row, repeat, column, answer=f"answer {row}", marks=[mark] if mark else [], error="" if mark else "500")
                record.add_cell(cell, {})
    return plan, record


def test_pass_rate_pass_k_spread_and_flips_per_column(run: tuple[Plan, RunFile]) -> None:
    plan, record = run
    first, second = column_stability(plan, record, 0), column_stability(plan, record, 1)
    assert first.pass_rate == pytest.approx(5 / 9) and first.pass_k == pytest.approx(1 / 3)  # only row 1 passes all three
    assert first.spread == pytest.approx(2 / 3 - 1 / 3) and first.flips == [1]  # repeat 2 passed 1 of 3, the others 2 of 3
    # row 1 has two verdicts (one error): too few for pass^3, so pass^3 is over rows 2 and 3
    assert second.pass_rate == pytest.approx(6 / 8) and second.pass_k == pytest.approx(1 / 2) and second.flips == [2]
    assert second.spread == pytest.approx(1.0 - 2 / 3)  # repeat 2: 2 of 2; repeats 1 and 3: 2 of 3

    headers, rows = leaderboard_rows(plan, leaderboard(plan, record, {}))
    assert headers[3:7] == ["pass: contains 'x'", "pass rate", "pass^3", "pass rate spread"]
    assert [row[4:7] for row in rows] == [["56%", "33%", "33%"], ["★ 75%", "★ 50%", "33%"]]
    assert [row[5] for row in rows] != [row[4] for row in rows]  # pass^k below the pass rate where rows flip


def test_the_grid_shows_only_flipping_rows_and_the_exports_say_which_cells_flip(run: tuple[Plan, RunFile], tmp_path: Path) -> None:
    plan, record = run
    assert grid_keys(plan, record, "only rows that flip") == [(1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2)]
    flagged = {(c["row"], c["column"]) for c in cell_dicts(plan, record, {}) if c["verdict_flips"]}
    assert flagged == {(2, 1), (3, 2)}  # 1-based, as the exports number rows and columns
    paths = write_exports(tmp_path / "out", plan, record, {})
    with paths["csv"].open(encoding="utf-8") as handle:
        cells = list(csv.DictReader(handle))
    assert len(cells) == 18 and {c["repeat"] for c in cells} == {"1", "2", "3"}
    assert [c["verdict_flips"] for c in cells if c["row"] == "2" and c["column"] == "1"] == ["True"] * 3
    lines = [json.loads(line) for line in paths["jsonl"].read_text(encoding="utf-8").splitlines()]
    assert sum(line["verdict_flips"] for line in lines) == 6
    assert "pass^3" in paths["md"].read_text(encoding="utf-8")


async def test_each_repeat_is_its_own_request(client: GatewayClient, conn: Connection, tmp_path: Path) -> None:
    questions = [{"q": "What is 2 plus 2?"}, {"q": "Describe a cat."}, {"q": "What has keys but can't open locks?"}]
    plan = Plan("{{q}}", dataset=Dataset(["q"], questions), columns=[("chat", "gx-2.5-flash"), ("messages", "cl-sonnet-4-5-20250929")],
                repeats=3, graders=[GraderSpec("regex", r"\b4\b")], concurrency=4)  # only the sum's answer holds a 4
    record = RunFile.create(tmp_path, plan.to_dict())
    progress = await Runner(client, conn, plan, record).run()
    assert (progress.done, progress.errors) == (18, 0)
    assert len({cell.request_key for cell in record.cells.values()}) == 6 and len(record.sent) == 18  # each repeat sent
    for column in range(2):
        steady = column_stability(plan, record, column)
        assert steady.pass_rate == pytest.approx(1 / 3) and steady.pass_k == pytest.approx(1 / 3)  # the demo answers the same each time
        assert steady.flips == [] and steady.spread == 0.0
