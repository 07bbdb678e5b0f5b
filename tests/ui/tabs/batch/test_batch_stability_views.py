"""The Batch tab with repeats: the grid marks the cells of a row whose verdict flips, the filter
shows those rows, and the leaderboard's pass rate, pass^k and spread read in both languages."""

from __future__ import annotations

from pathlib import Path

from playground.client.batch.dataset import Dataset
from playground.client.batch.graders import GraderSpec
from playground.client.batch.plan import Plan
from playground.client.batch.report import FILTERS
from playground.client.batch.store import CellRecord, RunFile
from playground.ui.i18n import CHOICE_KEYS, choices, say
from playground.ui.tabs.batch.handlers import leaderboard_text
from playground.ui.tabs.batch.views import FLIPS, grid
from tests.ui.i18n.test_i18n_views import chinese

PASS, FAIL = {"passed": True, "detail": "", "score": None}, {"passed": False, "detail": "", "score": None}


def _run(tmp_path: Path) -> tuple[Plan, RunFile]:
    plan = Plan("Q: {{q}}", dataset=Dataset(["q"], [{"q": "steady"}, {"q": "flaky"}]), columns=[("chat", "m1")], repeats=2,
                graders=[GraderSpec("contains", "x")])
    run = RunFile.create(tmp_path, plan.to_dict())
    for row, marks in enumerate([[PASS, PASS], [PASS, FAIL]]):
        for repeat, mark in enumerate(marks):
            run.add_cell(CellRecord(row, repeat, 0, answer=f"answer {row}.{repeat}", marks=[mark]), {})
    return plan, run


def test_flipping_cells_are_marked_and_can_be_shown_alone(tmp_path: Path) -> None:
    plan, run = _run(tmp_path)
    value, note = grid(plan, run, {})
    answers = [line[3] for line in value["data"]]
    assert [a.startswith(FLIPS) for a in answers] == [False, False, True, True] and "⇄" in note
    only, _ = grid(plan, run, {}, "only rows that flip")
    assert [line[:2] for line in only["data"]] == [[2, 1], [2, 2]]


def test_the_stability_words_in_both_languages(tmp_path: Path) -> None:
    plan, run = _run(tmp_path)
    english = leaderboard_text(plan, run, {})
    assert "| pass rate | pass^2 | pass rate spread |" in english and "| 75% | 50% | 50% |" in english
    assert "only rows that flip" in CHOICE_KEYS and FILTERS[-1] == "only rows that flip"
    with chinese():
        chinese_board = leaderboard_text(plan, run, {})
        assert say("bview.head.pass rate") in chinese_board and say("bview.head.pass_k", k=2) in chinese_board
        assert "pass rate spread" not in chinese_board and "只看重复结果翻转的行" in str(choices(FILTERS, say))
