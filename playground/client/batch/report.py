"""What a run shows: the leaderboard (per column: pass rate per grader, p50/p95 time to first
token, tokens/s, tokens, cost, spread across repeats, Elo, win rate and Bradley-Terry with its 95%
interval from blind votes; the best of each marked) and the results grid (rows x columns, filtered and sorted)."""

from __future__ import annotations

from playground.client.texts import Text

import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from playground.client.batch import bradley_terry, elo
from playground.client.batch.cost import Price, billed_output, cost, money
from playground.client.batch.plan import Plan
from playground.client.batch.stability import column_stability, flipping_rows
from playground.client.batch.store import CellRecord, RunRecord, cell_key
from playground.client.intent import FORMAT_LABELS
from playground.client.results import Usage
from playground.client.stats import percentile

FILTERS = (Text("batch.report.all_rows"), Text("batch.report.only_failures"), Text("batch.report.only_errors"),
           Text("batch.report.only_disagreements"), Text("batch.report.only_rows_flip"))
BEST = "★ "


def column_label(plan: Plan, index: int) -> Text:
    """"C1 chat completions · gpt-4.1 (temperature 0.2)": a message, so the format's name and the
    column's own settings are worded in the visitor's language."""
    fmt, model = plan.columns[index]
    own = plan.own_settings_text(index)
    shown = FORMAT_LABELS.get(fmt, fmt)
    if own:
        return Text("batch.column_label_own", number=index + 1, format=shown, model=model, own=own)
    return Text("batch.column_label", number=index + 1, format=shown, model=model)


def usage_of(record: CellRecord) -> Usage | None:
    if not record.usage:
        return None
    u = record.usage
    return Usage(input_tokens=u.get("input"), output_tokens=u.get("output"), reasoning_tokens=u.get("reasoning"),
                 cached_tokens=u.get("cached"), cache_creation_tokens=u.get("cache_write"),
                 cache_creation_1h_tokens=u.get("cache_write_1h"))


def cell_tokens(plan: Plan, record: CellRecord) -> int | None:
    """Tokens a cell used: input plus billed output (the native format's thinking tokens, counted
    apart from its output, included); None without usage."""
    used = usage_of(record)
    return None if used is None else (used.input_tokens or 0) + billed_output(used, plan.columns[record.column][0])


def cell_cost(plan: Plan, record: CellRecord, prices: dict[str, Price]) -> float | None:
    """A cache hit cost nothing; otherwise the price table decides (None when unknown)."""
    if record.cached:
        return 0.0
    fmt, model = plan.columns[record.column]
    return cost(prices, model.strip(), usage_of(record), fmt)


@dataclass
class ColumnStats:
    label: str
    cells: int = 0
    errors: int = 0
    pass_rates: list[float | None] = field(default_factory=list)
    mean_score: float | None = None
    ttft_p50: float | None = None
    ttft_p95: float | None = None
    tokens_per_s: float | None = None
    tokens: int = 0
    cost: float | None = None
    spread: float | None = None
    """Share of rows whose repeats differ (in grader marks, or in the answer when there are no graders)."""
    elo: float | None = None
    win_rate: float | None = None
    bt: bradley_terry.Rating | None = None
    """Bradley-Terry rating and its 95% interval (None: never shown, or the votes do not connect the columns)."""
    pass_rate: float | None = None
    """With repeats: passed verdicts / verdicts (`stability`)."""
    pass_k: float | None = None
    """With repeats: the chance that all k repeats of a row pass."""
    pass_spread: float | None = None
    """With repeats: the highest minus the lowest pass rate of one repeat."""


def _spread(plan: Plan, cells: dict[str, CellRecord], column: int) -> float | None:
    if plan.repeats < 2:
        return None
    varied = counted = 0
    for row in range(len(plan.dataset.rows)):
        outcomes = []
        for repeat in range(plan.repeats):
            record = cells.get(cell_key(row, repeat, column))
            if record is not None and not record.error:
                outcomes.append(tuple(m.get("passed") for m in record.marks) if plan.graders else record.answer.strip())
        if len(outcomes) >= 2:
            counted += 1
            varied += len(set(outcomes)) > 1
    return varied / counted if counted else None


def leaderboard(plan: Plan, run: RunRecord, prices: dict[str, Price]) -> list[ColumnStats]:
    stats = [ColumnStats(column_label(plan, i), pass_rates=[None] * len(plan.graders)) for i in range(len(plan.columns))]
    passed = [[0] * len(plan.graders) for _ in plan.columns]
    graded = [[0] * len(plan.graders) for _ in plan.columns]
    ttfts: list[list[float]] = [[] for _ in plan.columns]
    rates: list[list[float]] = [[] for _ in plan.columns]
    scores: list[list[int]] = [[] for _ in plan.columns]
    costs: list[list[float | None]] = [[] for _ in plan.columns]
    for record in run.cells.values():
        if record.column >= len(stats):
            continue
        column, entry = record.column, stats[record.column]
        entry.cells += 1
        entry.errors += bool(record.error)
        for index, mark in enumerate(record.marks[:len(plan.graders)]):
            if mark.get("passed") is not None:
                graded[column][index] += 1
                passed[column][index] += bool(mark["passed"])
            if isinstance(mark.get("score"), int):
                scores[column].append(mark["score"])
        if record.ttft is not None and not record.cached:
            ttfts[column].append(record.ttft)
        if record.tokens_per_s is not None:
            rates[column].append(record.tokens_per_s)
        entry.tokens += cell_tokens(plan, record) or 0
        if not record.error or record.usage:
            costs[column].append(cell_cost(plan, record, prices))
    votes = run.votes
    ratings, wins = elo.ratings(votes, len(plan.columns)), elo.win_rates(votes, len(plan.columns))
    strengths = bradley_terry.fit(votes, len(plan.columns)).ratings
    shown = {v.a for v in votes} | {v.b for v in votes}
    for column, entry in enumerate(stats):
        entry.pass_rates = [passed[column][i] / graded[column][i] if graded[column][i] else None for i in range(len(plan.graders))]
        entry.mean_score = statistics.fmean(scores[column]) if scores[column] else None
        entry.ttft_p50, entry.ttft_p95 = percentile(ttfts[column], 0.5), percentile(ttfts[column], 0.95)
        entry.tokens_per_s = statistics.median(rates[column]) if rates[column] else None
        known = costs[column]
        entry.cost = sum(c for c in known if c is not None) if known and all(c is not None for c in known) else None
        entry.spread = _spread(plan, run.cells, column)
        entry.elo = ratings[column] if column in shown else None
        entry.win_rate = wins[column]
        entry.bt = strengths[column]
        if plan.repeats > 1:
            steady = column_stability(plan, run, column)
            entry.pass_rate, entry.pass_k, entry.pass_spread = steady.pass_rate, steady.pass_k, steady.spread
    return stats


def _best(values: list[float | None], high: bool) -> float | None:
    known = [v for v in values if v is not None]
    if len(known) < 2 or len(set(known)) == 1:
        return None
    return max(known) if high else min(known)


def _fmt(value: float | None, kind: str) -> str:
    if value is None:
        return "—"
    if kind == "pct":
        return f"{value * 100:.0f}%"
    if kind == "ms":
        return f"{value * 1000:,.0f}"
    if kind == "money":
        return money(value)
    if kind == "int":
        return f"{value:,.0f}"
    return f"{value:,.1f}"


def leaderboard_rows(plan: Plan, stats: list[ColumnStats]) -> tuple[list[str], list[list[str]]]:
    """(headers, one row per column), the best value of each metric marked ★."""
    metrics: list[tuple[str, list[float | None], str, bool | None]] = []
    for index, spec in enumerate(plan.graders):
        metrics.append((f"pass: {spec.label}", [s.pass_rates[index] for s in stats], "pct", True))
    if plan.repeats > 1 and plan.graders:
        metrics += [(Text("batch.report.pass_rate"), [s.pass_rate for s in stats], "pct", True), (f"pass^{plan.repeats}", [s.pass_k for s in stats], "pct", True),
                    (Text("batch.report.pass_rate_spread"), [s.pass_spread for s in stats], "pct", False)]
    if any(s.mean_score is not None for s in stats):
        metrics.append((Text("batch.report.mean_score"), [s.mean_score for s in stats], "num", True))
    metrics += [("TTFT p50 ms", [s.ttft_p50 for s in stats], "ms", False), ("TTFT p95 ms", [s.ttft_p95 for s in stats], "ms", False),
                ("tokens/s", [s.tokens_per_s for s in stats], "num", True), ("tokens", [float(s.tokens) for s in stats], "int", None),
                ("cost", [s.cost for s in stats], "money", False)]
    if plan.repeats > 1:
        metrics.append((Text("batch.report.repeats_differ"), [s.spread for s in stats], "pct", False))
    if any(s.elo is not None for s in stats):
        metrics += [("Elo", [s.elo for s in stats], "int", True), (Text("batch.report.win_rate"), [s.win_rate for s in stats], "pct", True),
                    ("Bradley-Terry", [s.bt.value if s.bt else None for s in stats], "int", True)]
    headers = ["column", "cells", "errors", *[name for name, *_ in metrics]]
    rows = [[s.label, str(s.cells), str(s.errors)] for s in stats]
    for _, values, kind, high in metrics:
        best = _best(values, high) if high is not None else None
        for row, value in zip(rows, values):
            row.append((BEST if best is not None and value == best else "") + _fmt(value, kind))
    if any(s.elo is not None for s in stats):
        headers.append("BT 95% CI")
        for row, entry in zip(rows, stats):
            row.append(f"{entry.bt.low:,.0f} – {entry.bt.high:,.0f}" if entry.bt else "—")
    return headers, rows


def leaderboard_markdown(plan: Plan, stats: list[ColumnStats], escape: object = str, heading: Callable[[str], str] = str) -> str:
    """The leaderboard as a Markdown table; `heading` words each column's heading (the UI's language)
    and `escape` makes every heading and value literal text (a grader's label and a model's name
    are a visitor's or a gateway's words)."""
    headers, rows = leaderboard_rows(plan, stats)
    cell = escape if callable(escape) else str
    lines = ["| " + " | ".join(cell(heading(name)) for name in headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(cell(value) for value in row) + " |" for row in rows]
    return "\n".join(lines)


def _failed(record: CellRecord | None) -> bool:
    return record is not None and (bool(record.error) or any(m.get("passed") is False for m in record.marks))


def _verdict(record: CellRecord | None) -> object:
    if record is None or record.error:
        return None
    return tuple(m.get("passed") for m in record.marks) if record.marks else " ".join(record.answer.split()).casefold()


def grid_keys(plan: Plan, run: RunRecord, shown: str = FILTERS[0], sort: str = "row") -> list[tuple[int, int]]:
    """(row, repeat) pairs to show, filtered and sorted. `sort` is "row" or "C<n> <metric>"
    with metric one of ttft, tokens, passes."""
    pairs = []
    columns = range(len(plan.columns))
    flips = set().union(*flipping_rows(plan, run).values()) if shown == "only rows that flip" else set()
    for row in range(len(plan.dataset.rows)):
        if shown == "only rows that flip" and row not in flips:
            continue
        for repeat in range(plan.repeats):
            records = [run.cells.get(cell_key(row, repeat, c)) for c in columns]
            if shown == "only failures" and not any(_failed(r) for r in records):
                continue
            if shown == "only errors" and not any(r is not None and r.error for r in records):
                continue
            if shown == "only disagreements":
                verdicts = [_verdict(r) for r in records if r is not None and not r.error]
                if len(set(map(repr, verdicts))) < 2:
                    continue
            pairs.append((row, repeat))
    if sort != "row" and sort[:1] == "C":
        number, _, metric = sort[1:].partition(" ")
        column = int(number) - 1 if number.isdigit() else 0

        def value(pair: tuple[int, int]) -> float:
            record = run.cells.get(cell_key(*pair, column))
            if record is None:
                return float("inf")
            if metric == "ttft":
                return record.ttft if record.ttft is not None else float("inf")
            if metric == "tokens":
                return -float((record.usage.get("output") or 0) if record.usage else 0)
            return -float(sum(bool(m.get("passed")) for m in record.marks))
        pairs.sort(key=value)
    return pairs


NOT_GRADED = "–"
"""A mark that neither passed nor failed: no answer to grade, or a grading model that could not grade it."""


def mark_sign(mark: dict[str, Any]) -> str:
    return "✓" if mark.get("passed") else ("✗" if mark.get("passed") is False else NOT_GRADED)


def marks_text(record: CellRecord) -> str:
    return "".join(mark_sign(mark) for mark in record.marks)
