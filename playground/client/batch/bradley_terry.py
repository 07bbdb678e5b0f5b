"""Bradley-Terry ratings with 95% intervals from blind A/B votes, shown beside Elo.

Elo depends on the order the votes came in; Bradley-Terry does not: each column gets a strength
p, and A beats B with probability p_A / (p_A + p_B). The strengths are the maximum-likelihood fit,
found with Hunter's MM iteration (2004); a tie counts as half a win for each side (as Elo and the
win rates count it). Ratings are on Elo's scale: 1000 + 400 x log10(p / geometric mean of p).

The intervals are Wald intervals from the Fisher information at the fit (no bootstrap: the same
votes give the same interval): for theta = ln p, I_ii = sum_j n_ij pi_ij pi_ji and
I_ij = -n_ij pi_ij pi_ji, its pseudo-inverse is the covariance under sum(theta) = 0, and the
interval is rating +- 1.96 x 400 / ln 10 x its standard error.

The fit exists only when the votes connect the columns both ways (every group of columns has won
or tied against the rest at least once and lost or tied at least once); otherwise no column is
rated and `fit` says why (`Fit.reason`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from playground.client.batch.elo import OUTCOMES, START, Vote

SCALE = 400.0 / math.log(10.0)
Z95 = 1.959963984540054
MAX_ROUNDS = 100_000
TOLERANCE = 1e-12


@dataclass(frozen=True)
class Rating:
    value: float
    low: float
    high: float


@dataclass
class Fit:
    ratings: list[Rating | None] = field(default_factory=list)
    """One per column; None for a column never shown (or for all when the fit does not exist)."""
    reason: str = ""
    """"" when fitted; "no-votes" or "not-connected" otherwise (a code for the caller, never shown as it is)."""


def _tallies(votes: Iterable[Vote], columns: int) -> tuple[list[list[float]], list[list[int]]]:
    wins = [[0.0] * columns for _ in range(columns)]
    games = [[0] * columns for _ in range(columns)]
    for vote in votes:
        if vote.outcome not in OUTCOMES or not (0 <= vote.a < columns and 0 <= vote.b < columns) or vote.a == vote.b:
            continue
        score = OUTCOMES[vote.outcome]
        wins[vote.a][vote.b] += score
        wins[vote.b][vote.a] += 1 - score
        games[vote.a][vote.b] += 1
        games[vote.b][vote.a] += 1
    return wins, games


def _connected(shown: list[int], wins: list[list[float]]) -> bool:
    """Every shown column reaches every other along "won or tied against" edges (strongly connected)."""
    for start in shown:
        seen, stack = {start}, [start]
        while stack:
            here = stack.pop()
            for there in shown:
                if there not in seen and wins[here][there] > 0:
                    seen.add(there)
                    stack.append(there)
        if len(seen) < len(shown):
            return False
    return True


def _strengths(shown: list[int], wins: list[list[float]], games: list[list[int]]) -> list[float]:
    strength = [1.0] * len(shown)
    total = [sum(wins[i][j] for j in shown) for i in shown]
    for _ in range(MAX_ROUNDS):
        updated = []
        for k, i in enumerate(shown):
            pressure = sum(games[i][j] / (strength[k] + strength[m]) for m, j in enumerate(shown) if j != i and games[i][j])
            updated.append(total[k] / pressure)
        centre = math.exp(sum(math.log(value) for value in updated) / len(updated))
        updated = [value / centre for value in updated]
        change = max(abs(math.log(new / old)) for new, old in zip(updated, strength))
        strength = updated
        if change < TOLERANCE:
            break
    return strength


def fit(votes: Iterable[Vote], columns: int) -> Fit:
    """Bradley-Terry ratings of `columns` columns from `votes`, each with its 95% interval."""
    wins, games = _tallies(votes, columns)
    shown = [i for i in range(columns) if any(games[i])]
    if len(shown) < 2:
        return Fit([None] * columns, "no-votes")
    if not _connected(shown, wins):
        return Fit([None] * columns, "not-connected")
    strength = _strengths(shown, wins, games)
    information = np.zeros((len(shown), len(shown)))
    for k, i in enumerate(shown):
        for m, j in enumerate(shown):
            if i != j and games[i][j]:
                share = strength[k] / (strength[k] + strength[m])
                weight = games[i][j] * share * (1 - share)
                information[k, m] -= weight
                information[k, k] += weight
    covariance = np.linalg.pinv(information)
    ratings: list[Rating | None] = [None] * columns
    for k, i in enumerate(shown):
        value = START + SCALE * math.log(strength[k])
        half = Z95 * SCALE * math.sqrt(max(float(covariance[k, k]), 0.0))
        ratings[i] = Rating(value, value - half, value + half)
    return Fit(ratings)
