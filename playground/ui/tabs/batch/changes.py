"""What changed: pick a baseline among the visitor's runs and see, against the run shown, each
column's pass rate, time to first token and cost before and after, every row and column that got
better or worse, the trend of the suite over its runs, and a link that opens any of them.

The runs are read through `BatchRuns` (`listed`, `open`: the store behind them is theirs to
know); the comparison is `client.batch.changes`. `ChangesHandlers`' methods are what the page's
events run. `linked_run` reads the run a page link names (`?tab=batch&run=<id>`), `linked_form` a link to the tab
with its own settings."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import gradio as gr

from playground.client.batch.changes import BETTER, CHANGED, NEW, WORSE, Diff, Figures, RunView, TrendPoint, diff, trend
from playground.client.batch.cost import Price, money
from playground.client.batch.store import RUN_ID
from playground.gradio_compat import current_request
from playground.ui.i18n import say
from playground.ui.shared.render import plain
from playground.ui.tabs.batch.runs import BatchRuns
from playground.ui.tabs.context import TabContext
from playground.ui.web.owners import current_owner

MAX_CHANGED_ROWS = 200
SIGNS = {BETTER: "▲", WORSE: "▼", CHANGED: "≠", NEW: "+"}


def run_link(run_id: str) -> str:
    """The page link that opens a run's view in the Batch tab (the run's owner only can open it)."""
    return f"?tab=batch&run={run_id}"


def link_parameter(name: str) -> str:
    """A query parameter of the page's link ("" when it has none)."""
    request = current_request()
    value = request.query_params.get(name, "") if request is not None and hasattr(request, "query_params") else ""
    return value if isinstance(value, str) else ""


def linked_run() -> str:
    """The run id the page's link names (`?run=`), "" when none or not a run id."""
    value = link_parameter("run")
    return value if RUN_ID.match(value) else ""


def linked_form() -> bool:
    """Whether the page's link opens the Batch tab with a form of its own (`?tab=batch` without `run=`): then the
    browser's last run is not restored over it."""
    return link_parameter("tab") == "batch" and not linked_run()


def when(created: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(created)) if created else "—"


def run_label(view: RunView) -> str:
    models = ", ".join(model for _, model in view.plan.columns)
    return say("bchg.run_label", when=when(view.created), rows=f"{len(view.plan.dataset.rows):,}", models=models, id=view.run_id[:8])


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{value * 100:.0f}%"


def _delta(before: float | None, after: float | None, kind: str) -> str:
    if before is None or after is None:
        return ""
    change = after - before
    if kind == "pct":
        return f"{change * 100:+.0f} pts" if round(change * 100) else "±0"
    if kind == "ms":
        return f"{change * 1000:+,.0f}" if round(change * 1000) else "±0"
    return f"{'+' if change > 0 else '−'}{money(abs(change))}" if change else "±0"


def _figures(before: Figures | None, after: Figures | None) -> list[str]:
    def pick(figures: Figures | None, name: str) -> float | None:
        return getattr(figures, name) if figures is not None else None

    cells = []
    for name, kind in (("pass_rate", "pct"), ("ttft_p50", "ms"), ("cost", "money")):
        old, new = pick(before, name), pick(after, name)
        shown = _pct(new) if kind == "pct" else (money(new) if kind == "money" else ("—" if new is None else f"{new * 1000:,.0f}"))
        cells += [shown, _delta(old, new, kind)]
    return cells


def columns_table(result: Diff) -> str:
    lines = [say("bchg.columns_head"), "|---|---|---|---|---|---|---|---|---|"]
    for change in result.columns:
        lines.append("| " + " | ".join([plain(change.column), *_figures(change.before, change.after),
                                         f"{change.better:,}", f"{change.worse:,}"]) + " |")
    return "\n".join(lines)


def rows_table(result: Diff, current: RunView) -> str:
    shown = result.cells[:MAX_CHANGED_ROWS]
    if not shown:
        return say("bchg.no_row_changed")
    lines = [say("bchg.rows_head"), "|---|---|---|---|---|---|"]
    for cell in shown:
        values = current.plan.dataset.rows[cell.row]
        excerpt = "; ".join(f"{name}: {value[:60]}" for name, value in list(values.items())[:2])
        lines.append(f"| {cell.row + 1} | {plain(excerpt)} | {plain(cell.column)} | {SIGNS[cell.status]} {say(f'bchg.status.{cell.status}')} "
                     f"| {_pct(cell.before)} | {_pct(cell.after)} |")
    if len(result.cells) > MAX_CHANGED_ROWS:
        lines.append("\n" + say("bchg.more_rows", count=f"{len(result.cells) - MAX_CHANGED_ROWS:,}"))
    return "\n".join(lines)


def trend_table(points: list[TrendPoint], shown: str) -> str:
    columns = list(dict.fromkeys(key for point in points for key in point.pass_rates))
    lines = [say("bchg.trend_title"), "", "| " + say("bchg.trend_run") + " | " + " | ".join(plain(c) for c in columns) + " |",
             "|---" * (len(columns) + 1) + "|"]
    for point in points:
        mark = " ◀" if point.run_id == shown else ""
        lines.append(f"| [{when(point.created)}]({run_link(point.run_id)}){mark} | " +
                     " | ".join(_pct(point.pass_rates.get(c)) for c in columns) + " |")
    series = [" ".join(_pct(point.pass_rates.get(c)) for point in points) for c in columns]
    lines += ["", *(f"- {plain(c)}: {s}" for c, s in zip(columns, series))] if len(points) > 1 else []
    return "\n".join(lines)


def changes_markdown(baseline: RunView, current: RunView, views: list[RunView], prices: dict[str, Price]) -> str:
    """The whole "what changed" view: heading, columns, rows, trend."""
    result = diff(baseline, current, prices)
    parts = [say("bchg.title", baseline=plain(run_label(baseline)), current=plain(run_label(current)),
                 base_link=run_link(baseline.run_id), link=run_link(current.run_id))]
    if not result.same_suite:
        parts.append(say("bchg.other_suite", matched=f"{result.rows_matched:,}", new=f"{result.rows_new:,}", gone=f"{result.rows_gone:,}"))
    if not current.plan.graders:
        parts.append(say("bchg.no_graders"))
    parts += [columns_table(result), rows_table(result, current), trend_table(trend(views, current, prices), current.run_id)]
    return "\n\n".join(parts)


@dataclass
class ChangesHandlers:
    """The "What changed" section's events, bound to the page's context and the process's runs."""

    ctx: TabContext
    runs: BatchRuns

    def owner(self) -> str | None:
        return current_owner(self.ctx.settings.hosted)

    def on_list(self, batch: Any) -> Any:
        """The baseline picker's choices: this visitor's other runs, newest first."""
        views = [RunView.of(run, plan) for run, plan in self.runs.listed(self.owner()) if run.run_id != batch.run_id]
        choices = [(run_label(view), view.run_id) for view in views]
        return gr.update(choices=choices, value=choices[0][1] if choices else None)

    def on_diff(self, batch: Any, baseline_id: Any) -> str:
        """What changed in the run shown since the baseline picked."""
        owner = self.owner()
        try:
            run, plan = self.runs.open(batch.run_id, owner)
        except (OSError, ValueError):
            return say("bview.run_first")
        try:
            base_run, base_plan = self.runs.open(str(baseline_id or ""), owner)
        except (OSError, ValueError):
            return say("bchg.pick_baseline")
        current = RunView.of(run, plan)
        views = [RunView.of(listed, listed_plan) for listed, listed_plan in self.runs.listed(owner)]
        return changes_markdown(RunView.of(base_run, base_plan), current, views, self.ctx.prices.current())
