"""The Report tab's history: every finished (or stopped) run kept in the local store for the
visitor who ran it (`client.report.history`; hosted, a visitor lists and opens only their own, as
with Batch runs), the list of kept reports, and two of them compared cell by cell with
`document.diff`: what broke, what was fixed, the cells only one has, the latency that moved."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gradio as gr

from playground.client.report import document, history
from playground.client.report.document import ReportFileError
from playground.client.report.model import Report
from playground.store.database import Database
from playground.store.reports import ReportListing
from playground.ui.i18n import say
from playground.ui.shared.render import plain
from playground.ui.tabs.report import views
from playground.ui.tabs.report.handlers import ReportSession
from playground.ui.web.owners import current_owner


def choice_label(listing: ReportListing) -> str:
    when = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(listing.created))
    return say("rep.history.choice", when=when, gateway=listing.gateway, passed=listing.passed, judged=listing.passed + listing.failed,
               failed=listing.compatible_failed)


def compare_markdown(before: Report, after: Report) -> str:
    """The comparison of two reports, in the visitor's language."""
    changes = document.diff(before, after)
    head = say("rep.history.head", before=time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(before.created)),
               after=time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(after.created)))
    if changes.empty:
        return f"{head}\n\n{say('rep.history.nothing')}"

    def names(results: list[Any]) -> str:
        return ", ".join(plain(views.cell_name(r)) for r in results)

    lines = [head, ""]
    if changes.newly_failing:
        lines.append("- " + say("rep.history.broke", count=len(changes.newly_failing), cells=names(changes.newly_failing)))
    if changes.newly_passing:
        lines.append("- " + say("rep.history.fixed", count=len(changes.newly_passing), cells=names(changes.newly_passing)))
    if changes.latency_moved:
        moves = ", ".join(f"{plain(views.format_label(m.format))} · {plain(m.model)} {m.before_s * 1000:,.0f} → {m.after_s * 1000:,.0f} ms"
                          for m in changes.latency_moved)
        lines.append("- " + say("rep.history.latency", count=len(changes.latency_moved), moves=moves))
    if changes.new_cells or changes.gone_cells:
        lines.append("- " + say("rep.history.cells", new=len(changes.new_cells), gone=len(changes.gone_cells)))
    return "\n".join(lines)


@dataclass
class ReportHistory:
    """The history's handlers, over the store in `data_dir` (opened on first use: building the page writes nothing)."""

    data_dir: Path
    hosted: bool

    @property
    def database(self) -> Database:
        return Database.at(self.data_dir)

    def owner(self) -> str | None:
        return current_owner(self.hosted)

    def choices(self) -> tuple[list[tuple[str, str]], str | None, str | None]:
        """(the owner's kept reports as choices, newest first; the second newest; the newest)."""
        listed = history.listed(self.database, self.owner())
        options = [(choice_label(item), item.id) for item in listed]
        return options, options[1][1] if len(options) > 1 else None, options[0][1] if options else None

    def _lists(self) -> tuple[Any, ...]:
        options, before, after = self.choices()
        note = say("rep.history.empty") if not options else say("rep.history.count", count=len(options))
        return gr.update(choices=options, value=before), gr.update(choices=options, value=after), note

    def listed(self) -> tuple[Any, ...]:
        """The lists refreshed (older report, newer report, a line under them)."""
        return self._lists()

    def keep_finished(self, state: ReportSession) -> tuple[Any, ...]:
        """After a run ends or is stopped: its report kept for the visitor (once: `state.kept`), then the lists."""
        report, owner = state.report, self.owner()
        if report is not None and report.results and owner is not None and (report.finished or report.stopped) \
                and report is not state.baseline and report is not state.kept:
            history.keep_now(self.database, report, owner, origin="app")
            state.kept = report
        return self._lists()

    def compare(self, before_id: str | None, after_id: str | None) -> str:
        """Two kept reports compared cell by cell (the older one first)."""
        if not before_id or not after_id:
            return say("rep.history.pick_two")
        if before_id == after_id:
            return say("rep.history.same")
        owner = self.owner()
        try:
            before, after = history.open_kept(self.database, before_id, owner), history.open_kept(self.database, after_id, owner)
        except ReportFileError:
            before = after = None
        if before is None or after is None:
            return say("rep.history.gone")
        if before.created > after.created:
            before, after = after, before
        return compare_markdown(before, after)
