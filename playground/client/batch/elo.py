"""Blind A/B votes -> Elo ratings and win rates per column."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

START = 1000.0
K = 32.0
OUTCOMES = {"a": 1.0, "b": 0.0, "tie": 0.5}


@dataclass(frozen=True)
class Vote:
    a: int
    """Column index shown as A."""
    b: int
    outcome: str
    """"a", "b" or "tie"."""
    row: int = 0


def expected(rating: float, other: float) -> float:
    return 1.0 / (1.0 + 10 ** ((other - rating) / 400.0))


def ratings(votes: Iterable[Vote], columns: int) -> list[float]:
    """Elo of each column after the votes, in order (each starts at 1000, K = 32)."""
    elo = [START] * columns
    for vote in votes:
        if vote.outcome not in OUTCOMES or not (0 <= vote.a < columns and 0 <= vote.b < columns) or vote.a == vote.b:
            continue
        score = OUTCOMES[vote.outcome]
        ea = expected(elo[vote.a], elo[vote.b])
        elo[vote.a] += K * (score - ea)
        elo[vote.b] += K * ((1 - score) - (1 - ea))
    return elo


def win_rates(votes: Iterable[Vote], columns: int) -> list[float | None]:
    """Share of a column's comparisons it won (a tie counts half); None when it was never shown."""
    won, played = [0.0] * columns, [0] * columns
    for vote in votes:
        if vote.outcome not in OUTCOMES or not (0 <= vote.a < columns and 0 <= vote.b < columns) or vote.a == vote.b:
            continue
        score = OUTCOMES[vote.outcome]
        won[vote.a] += score
        won[vote.b] += 1 - score
        played[vote.a] += 1
        played[vote.b] += 1
    return [w / p if p else None for w, p in zip(won, played)]
