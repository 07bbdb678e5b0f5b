"""The Report tab's layout: scope pickers, Run / Stop with a progress line, the summary, the
matrix (click a cell to open its calls), latency, the load run, downloads, and a saved report
loaded to diff the next run against."""

from __future__ import annotations

from typing import Any

import gradio as gr

from playground.ui.i18n import t, t_client

from playground.client.report.model import CHECKS, FORMAT_LABELS, FORMATS, QUICK_CHECKS, QUICK_FORMATS, TEXT_FORMATS, catalog_models
from playground.client.report.runner import MAX_CONCURRENCY
from playground.ui.tabs.report import handlers
from playground.ui.tabs.report.history import ReportHistory
from playground.ui.tabs.context import TabContext
from playground.ui.shared.examples import Example, ExampleRow
from playground.ui.shared.widgets import Inspector, error_banner

MATRIX_JS = """element.addEventListener('click', (e) => {
  const cell = e.target.closest('[data-cell]');
  if (cell) { trigger('click', {cell: cell.dataset.cell}); }
});"""
CHECK_CHOICES = [(t_client(c.label), c.id) for c in CHECKS]
"""The client's checks, named through the catalogue; the values the handlers read are the check ids."""
FORMAT_CHOICES = [(t_client(FORMAT_LABELS[f]), f) for f in FORMATS]

EXAMPLES = [
    Example(t("report.example.quick"), t("report.example.quick_explains"), {"depth": "quick"}),
    Example(t("report.example.messages"), t("report.example.messages_explains"),
            {"formats": ["messages"], "models": [handlers.model_value("messages", m) for m in catalog_models("messages")]}),
    Example(t("report.example.streams"), t("report.example.streams_explains"),
            {"formats": list(TEXT_FORMATS), "checks": ["stream", "finish", "ttft"],
             "models": [handlers.model_value(f, m) for f in TEXT_FORMATS for m in catalog_models(f)]}),
]
"""Each fills the scope pickers (the others back to the quick defaults); Run report runs it. The
demo gateway plants its defects per server (`DEMO_QUIRKS`), not per request, so no example shows them."""


def _load_run(hosted: bool) -> tuple[Any, ...]:
    """The load run's accordion (refused when hosted): (format, model, highest concurrency, stop
    rate, start button, TTFT plot, rate plot, errors)."""
    with gr.Accordion(t("report.load_run_local_mode"), open=False, elem_id="report-load-panel"):
        if hosted:
            gr.Markdown(t("report.load_hosted"), elem_id="report-load-refused")
        with gr.Row():
            load_format = gr.Dropdown([(t_client(FORMAT_LABELS[f]), f) for f in TEXT_FORMATS], value="chat", label=t("report.format"),
                                      interactive=not hosted, elem_id="report-load-format")
            load_model = gr.Textbox("gx-2.5-flash", label=t("common.model"), interactive=not hosted, elem_id="report-load-model")
            load_max = gr.Slider(1, 64, value=8, step=1, label=t("report.highest_concurrency"), interactive=not hosted, elem_id="report-load-max")
            load_stop = gr.Number(50, label=t("report.stop_above_this_error"), interactive=not hosted, elem_id="report-load-stop-rate")
        load_button = gr.Button(t("report.start_the_load_run"), interactive=not hosted, elem_id="report-load-run")
        with gr.Row():
            ttft_plot = gr.LinePlot(x="concurrency", y="ms", color="series", label=t("report.plot_ttft"), elem_id="report-load-ttft")
            rate_plot = gr.LinePlot(x="concurrency", y="tokens/s", color="series", label=t("report.plot_rate"), elem_id="report-load-rate")
        load_errors = gr.Markdown(elem_id="report-load-errors")
    return load_format, load_model, load_max, load_stop, load_button, ttft_plot, rate_plot, load_errors


def _history() -> tuple[Any, ...]:
    """The history accordion: (panel, older report, newer report, note, refresh, compare, diff)."""
    with gr.Accordion(t("report.history.title"), open=False, elem_id="report-history-panel") as panel:
        note = gr.Markdown(elem_id="report-history-note")
        with gr.Row():
            before = gr.Dropdown([], label=t("report.history.before"), elem_id="report-history-before")
            after = gr.Dropdown([], label=t("report.history.after"), elem_id="report-history-after")
        with gr.Row():
            refresh = gr.Button(t("report.history.refresh"), size="sm", elem_id="report-history-refresh")
            compare = gr.Button(t("report.history.compare"), variant="primary", elem_id="report-history-compare")
        diff = gr.Markdown(elem_id="report-history-diff")
    return panel, before, after, note, refresh, compare, diff


def build_report_tab(ctx: TabContext) -> None:
    session = gr.State(handlers.ReportSession())
    gr.Markdown(t("report.check_a_whole_gateway"))
    examples = ExampleRow.build("report", EXAMPLES, shows="report-run")
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
    load_format, load_model, load_max, load_stop, load_button, ttft_plot, rate_plot, load_errors = _load_run(ctx.defaults.hosted)
    with gr.Row():
        downloads = gr.File(label=t("report.downloads_json_markdown_html"), file_count="multiple", interactive=False, elem_id="report-downloads")
        saved = gr.File(label=t("report.load_a_saved_report"), file_types=[".json"], elem_id="report-load-file")
    history_panel, before, after, history_note, history_refresh, history_compare, history_diff = _history()

    examples.wire({"depth": depth, "concurrency": concurrency, "budget": budget, "formats": formats, "models": models, "checks": checks})
    wired = handlers.ReportHandlers(ctx.client, ctx.defaults)
    outputs_end = [summary, matrix, latency, diff, cell, downloads]
    running = run_button.click(wired.run_checks, [session, *ctx.connection, formats, models, checks, depth, concurrency, budget],
                               [error, summary, matrix], concurrency_limit=None, show_progress="minimal")
    kept = ReportHistory(ctx.settings.data_dir, ctx.settings.hosted)
    history_lists = [before, after, history_note]
    running.then(handlers.finished, session, outputs_end, queue=False).then(kept.keep_finished, session, history_lists, queue=False)
    stop_button.click(handlers.stop, session, outputs_end, cancels=[running], queue=False).then(kept.keep_finished, session, history_lists, queue=False)
    history_panel.expand(kept.listed, None, history_lists, queue=False)
    history_refresh.click(kept.listed, None, history_lists, queue=False)
    history_compare.click(kept.compare, [before, after], history_diff, queue=False)
    depth.input(handlers.depth_changed, depth, [formats, models, checks], queue=False)
    refresh.click(wired.refresh_models, ctx.connection, [error, models], concurrency_limit=None)

    cell_outputs = [cell_panel, cell, verdict, *inspector.components, call]
    matrix.click(handlers.matrix_clicked, session, cell_outputs, queue=False)
    cell.input(handlers.show_cell, [session, cell], cell_outputs, queue=False)
    call.input(handlers.show_call, [session, cell, call], inspector.components, queue=False)
    saved.upload(handlers.saved_uploaded, [session, saved], [error, *outputs_end], queue=False)
    load_button.click(wired.load_test, [session, *ctx.connection, load_format, load_model, load_max, load_stop],
                      [error, ttft_plot, rate_plot, load_errors], concurrency_limit=None)
