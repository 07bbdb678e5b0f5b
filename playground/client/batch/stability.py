"""Repeats and stability: with each row run k times, how reliable each column is.

A cell's verdict is "passed" when it has no error and every grader that judged it passed, and
"failed" when one of them failed; a cell with an error or no judged mark has none. Per column:

- pass rate: passed verdicts / verdicts;
- pass^k: the chance that k runs of a row all pass, averaged over rows (the unbiased estimate
  C(c, k) / C(n, k) for a row with c passes in n verdicts, n >= k; with n = k it is 1 when every
  repeat passed, else 0). k is the run's repeats, so pass^k <= pass rate, equal only when no row
  ever fails some of the time;
- spread: the highest minus the lowest pass rate of one repeat (repeat 1's cells, repeat 2's, ...);
- flips: the rows whose verdict is not the same in every repeat (without graders: whose answers
  differ, white space and case aside).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import comb

from playground.client.batch.plan import Plan
from playground.client.batch.store import CellRecord, RunRecord, cell_key


def verdict(record: CellRecord | None) -> bool | None:
    """True (every judged mark passed), False (one failed), None (an error or nothing judged)."""
    if record is None or record.error:
        return None
    judged = [mark.get("passed") for mark in record.marks if mark.get("passed") is not None]
    if not judged:
        return None
    return all(judged)


def pass_hat_k(runs: int, passes: int, k: int) -> float | None:
    """The chance that k runs drawn from `runs` all pass when `passes` of them did (None when k > runs)."""
    if k < 1 or runs < k or not 0 <= passes <= runs:
        return None
    return comb(passes, k) / comb(runs, k)


@dataclass
class ColumnStability:
    k: int
    pass_rate: float | None = None
    pass_k: float | None = None
    spread: float | None = None
    flips: list[int] = field(default_factory=list)
    """Rows (0-based) whose verdict, or answer without graders, differs between repeats."""


def _answer(record: CellRecord | None) -> str | None:
    if record is None or record.error:
        return None
    return " ".join(record.answer.split()).casefold()


def column_stability(plan: Plan, run: RunRecord, column: int) -> ColumnStability:
    k = plan.repeats
    result = ColumnStability(k)
    passed = judged = 0
    per_repeat = [[0, 0] for _ in range(k)]
    row_chances: list[float] = []
    for row in range(len(plan.dataset.rows)):
        records = [run.cells.get(cell_key(row, repeat, column)) for repeat in range(k)]
        verdicts = [verdict(record) for record in records]
        known = [v for v in verdicts if v is not None]
        for repeat, value in enumerate(verdicts):
            if value is not None:
                per_repeat[repeat][0] += value
                per_repeat[repeat][1] += 1
        passed += sum(known)
        judged += len(known)
        chance = pass_hat_k(len(known), sum(known), k)
        if chance is not None:
            row_chances.append(chance)
        if plan.graders:
            flipped = len(set(known)) > 1
        else:
            answers = {a for a in map(_answer, records) if a is not None}
            flipped = len(answers) > 1
        if flipped and k > 1:
            result.flips.append(row)
    result.pass_rate = passed / judged if judged else None
    result.pass_k = sum(row_chances) / len(row_chances) if row_chances else None
    rates = [p / n for p, n in per_repeat if n]
    result.spread = round(max(rates) - min(rates), 12) if k > 1 and len(rates) > 1 else None  # 1 - 2/3 and 2/3 - 1/3 are one spread
    return result


def flipping_rows(plan: Plan, run: RunRecord) -> dict[int, set[int]]:
    """Column -> the rows that flip in it (empty for a run without repeats)."""
    if plan.repeats < 2:
        return {}
    return {column: set(column_stability(plan, run, column).flips) for column in range(len(plan.columns))}
