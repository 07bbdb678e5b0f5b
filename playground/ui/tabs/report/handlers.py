"""The Report tab's work, without Gradio layout: the scope from the pickers, the run (progress
as it goes, what finished kept on Stop), a saved report loaded and diffed, and the load run; then
the handlers the tab's events run (`layout` wires them), which turn those into the page's updates:
module functions, and `ReportHandlers` for the ones that call the gateway."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gradio as gr
import pandas as pd

from playground.client import catalog
from playground.client.errors import GatewayError, RequestValidationError
from playground.client.gateway import GatewayClient
from playground.client.report import document
from playground.client.report.latency import load_run
from playground.client.report.model import (CHECKS, CHECKS_BY_ID, FORMATS, FORMAT_LABELS, QUICK_CHECKS, QUICK_FORMATS, TEXT_FORMATS,
                                             LoadRun, Report, Scope, catalog_models)
from playground.client.report.runner import RunState, mark_stopped, run_report
from playground.ui.shared.connection import ServerDefaults, resolve_connection, test_connection
from playground.ui.i18n import say, t_client
from playground.ui.shared.render import error_text
from playground.ui.shared.widgets import Inspector, banner_update
from playground.ui.tabs.report import views
from playground.ui.tabs.report.pacing import ViewPacer

SEPARATOR = " · "


@dataclass
class ReportSession:
    report: Report | None = None
    baseline: Report | None = None
    state: RunState | None = None
    kept: Report | None = None
    """The report last kept in the history (`history.ReportHistory.keep_finished` keeps each once)."""


def model_value(fmt: str, model: str) -> str:
    return f"{FORMAT_LABELS[fmt]}{SEPARATOR}{model}"


def model_choices(thorough: bool = True, gateway_ids: list[str] | None = None) -> list[tuple[str, str]]:
    """Every (format, model) the picker offers, the catalog's and the gateway's own ids, as (what
    the page shows: the format's name in the visitor's language, value: `model_value`)."""
    pairs = [(fmt, model) for fmt in FORMATS for model in catalog_models(fmt, thorough)]
    pairs += [(fmt, model) for model in gateway_ids or [] for fmt in formats_for_gateway_id(model)]
    return [(t_client(FORMAT_LABELS[fmt]) + f"{SEPARATOR}{model}", model_value(fmt, model)) for fmt, model in dict.fromkeys(pairs)]


def formats_for_gateway_id(model: str) -> list[str]:
    info = catalog.find(model)
    if info is not None:
        return [fmt for fmt in TEXT_FORMATS if fmt in info.interfaces]
    if "embedding" in model:
        return ["embeddings"]
    if model.endswith("-image") or "-image-" in model:
        return ["images"]
    return ["chat"]


def default_models(thorough: bool) -> list[str]:
    return [model_value(fmt, model) for fmt in FORMATS for model in catalog_models(fmt, thorough)]


def build_scope(formats: list[str], models: list[str], checks: list[str], thorough: bool, budget: float | None) -> Scope:
    """The scope from the pickers, refused with what to fix when it is empty."""
    labels = {label: fmt for fmt, label in FORMAT_LABELS.items()}
    chosen: dict[str, list[str]] = {}
    for value in models or []:
        label, _, model = value.partition(SEPARATOR)
        fmt = labels.get(label)
        if fmt is None or not model.strip():
            raise RequestValidationError([say("rep.bad_model", value=repr(value))])
        if fmt in (formats or []):
            chosen.setdefault(fmt, []).append(model.strip())
    unknown = [c for c in checks or [] if c not in CHECKS_BY_ID]
    if unknown:
        raise RequestValidationError([say("rep.unknown_checks", checks=", ".join(unknown))])
    if not chosen:
        raise RequestValidationError([say("rep.pick_model")])
    if not checks:
        raise RequestValidationError([say("rep.pick_check")])
    if budget is None or not 0 < float(budget) <= 120:
        raise RequestValidationError([say("rep.budget")])
    return Scope(chosen, tuple(checks), bool(thorough), float(budget))


async def run(client: GatewayClient, defaults: ServerDefaults, url: str, key: str, session: ReportSession, scope: Scope,
              concurrency: int) -> AsyncIterator[RunState]:
    """The run's states (the connection is resolved here, so hosted-mode limits bind to the session)."""
    conn = resolve_connection(defaults, url, key)
    session.report = Report(conn.base_url, scope)
    async for state in run_report(client, conn, scope, concurrency=concurrency, report=session.report):
        session.state = state
        yield state


def load_saved(path: str | None) -> Report:
    """A report file the visitor uploaded, read and checked whole before anything changes."""
    if not path:
        raise document.ReportFileError(say("rep.choose_file"))
    file = Path(path)
    try:
        if file.stat().st_size > document.MAX_FILE_BYTES:
            raise document.ReportFileError(say("rep.file_too_large", mb=f"{document.MAX_FILE_BYTES / 1e6:.0f}"))
        text = file.read_bytes()
    except OSError:
        raise document.ReportFileError(say("rep.file_gone")) from None
    return document.loads(text)


async def run_load(client: GatewayClient, defaults: ServerDefaults, url: str, key: str, session: ReportSession, fmt: str, model: str,
                   max_concurrency: int, stop_rate_percent: float) -> AsyncIterator[LoadRun]:
    if defaults.hosted:
        from playground.client.report.latency import HOSTED_REFUSAL, LoadRunRefused

        raise LoadRunRefused(HOSTED_REFUSAL)
    if not (model or "").strip():
        raise RequestValidationError([say("rep.load_model")])
    if not 1 <= int(max_concurrency or 0) <= 64:
        raise RequestValidationError([say("rep.load_concurrency")])
    conn = resolve_connection(defaults, url, key)
    if session.report is None:
        session.report = Report(conn.base_url, Scope({}, ()))
    async for loaded in load_run(client, conn, fmt, model.strip(), max_concurrency=int(max_concurrency),
                                 stop_error_rate=float(stop_rate_percent or 0) / 100, hosted=defaults.hosted):
        session.report.load = loaded
        yield loaded


def finished(state: ReportSession) -> tuple[Any, ...]:
    """After a run (or Stop, or a load): summary, matrix, latency, diff, cell picker, downloads."""
    report = state.report
    changes = document.diff(state.baseline, report) if state.baseline is not None and report is not None and report is not state.baseline else None
    files = views.write_downloads(report) if report is not None and report.results else None
    return (views.summary_markdown(report), views.matrix_html(report), views.latency_markdown(report), views.diff_markdown(changes),
            gr.update(choices=views.cell_choices(report), value=None), files)


async def depth_changed(value: str) -> tuple[Any, ...]:
    """Quick or thorough: the formats, models and checks that depth picks."""
    thorough = value == "thorough"
    return (list(FORMATS) if thorough else list(QUICK_FORMATS), default_models(thorough),
            [c.id for c in CHECKS] if thorough else list(QUICK_CHECKS))


def stop(state: ReportSession) -> tuple[Any, ...]:
    """Stop: the probes not run are marked stopped, and what finished is shown."""
    if state.report is not None:
        mark_stopped(state.report)
    return finished(state)


def show_cell(state: ReportSession, key: str | None) -> tuple[Any, ...]:
    """A matrix cell opened: the panel, the cell, its verdict, its last call inspected, its calls."""
    result = views.find_cell(state.report, key or "")
    if result is None:
        return _show_absent(state, key or "")
    calls = [f"{i + 1}. {e.method} {e.url} → {e.status if e.status is not None else '—'}" for i, e in enumerate(result.exchanges)]
    inspected = Inspector.values(result.exchanges[-1]) if result.exchanges else Inspector.note(say("rep.no_calls"))
    return (gr.update(open=True), key, views.cell_verdict(result), *inspected,
            gr.update(choices=calls, value=calls[-1] if calls else None))


def _show_absent(state: ReportSession, key: str) -> tuple[Any, ...]:
    """A cell of a check made for other formats only: the panel says so (nothing to inspect)."""
    verdict = views.absent_verdict(state.report, key)
    if verdict is None:
        return (gr.skip(),) * 9
    return (gr.update(open=True), None, verdict, *Inspector.note(say("rep.no_calls")), gr.update(choices=[], value=None))


def matrix_clicked(state: ReportSession, event: gr.EventData) -> tuple[Any, ...]:
    """A click in the matrix (its `data-cell`, sent by `layout.MATRIX_JS`) opens that cell."""
    return show_cell(state, str((getattr(event, "_data", None) or {}).get("cell", "")))


def show_call(state: ReportSession, key: str | None, chosen: str | None) -> tuple[Any, ...]:
    """One call of the open cell ("3. POST …") in the inspector."""
    result = views.find_cell(state.report, key or "")
    number = (chosen or "").split(".", 1)[0]
    index = int(number) - 1 if number.isdigit() else -1
    if result is None or not 0 <= index < len(result.exchanges):
        return (gr.skip(),) * 5
    return Inspector.values(result.exchanges[index])


def saved_uploaded(state: ReportSession, path: str | None) -> tuple[Any, ...]:
    """A saved report uploaded: shown, and kept as the baseline the next run is diffed against."""
    try:
        loaded = load_saved(path)
    except GatewayError as problem:
        return (banner_update(error_text(problem)),) + (gr.skip(),) * 6
    state.baseline, state.report = loaded, loaded
    note = say("rep.loaded", gateway=views.plain(loaded.gateway))
    return (banner_update(""), views.summary_markdown(loaded, note), views.matrix_html(loaded), views.latency_markdown(loaded),
            "", gr.update(choices=views.cell_choices(loaded), value=None), gr.skip())


@dataclass(frozen=True)
class ReportHandlers:
    """The handlers that call the gateway, with the client and the server's defaults."""

    client: GatewayClient
    defaults: ServerDefaults

    async def refresh_models(self, url: str, key: str) -> tuple[Any, ...]:
        """The gateway's own model ids added to the picker (error banner, models)."""
        try:
            _, ids = await test_connection(self.client, self.defaults, url, key)
        except GatewayError as problem:
            return banner_update(error_text(problem)), gr.skip()
        return banner_update(""), gr.update(choices=model_choices(True, ids))

    async def run_checks(self, state: ReportSession, url: str, key: str, chosen_formats: list[str], chosen_models: list[str],
                         chosen_checks: list[str], value: str, cap: float, seconds: float | None,
                         progress: gr.Progress = gr.Progress()) -> AsyncIterator[tuple[Any, ...]]:
        """Run: error banner, the summary with a progress line, the matrix, as each probe ends."""
        try:
            scope = build_scope(chosen_formats, chosen_models, chosen_checks, value == "thorough", seconds)
            pacer = ViewPacer()
            async for run_state in run(self.client, self.defaults, url, key, state, scope, int(cap)):
                current = run_state.current()
                progress((run_state.done, run_state.total), desc=say("report.progress", done=run_state.done, total=run_state.total) + (f" · {current}" if current else ""))
                if not (run_state.report.finished or pacer.due()):
                    continue
                started = pacer.clock()
                line = say("report.done", done=run_state.done, total=run_state.total) + (say("report.running", current=current) if current else "")
                shown = views.summary_markdown(run_state.report, line), views.matrix_html(run_state.report)
                pacer.built(started)
                yield banner_update(""), *shown
        except GatewayError as problem:
            yield banner_update(error_text(problem)), gr.skip(), gr.skip()

    async def load_test(self, state: ReportSession, url: str, key: str, fmt: str, model: str, highest: float,
                        rate: float | None) -> AsyncIterator[tuple[Any, ...]]:
        """The load run: error banner, the TTFT and tokens/s plots, the error table, per step."""
        try:
            async for _ in run_load(self.client, self.defaults, url, key, state, fmt, model, int(highest), rate or 0):
                ttft, tokens, table = views.load_plot_rows(state.report)
                yield banner_update(""), pd.DataFrame(ttft, columns=["concurrency", "ms", "series"]), pd.DataFrame(tokens, columns=["concurrency", "tokens/s", "series"]), table
        except GatewayError as problem:
            yield banner_update(error_text(problem)), gr.skip(), gr.skip(), gr.skip()
