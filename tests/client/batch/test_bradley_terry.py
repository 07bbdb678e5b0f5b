"""Arena numbers (issue 38): Bradley-Terry ratings with 95% Fisher-information intervals beside
Elo, against reference values known in closed form; ties counted half in Elo, win rates and
Bradley-Terry; a vote on answers that name a model is not blind."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from playground.client.batch.blind import model_names, named_model
from playground.client.batch.bradley_terry import fit
from playground.client.batch.dataset import Dataset
from playground.client.batch.elo import Vote, ratings, win_rates
from playground.client.batch.plan import Plan
from playground.client.batch.report import leaderboard, leaderboard_rows
from playground.client.batch.store import CellRecord, RunFile

SCALE = 400 / math.log(10)


def votes(a: int, b: int, wins: int, losses: int, ties: int = 0) -> list[Vote]:
    return [Vote(a, b, "a")] * wins + [Vote(a, b, "b")] * losses + [Vote(a, b, "tie")] * ties


def test_two_columns_3_to_1_match_the_closed_form() -> None:
    # the fit: p_A / p_B = 3; information 4 x 3/4 x 1/4 = 0.75 on theta_A - theta_B, so var(theta_A) = 1 / (4 x 0.75) = 1/3
    first, second = fit(votes(0, 1, 3, 1), 2).ratings
    assert first is not None and second is not None
    assert first.value == pytest.approx(1000 + 200 * math.log10(3)) and first.value == pytest.approx(1095.424251)
    assert second.value == pytest.approx(904.575749)
    half = 1.959964 * SCALE * math.sqrt(1 / 3)
    assert half == pytest.approx(196.576, abs=1e-3)
    assert (first.low, first.high) == (pytest.approx(first.value - half), pytest.approx(first.value + half))


def test_three_columns_with_strengths_4_2_1() -> None:
    # wins in exact proportion to strengths 4 : 2 : 1 (4-2, 2-1, 4-1): the fit is those strengths, 120.41 Elo apart
    data = votes(0, 1, 4, 2) + votes(1, 2, 2, 1) + votes(0, 2, 4, 1)
    rated = fit(data, 3).ratings
    assert [r.value for r in rated if r] == [pytest.approx(1120.411998), pytest.approx(1000.0), pytest.approx(879.588002)]
    # Fisher information at p = (4, 2, 1): each pair's n x pi x (1 - pi); its pseudo-inverse gives the variances
    pairs = {(0, 1): 6 * (4 / 6) * (2 / 6), (1, 2): 3 * (2 / 3) * (1 / 3), (0, 2): 5 * (4 / 5) * (1 / 5)}
    laplacian = [[0.0] * 3 for _ in range(3)]
    for (i, j), weight in pairs.items():
        laplacian[i][i] += weight
        laplacian[j][j] += weight
        laplacian[i][j] -= weight
        laplacian[j][i] -= weight
    variance = np.linalg.pinv(np.array(laplacian)).diagonal()
    for rating, var in zip(rated, variance):
        assert rating is not None and rating.high - rating.value == pytest.approx(1.959964 * SCALE * math.sqrt(var), rel=1e-6)


def test_ties_count_half_everywhere() -> None:
    tied = votes(0, 1, 1, 1, ties=2)
    assert [r.value for r in fit(tied, 2).ratings if r] == [pytest.approx(1000.0), pytest.approx(1000.0)]
    same = fit(votes(0, 1, 3, 1), 2).ratings[0]
    half = fit(votes(0, 1, 2, 0, ties=2), 2).ratings[0]  # 2 wins + 2 ties = 3 wins and 1 loss
    assert same is not None and half is not None and half.value == pytest.approx(same.value)
    assert win_rates(votes(0, 1, 1, 0, ties=1), 2) == [0.75, 0.25]
    assert ratings([Vote(0, 1, "tie")], 2) == [1000.0, 1000.0] and ratings([Vote(0, 1, "tie")], 2) != ratings([Vote(0, 1, "a")], 2)


def test_the_fit_waits_for_votes_that_connect_the_columns() -> None:
    assert fit([], 2).reason == "no-votes" and fit([], 2).ratings == [None, None]
    unbeaten = fit(votes(0, 1, 3, 0), 2)
    assert unbeaten.reason == "not-connected" and unbeaten.ratings == [None, None]
    one_tie = fit(votes(0, 1, 3, 0, ties=1), 3)  # a tie connects both ways; column 3 was never shown
    assert one_tie.reason == "" and one_tie.ratings[2] is None and one_tie.ratings[0] is not None


def test_the_leaderboard_shows_bradley_terry_and_its_interval_beside_elo(tmp_path: Path) -> None:
    plan = Plan("{{q}}", dataset=Dataset(["q"], [{"q": "a"}]), columns=[("chat", "m1"), ("chat", "m2")])
    run = RunFile.create(tmp_path, plan.to_dict())
    run.add_cell(CellRecord(0, 0, 0, answer="x"), {})
    for vote in votes(0, 1, 3, 1):
        run.add_vote(vote)
    headers, rows = leaderboard_rows(plan, leaderboard(plan, run, {}))
    assert headers[-4:] == ["Elo", "win rate", "Bradley-Terry", "BT 95% CI"]
    assert rows[0][-2:] == ["★ 1,095", "899 – 1,292"] and rows[1][-2:] == ["905", "708 – 1,101"]


def test_an_answer_that_names_a_model_is_not_blind() -> None:
    models = ["cl-sonnet-4-5-20250929", "gx-2.5-pro-thinking-4096"]
    assert model_names(models[0]) == {"cl-sonnet-4-5-20250929", "cl-sonnet-4-5"}
    assert model_names(models[1]) == {"gx-2.5-pro-thinking-4096", "gx-2.5-pro"}
    reason = named_model({"A": "Sure.", "B": "As CL-Sonnet-4-5, I think so."}, models)
    assert reason is not None and reason.id == "blind.answer_names_model" and reason == (
        "answer B names the model cl-sonnet-4-5, so the comparison is not blind")
    assert named_model({"A": "I am gx-2.5-pro.", "B": ""}, models) == "answer A names the model gx-2.5-pro, so the comparison is not blind"
    assert named_model({"A": "gx-2.55-pro and xcl-sonnet-4-5 are other words", "B": "Sonnets have 14 lines."}, models) is None
