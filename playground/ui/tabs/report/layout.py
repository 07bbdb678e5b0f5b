"""The Report tab's layout: scope pickers, Run / Stop with a progress line, the summary, the
matrix (click a cell to open its calls), latency, the load run, downloads, and a saved report
loaded to diff the next run against."""

from __future__ import annotations

from typing import Any

import gradio as gr

from playground.ui.i18n import say, t
import pandas as pd

from playground.client.errors import GatewayError
from playground.client.report import document
from playground.client.report.model import CHECKS, FORMATS, QUICK_CHECKS, QUICK_FORMATS, TEXT_FORMATS
from playground.client.report.runner import MAX_CONCURRENCY, mark_stopped
from playground.ui.tabs.report import handlers
from playground.ui.tabs.report import views
from playground.ui.shared.connection import test_connection
from playground.ui.tabs.context import TabContext
from playground.ui.shared.render import error_text
from playground.ui.shared.widgets import Inspector, banner_update, error_banner

MATRIX_JS = """element.addEventListener('click', (e) => {
  const cell = e.target.closest('[data-cell]');
  if (cell) { trigger('click', {cell: cell.dataset.cell}); }
});"""
CHECK_CHOICES = [(t(f"rep.check.{c.id}"), c.id) for c in CHECKS]
"""The client's checks, named through the catalogue; the values the handlers read are the check ids."""
FORMAT_CHOICES = [(t(f"rep.format.{f}"), f) for f in FORMATS]


def build_report_tab(ctx: TabContext) -> None:
    session = gr.State(handlers.ReportSession())
    gr.Markdown(t("report.check_a_whole_gateway"))
    with gr.Row():
        depth = gr.Radio([(t("report.quick"), "quick"), (t("report.thorough"), "thorough")], value="quick",
                         label=t("report.depth"), elem_id="report-depth")
        concurrency = gr.Slider(1, MAX_CONCURRENCY, value=4, step=1, label=t("report.probes_at_once"), elem_id="report-concurrency")
        budget = gr.Number(2.0, label=t("report.time_to_first_token"), elem_id="report-ttft-budget")
    formats = gr.CheckboxGroup(FORMAT_CHOICES, value=list(QUICK_FORMATS), label=t("report.formats"), elem_id="report-formats")
    with gr.Row():
        models = gr.Dropdown(handlers.model_choices(), value=handlers.default_models(False), multiselect=True,
                             label=t("report.models_format_model"), elem_id="report-models", scale=5)
        refresh = gr.Button(t("report.add_the_gateway_s"), size="sm", elem_id="report-refresh-models", scale=1)
    checks = gr.CheckboxGroup(CHECK_CHOICES, value=list(QUICK_CHECKS), label=t("report.checks"), elem_id="report-checks")
    with gr.Row():
        run_button = gr.Button(t("report.run_report"), variant="primary", elem_id="report-run")
        stop_button = gr.Button(t("conversation.stop"), variant="stop", elem_id="report-stop")
    error = error_banner("report")
    summary = gr.Markdown(elem_id="report-summary")
    diff = gr.Markdown(elem_id="report-diff")
    matrix = gr.HTML(t("report.p_run_a_report"), js_on_load=MATRIX_JS, elem_id="report-matrix")
    with gr.Accordion(t("report.a_cell_s_calls"), open=False, elem_id="report-cell-panel") as cell_panel:
        cell = gr.Dropdown([], label=t("report.cell"), elem_id="report-cell")
        verdict = gr.Markdown(elem_id="report-cell-verdict")
        inspector = Inspector.build("report")
        call = gr.Dropdown([], label=t("report.call_of_this_cell"), elem_id="report-call")
    with gr.Accordion(t("report.latency"), open=False, elem_id="report-latency-panel"):
        latency = gr.Markdown(elem_id="report-latency")
    with gr.Accordion(t("report.load_run_local_mode"), open=False, elem_id="report-load-panel"):
        if ctx.defaults.hosted:
            gr.Markdown(t("report.load_hosted"), elem_id="report-load-refused")
        with gr.Row():
            load_format = gr.Dropdown([(t(f"rep.format.{f}"), f) for f in TEXT_FORMATS], value="chat", label=t("report.format"), elem_id="report-load-format")
            load_model = gr.Textbox("gx-2.5-flash", label=t("common.model"), elem_id="report-load-model")
            load_max = gr.Slider(1, 64, value=8, step=1, label=t("report.highest_concurrency"), elem_id="report-load-max")
            load_stop = gr.Number(50, label=t("report.stop_above_this_error"), elem_id="report-load-stop-rate")
        load_button = gr.Button(t("report.start_the_load_run"), interactive=not ctx.defaults.hosted, elem_id="report-load-run")
        with gr.Row():
            ttft_plot = gr.LinePlot(x="concurrency", y="ms", color="series", label=t("report.plot_ttft"), elem_id="report-load-ttft")
            rate_plot = gr.LinePlot(x="concurrency", y="tokens/s", color="series", label=t("report.plot_rate"), elem_id="report-load-rate")
        load_errors = gr.Markdown(elem_id="report-load-errors")
    with gr.Row():
        downloads = gr.File(label=t("report.downloads_json_markdown_html"), file_count="multiple", interactive=False, elem_id="report-downloads")
        saved = gr.File(label=t("report.load_a_saved_report"), file_types=[".json"], elem_id="report-load-file")

    def finished_outputs(state: handlers.ReportSession) -> tuple[Any, ...]:
        report = state.report
        changes = document.diff(state.baseline, report) if state.baseline is not None and report is not None and report is not state.baseline else None
        files = views.write_downloads(report) if report is not None and report.results else None
        return (views.summary_markdown(report), views.matrix_html(report), views.latency_markdown(report), views.diff_markdown(changes),
                gr.update(choices=views.cell_choices(report), value=None), files)

    async def on_depth(value: str) -> tuple[Any, ...]:
        thorough = value == "thorough"
        return (list(FORMATS) if thorough else list(QUICK_FORMATS), handlers.default_models(thorough),
                [c.id for c in CHECKS] if thorough else list(QUICK_CHECKS))

    async def on_refresh(url: str, key: str) -> tuple[Any, ...]:
        try:
            _, ids = await test_connection(ctx.client, ctx.defaults, url, key)
        except GatewayError as problem:
            return banner_update(error_text(problem)), gr.skip()
        return banner_update(""), gr.update(choices=handlers.model_choices(True, ids))

    async def on_run(state: handlers.ReportSession, url: str, key: str, chosen_formats: list[str], chosen_models: list[str],
                     chosen_checks: list[str], value: str, cap: float, seconds: float | None, progress: gr.Progress = gr.Progress()) -> Any:
        try:
            scope = handlers.build_scope(chosen_formats, chosen_models, chosen_checks, value == "thorough", seconds)
            async for run_state in handlers.run(ctx.client, ctx.defaults, url, key, state, scope, int(cap)):
                current = run_state.current()
                progress((run_state.done, run_state.total), desc=say("report.progress", done=run_state.done, total=run_state.total) + (f" · {current}" if current else ""))
                line = say("report.done", done=run_state.done, total=run_state.total) + (say("report.running", current=current) if current else "")
                yield banner_update(""), views.summary_markdown(run_state.report, line), views.matrix_html(run_state.report)
        except GatewayError as problem:
            yield banner_update(error_text(problem)), gr.skip(), gr.skip()

    outputs_end = [summary, matrix, latency, diff, cell, downloads]
    running = run_button.click(on_run, [session, *ctx.connection, formats, models, checks, depth, concurrency, budget],
                               [error, summary, matrix], concurrency_limit=None, show_progress="minimal")
    running.then(finished_outputs, session, outputs_end, queue=False)
    def on_stop(state: handlers.ReportSession) -> tuple[Any, ...]:
        if state.report is not None:
            mark_stopped(state.report)
        return finished_outputs(state)

    stop_button.click(on_stop, session, outputs_end, cancels=[running], queue=False)
    depth.input(on_depth, depth, [formats, models, checks], queue=False)
    refresh.click(on_refresh, ctx.connection, [error, models], concurrency_limit=None)

    def show_cell(state: handlers.ReportSession, key: str | None) -> tuple[Any, ...]:
        result = views.find_cell(state.report, key or "")
        if result is None:
            return (gr.skip(),) * 9
        calls = [f"{i + 1}. {e.method} {e.url} → {e.status if e.status is not None else '—'}" for i, e in enumerate(result.exchanges)]
        return (gr.update(open=True), key, views.cell_verdict(result), *Inspector.values(result.exchanges[-1] if result.exchanges else None),
                gr.update(choices=calls, value=calls[-1] if calls else None))

    def on_matrix_click(state: handlers.ReportSession, event: gr.EventData) -> tuple[Any, ...]:
        return show_cell(state, str((getattr(event, "_data", None) or {}).get("cell", "")))

    def show_call(state: handlers.ReportSession, key: str | None, chosen: str | None) -> tuple[Any, ...]:
        result = views.find_cell(state.report, key or "")
        number = (chosen or "").split(".", 1)[0]
        index = int(number) - 1 if number.isdigit() else -1
        if result is None or not 0 <= index < len(result.exchanges):
            return (gr.skip(),) * 5
        return Inspector.values(result.exchanges[index])

    cell_outputs = [cell_panel, cell, verdict, *inspector.components, call]
    matrix.click(on_matrix_click, session, cell_outputs, queue=False)
    cell.input(show_cell, [session, cell], cell_outputs, queue=False)
    call.input(show_call, [session, cell, call], inspector.components, queue=False)

    def on_saved(state: handlers.ReportSession, path: str | None) -> tuple[Any, ...]:
        try:
            loaded = handlers.load_saved(path)
        except GatewayError as problem:
            return (banner_update(error_text(problem)),) + (gr.skip(),) * 6
        state.baseline, state.report = loaded, loaded
        note = say("rep.loaded", gateway=views.plain(loaded.gateway))
        return (banner_update(""), views.summary_markdown(loaded, note), views.matrix_html(loaded), views.latency_markdown(loaded),
                "", gr.update(choices=views.cell_choices(loaded), value=None), gr.skip())

    saved.upload(on_saved, [session, saved], [error, *outputs_end], queue=False)

    async def on_load_run(state: handlers.ReportSession, url: str, key: str, fmt: str, model: str, highest: float, rate: float | None) -> Any:
        try:
            async for _ in handlers.run_load(ctx.client, ctx.defaults, url, key, state, fmt, model, int(highest), rate or 0):
                ttft, tokens, table = views.load_plot_rows(state.report)
                yield banner_update(""), pd.DataFrame(ttft, columns=["concurrency", "ms", "series"]), pd.DataFrame(tokens, columns=["concurrency", "tokens/s", "series"]), table
        except GatewayError as problem:
            yield banner_update(error_text(problem)), gr.skip(), gr.skip(), gr.skip()

    load_button.click(on_load_run, [session, *ctx.connection, load_format, load_model, load_max, load_stop],
                      [error, ttft_plot, rate_plot, load_errors], concurrency_limit=None)
