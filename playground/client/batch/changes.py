"""What changed between two runs, and a suite's trend over its runs.

Two runs are compared row by row and column by column. Rows are matched by their values (so a
reordered or grown data set still lines up) and columns by format, model and own settings (so a
column moved to another place still lines up). A cell's verdict is the share of its grader marks
that passed over its repeats, an error counting as every grader failed; a cell is better or worse
when that share rose or fell. Without graders there is no better or worse, only an answer that
changed. Per column, before and after: the pass rate as the leaderboard counts it (the cells that
passed every grader that judged them, `stability.verdict`: a cell with an error counts in neither
and is counted among the errors beside it), median time to first token and cost.

Runs belong to the same suite when they share the prompt template, the data set and the graders
(the columns may differ): the trend lists each column's pass rate over those runs, oldest first.
The runs come from the caller (the UI reads them through the store), so this works the same
whatever keeps them.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

from playground.client.batch.cost import Price
from playground.client.batch.plan import Plan
from playground.client.batch.report import cell_cost
from playground.client.batch.stability import column_stability
from playground.client.batch.store import CellRecord, RunFile, cell_key
from playground.client.intent import FORMAT_LABELS
from playground.client.stats import percentile

BETTER, WORSE, CHANGED, NEW = "better", "worse", "changed", "new"


@dataclass(frozen=True)
class RunView:
    """A run as this module reads it: its id, when it was made, its plan and its cells."""

    run_id: str
    created: float
    plan: Plan
    run: RunFile

    @classmethod
    def of(cls, run: RunFile, plan: Plan) -> RunView:
        created = run.header.get("created")
        return cls(run.run_id, float(created) if isinstance(created, (int, float)) else 0.0, plan, run)


def suite_key(plan: Plan) -> str:
    """The same for runs of one suite: prompt template, data set and graders (not the columns)."""
    suite = {"system": plan.system, "user": plan.user, "columns": plan.dataset.columns, "rows": plan.dataset.rows,
             "graders": [grader.to_dict() for grader in plan.graders]}
    return hashlib.sha256(json.dumps(suite, ensure_ascii=False, sort_keys=True).encode("utf-8", "surrogatepass")).hexdigest()[:16]


def column_key(plan: Plan, index: int) -> str:
    """A column by what it sends: format, model and its own settings (not its place)."""
    fmt, model = plan.columns[index]
    own = plan.own_settings_text(index)
    return f"{FORMAT_LABELS.get(fmt, fmt)} · {model.strip()}" + (f" ({own})" if own else "")


def _row_key(values: dict[str, str]) -> str:
    return json.dumps(sorted(values.items()), ensure_ascii=False)


def _cells(view: RunView, row: int, column: int) -> list[CellRecord]:
    found = (view.run.cells.get(cell_key(row, repeat, column)) for repeat in range(view.plan.repeats))
    return [record for record in found if record is not None]


def verdict(view: RunView, row: int, column: int) -> float | None:
    """Share of the cell's grader marks that passed over its repeats (an error: every grader
    failed); None without graders or without a finished cell."""
    graders = len(view.plan.graders)
    passed = judged = 0
    for record in _cells(view, row, column):
        if record.error:
            judged += graders
            continue
        for mark in record.marks[:graders]:
            if mark.get("passed") is not None:
                judged += 1
                passed += bool(mark["passed"])
    return passed / judged if judged else None


def _answers(view: RunView, row: int, column: int) -> tuple[str, ...]:
    return tuple(" ".join(record.answer.split()) for record in _cells(view, row, column))


@dataclass(frozen=True)
class Figures:
    pass_rate: float | None
    ttft_p50: float | None
    cost: float | None
    errors: int


def figures(view: RunView, column: int, prices: dict[str, Price]) -> Figures:
    """One column's pass rate (the leaderboard's), errors, median TTFT and cost."""
    records = [record for record in view.run.cells.values() if record.column == column]
    costs = [cell_cost(view.plan, record, prices) for record in records if not record.error or record.usage]
    return Figures(column_stability(view.plan, view.run, column).pass_rate,
                   percentile([r.ttft for r in records if r.ttft is not None and not r.cached], 0.5),
                   sum(c for c in costs if c is not None) if costs and all(c is not None for c in costs) else None,
                   sum(1 for r in records if r.error))


@dataclass
class CellChange:
    row: int
    """The row's index in the current run."""
    column: str
    status: str
    before: float | None = None
    after: float | None = None


@dataclass
class ColumnChange:
    column: str
    before: Figures | None
    after: Figures | None
    better: int = 0
    worse: int = 0
    changed: int = 0


@dataclass
class Diff:
    columns: list[ColumnChange] = field(default_factory=list)
    cells: list[CellChange] = field(default_factory=list)
    """Cells that got better, worse, changed their answer, or are new (in the current run's row order)."""
    same_suite: bool = False
    rows_matched: int = 0
    rows_new: int = 0
    rows_gone: int = 0


def diff(baseline: RunView, current: RunView, prices: dict[str, Price]) -> Diff:
    """Per column and per row, what got better or worse in `current` since `baseline`."""
    before_rows = {_row_key(values): index for index, values in enumerate(baseline.plan.dataset.rows)}
    before_columns = {column_key(baseline.plan, index): index for index in range(len(baseline.plan.columns))}
    result = Diff(same_suite=suite_key(baseline.plan) == suite_key(current.plan))
    changes: dict[str, ColumnChange] = {}
    for index in range(len(current.plan.columns)):
        key = column_key(current.plan, index)
        old = before_columns.get(key)
        changes[key] = ColumnChange(key, figures(baseline, old, prices) if old is not None else None, figures(current, index, prices))
    matched = set()
    for row, values in enumerate(current.plan.dataset.rows):
        old_row = before_rows.get(_row_key(values))
        if old_row is None:
            result.rows_new += 1
        else:
            matched.add(old_row)
        for index in range(len(current.plan.columns)):
            key = column_key(current.plan, index)
            old_column = before_columns.get(key)
            if not _cells(current, row, index):
                continue
            if old_row is None or old_column is None or not _cells(baseline, old_row, old_column):
                result.cells.append(CellChange(row, key, NEW, None, verdict(current, row, index)))
                continue
            before, after = verdict(baseline, old_row, old_column), verdict(current, row, index)
            status = ""
            if before is not None and after is not None and before != after:
                status = BETTER if after > before else WORSE
            elif before is None and after is None and _answers(baseline, old_row, old_column) != _answers(current, row, index):
                status = CHANGED
            if status:
                result.cells.append(CellChange(row, key, status, before, after))
                setattr(changes[key], status, getattr(changes[key], status) + 1)
    result.rows_matched, result.rows_gone = len(matched), len(before_rows) - len(matched)
    result.columns = list(changes.values())
    return result


@dataclass
class TrendPoint:
    run_id: str
    created: float
    pass_rates: dict[str, float | None]
    """Column key -> that run's pass rate."""


def trend(views: list[RunView], of: RunView, prices: dict[str, Price]) -> list[TrendPoint]:
    """Every run of `of`'s suite among `views` (and `of` itself), oldest first, with each column's pass rate."""
    suite = suite_key(of.plan)
    chosen = {view.run_id: view for view in views if suite_key(view.plan) == suite}
    chosen[of.run_id] = of
    points = []
    for view in sorted(chosen.values(), key=lambda v: (v.created, v.run_id)):
        rates = {column_key(view.plan, index): figures(view, index, prices).pass_rate for index in range(len(view.plan.columns))}
        points.append(TrendPoint(view.run_id, view.created, rates))
    return points
