"""How a batch run looks: the progress bar, the results grid, one cell's details, the blind A/B
pair and the data set preview. Pure formatting, no events."""

from __future__ import annotations

import html
import json
import random
from typing import Any

from playground.client.batch.cost import Price, money
from playground.client.batch.dataset import Dataset
from playground.client.batch.graders import KINDS as GRADER_KINDS, GraderSpec
from playground.client.batch.plan import Plan
from playground.client.batch.report import FILTERS, cell_cost, cell_tokens, column_label, grid_keys, mark_sign, marks_text
from playground.client.batch.runner import Progress
from playground.client.batch.stability import flipping_rows
from playground.client.batch.store import RunRecord, cell_key
from playground.ui.shared.codegen import shorten_long_strings
from playground.client.tools.loop import MAX_STEPS
from playground.ui.i18n import EN, say
from playground.ui.i18n.client_words import word
from playground.ui.shared.render import plain

MAX_GRID_ROWS = 500
FLIPS = "⇄ "
"""Marks a cell whose row's verdict in its column is not the same in every repeat."""
ANSWER_EXCERPT = 160


def progress_html(progress: Progress | None, state: str = "") -> str:
    """A bar with rows done / total, ETA and errors so far (plain HTML, values escaped)."""
    if progress is None:
        return say("bview.idle")
    share = progress.done / progress.total if progress.total else 0.0
    eta = progress.eta()
    eta_text = say("bview.eta", seconds=f"{eta:,.0f}") if eta is not None and progress.running else ""
    status = state or ("running" if progress.running else ("finished" if progress.done >= progress.total else "stopped"))
    shown = say(f"bview.status.{status}") if f"bview.status.{status}" in EN else status
    return (f'<div class="batch-progress" data-done="{progress.done}" data-total="{progress.total}" data-status="{html.escape(status)}">'
            f'<div class="batch-progress-track" style="background:#e5e7eb;border-radius:6px;height:14px;overflow:hidden">'
            f'<div class="batch-progress-fill" style="width:{share * 100:.1f}%;background:#4f46e5;height:100%"></div></div>'
            f'<p>{say("bview.progress", status=html.escape(shown), done=f"{progress.done:,}", total=f"{progress.total:,}", errors=f"{progress.errors:,}", eta=eta_text)}</p></div>')


def preview_rows(dataset: Dataset | None) -> dict[str, Any]:
    if dataset is None or not dataset.columns:
        return {"headers": [say("bview.no_dataset")], "data": [[""]]}
    return {"headers": dataset.columns, "data": [[value[:200] for value in row] for row in dataset.preview(10)] or [[""] * len(dataset.columns)]}


def empty_grid() -> dict[str, Any]:
    """The results grid before a run: its first headings and a line saying where the answers will be (not Gradio's "1 2 3")."""
    return {"headers": [say("bview.grid.row"), say("bview.grid.repeat"), say("bview.grid.answers")], "data": [["", "", say("bview.grid.empty")]]}


def sort_choices(plan: Plan | None) -> list[tuple[str, str]]:
    """(label in the visitor's language, value the grid sorts by) for each order the grid offers."""
    choices = [(say("bview.sort.row"), "row")]
    for index in range(len(plan.columns) if plan else 0):
        choices += [(say(f"bview.sort.{by}", column=index + 1), f"C{index + 1} {by}") for by in ("ttft", "tokens", "passes")]
    return choices


def grid(plan: Plan, run: RunRecord, prices: dict[str, Price], shown: str = FILTERS[0], sort: str = "row") -> tuple[dict[str, Any], str]:
    """(Dataframe value, a note) for the results grid: per column the marks and an answer excerpt,
    TTFT, tokens and cost; the first two cells of a line say which row and repeat it is."""
    headers = [say("bview.grid.row"), say("bview.grid.repeat"), *plan.dataset.columns[:2]]
    for index in range(len(plan.columns)):
        headers += [word(column_label(plan, index)), *(say(f"bview.grid.{what}", column=index + 1) for what in ("ttft", "tokens", "cost"))]
    pairs = grid_keys(plan, run, shown, sort)
    flips = flipping_rows(plan, run)
    data = []
    for row, repeat in pairs[:MAX_GRID_ROWS]:
        values = plan.dataset.rows[row]
        line: list[Any] = [row + 1, repeat + 1, *[values.get(name, "")[:60] for name in plan.dataset.columns[:2]]]
        for column in range(len(plan.columns)):
            record = run.cells.get(cell_key(row, repeat, column))
            if record is None:
                line += ["…", "", "", ""]
                continue
            body = ("⚠ " + record.error) if record.error else record.answer
            marks = marks_text(record)
            flag = FLIPS if row in flips.get(column, ()) else ""
            line += [flag + (marks + " " if marks else "") + ("♻ " if record.cached else "") + body[:ANSWER_EXCERPT].replace("\n", " "),
                     round(record.ttft * 1000) if record.ttft is not None else "",
                     cell_tokens(plan, record) if record.usage else "",
                     money(cell_cost(plan, record, prices))]
        data.append(line)
    note = say("bview.lines", count=f"{len(pairs):,}") + (say("bview.first_lines", count=f"{MAX_GRID_ROWS:,}") if len(pairs) > MAX_GRID_ROWS else "")
    note += say("bview.grid_help")
    return {"headers": headers, "data": data or [[""] * len(headers)]}, note


def column_of_grid_index(plan: Plan, index: int) -> int | None:
    """Which run column a grid column index belongs to (None for row, repeat and variables)."""
    first = 2 + min(2, len(plan.dataset.columns))
    if index < first:
        return None
    column = (index - first) // 4
    return column if column < len(plan.columns) else None


def cell_markdown(plan: Plan, run: RunRecord, row: int, repeat: int, column: int, prices: dict[str, Price]) -> str:
    record = run.cells.get(cell_key(row, repeat, column))
    where = say("bview.where", row=row + 1, repeat=repeat + 1, column=plain(word(column_label(plan, column))))
    if record is None:
        return where + say("bview.not_run")
    lines = [where + (say("bview.from_cache") if record.cached else "")]
    if record.error:
        lines.append(f"⚠ {plain(record.error)}")
    if record.answer:
        lines.append("```text\n" + record.answer.replace("```", "ʼʼʼ")[:4000] + "\n```")
    for spec, mark in zip(plan.graders, record.marks):
        lines.append(f"- {mark_sign(mark)} {plain(spec.label)}: {plain(str(mark.get('detail', '')))}")
    if record.usage:
        lines.append(say("bview.usage", input=record.usage.get("input"), output=record.usage.get("output"), cost=money(cell_cost(plan, record, prices))))
    return "\n\n".join(lines)


MAX_SHOWN_CALLS = 10


def tool_calls_markdown(detail: dict[str, Any]) -> str:
    """A cell's tool calls (a column with mocked tools): each tool, its arguments and the mock's
    answer (or none: left unanswered), and whether the run stopped at the step limit ("" for none)."""
    calls = [call for call in detail.get("tool_calls") or [] if isinstance(call, dict)] if isinstance(detail.get("tool_calls"), list) else []
    if not calls:
        return ""
    lines = [say("bview.tool_calls")]
    for call in calls[:MAX_SHOWN_CALLS]:
        answer = call.get("answer")
        lines.append(say("bview.tool_call", name=plain(str(call.get("name", ""))[:64]), arguments=plain(str(call.get("arguments", ""))[:200]),
                         answer=plain(str(answer)[:300]) if isinstance(answer, str) else say("bview.tool_unanswered")))
    if detail.get("tool_step_limit") is True:
        lines.append(say("bview.tool_step_limit", steps=MAX_STEPS))
    return "\n\n" + "\n".join(lines)


def grader_exchanges_json(detail: dict[str, Any]) -> str:
    kept = [item for item in detail.get("grader_exchanges") or [] if item]
    if not kept:
        return ""
    shown = [{"request": shorten_long_strings(item.get("request_body"), 2000), "answer": shorten_long_strings(item.get("response_body"), 2000)}
             for item in kept]
    return json.dumps(shown, indent=2, ensure_ascii=False)


def ab_candidates(plan: Plan, run: RunRecord, left: int, right: int) -> list[tuple[int, int]]:
    """(row, repeat) pairs where both columns answered."""
    pairs = []
    for row in range(len(plan.dataset.rows)):
        for repeat in range(plan.repeats):
            a, b = run.cells.get(cell_key(row, repeat, left)), run.cells.get(cell_key(row, repeat, right))
            if a and b and not a.error and not b.error:
                pairs.append((row, repeat))
    return pairs


def pick_pair(plan: Plan, run: RunRecord, left: int, right: int, rng: random.Random) -> dict[str, Any] | None:
    """A random answered row of two columns, in random order: {row, repeat, a, b} (column indexes)."""
    voted = {v.row for v in run.votes if {v.a, v.b} == {left, right}}
    pairs = ab_candidates(plan, run, left, right)
    fresh = [p for p in pairs if p[0] not in voted] or pairs
    if not fresh or left == right:
        return None
    row, repeat = rng.choice(fresh)
    a, b = (left, right) if rng.random() < 0.5 else (right, left)
    return {"row": row, "repeat": repeat, "a": a, "b": b}


def grader_words(spec: GraderSpec) -> str:
    """A grader named in the visitor's language: its kind from the catalogue, with what it looks
    for (a text or pattern as typed, a length range, the grading model)."""
    if spec.kind in ("length", "model"):
        return word(spec.label)
    kind = word(GRADER_KINDS[spec.kind]) if spec.kind in GRADER_KINDS else spec.kind
    return f"{kind} {spec.value[:30]!r}" if spec.kind in ("contains", "not_contains", "regex") else kind


def pass_headings(plan: Plan) -> dict[str, str]:
    """The leaderboard's pass-rate headings as the client names them -> the same in the visitor's language."""
    return {f"pass: {spec.label}": say("bview.head.pass", grader=grader_words(spec)) for spec in plan.graders}
