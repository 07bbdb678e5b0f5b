"""The Batch tab's layout: a prompt template, a data set, one to eight columns chosen as in
Compare, graders, the runner's progress bar with Stop and Resume, the leaderboard, the results
grid whose cells open their request, raw events and curl, blind A/B votes, prices and exports.

The layout lays out and wires; the events run `handlers.BatchHandlers`' methods. Every handler
that reads a run names its owner (`owners.current_owner`, from the event's request): the run id in
the browser's store is only a pointer, and another visitor's id opens nothing."""

from __future__ import annotations

from typing import Any

import gradio as gr

from playground.ui.i18n import choices, t
from playground.gradio_compat import current_blocks

from playground.client.batch.graders import KINDS
from playground.client.batch.plan import MAX_COLUMNS, MAX_REPEATS
from playground.client.batch.report import FILTERS
from playground.client.batch.store import runs_directory
from playground.settings import Settings
from playground.ui.tabs.batch.columns import ColumnSettingsInputs, used_text
from playground.ui.tabs.batch.handlers import GRADER_SLOTS, BatchHandlers, BatchState
from playground.ui.tabs.batch.runs import BatchRuns
from playground.ui.tabs.batch.views import preview_rows
from playground.ui.shared.column_picker import ColumnPicker, model_ids
from playground.ui.tabs.context import TabContext
from playground.ui.shared.prices import PriceEditor
from playground.ui.conversation.prompt_move import BatchTarget
from playground.ui.shared.widgets import Inspector, error_banner, notice_banner

KIND_CHOICES = [(t("bgrader.none"), "")] + [(t(f"bgrader.{kind}"), kind) for kind in KINDS]
"""The client's grader kinds, named through the catalogue; the values the handlers read are the kinds."""
PRESETS = {
    "Two models through chat completions": [("chat", "gx-2.5-flash"), ("chat", "gpt-4.1")],
    "One model family through all four formats": [("chat", "gx-2.5-flash"), ("responses", "gx-2.5-flash"),
                                                  ("messages", "cl-sonnet-4-5-20250929"), ("native", "gx-2.5-flash")],
}
LAST_RUN_KEY = "gateway-playground-batch-run"


def batch_stores() -> tuple[gr.BrowserState, gr.BrowserState]:
    """The Batch tab's browser stores (last run, prices), made by the app before its `gr.Tabs`:
    a tab's content mounts only when opened, and these are read on page load. Made between the tabs,
    they shifted Gradio's tab indexes (after opening Batch, its button took the Video tab's place)."""
    return gr.BrowserState({"run_id": ""}, storage_key=LAST_RUN_KEY), PriceEditor.store()


def build_batch_tab(ctx: TabContext) -> None:
    """Lay out the tab and wire its events; its stores (`batch_stores`) are `ctx.stores["batch"]`."""
    settings = ctx.settings
    runs = BatchRuns(runs_directory(settings.data_dir), settings.batch_max_rows)
    last_run, saved_prices = ctx.stores["batch"]
    _layout(ctx, settings, runs, last_run, saved_prices)


def _layout(ctx: TabContext, settings: Settings, runs: BatchRuns, last_run: gr.BrowserState, saved_prices: gr.BrowserState) -> None:
    state = gr.State(BatchState())
    with gr.Row():
        with gr.Column(scale=3):
            system = gr.Textbox(label=t("batch.system_prompt_template"), lines=1, elem_id="batch-system")
            user = gr.Textbox(label=t("batch.user_prompt_template_column"), lines=3,
                              value="Answer in one sentence: {{question}}", elem_id="batch-user")
            check = gr.Markdown(elem_id="batch-check")
            to_chat = gr.Button(t("batch.to_chat"), size="sm", elem_id="batch-to-chat")
        with gr.Column(scale=3):
            upload = gr.File(label=t("batch.dataset") + f" {settings.batch_max_rows:,}",
                             file_types=[".csv", ".jsonl", ".xlsx"], type="filepath", elem_id="batch-upload")
            paste = gr.Textbox(label=t("batch.or_paste_rows_one"), lines=3, elem_id="batch-paste")
            use_paste = gr.Button(t("batch.use_the_pasted_rows"), size="sm", elem_id="batch-paste-use")
            data_status = gr.Markdown(elem_id="batch-data-status")
    preview = gr.Dataframe(value=preview_rows(None), label=t("batch.preview_first_10_rows"), interactive=False, max_height=260, elem_id="batch-preview")
    own = ColumnSettingsInputs("batch")
    picker = ColumnPicker.build("batch", PRESETS, MAX_COLUMNS, extra=own.add)
    with gr.Row():
        repeats = gr.Number(1, minimum=1, maximum=MAX_REPEATS, label=t("batch.repeat_each_row_n"), elem_id="batch-repeats")
        concurrency = gr.Slider(1, settings.batch_concurrency, value=min(4, settings.batch_concurrency), step=1,
                                label=t("batch.requests_at_once"), elem_id="batch-concurrency")
        temperature = gr.Textbox("", label=t("batch.temperature_empty_not_set"), elem_id="batch-temperature")
        max_tokens = gr.Number(0, label=t("batch.max_tokens_all"), elem_id="batch-max-tokens")
        with gr.Column(min_width=160):
            stream = gr.Checkbox(True, label=t("batch.stream_gives_time_to"), elem_id="batch-stream")
            cache = gr.Checkbox(False, label=t("batch.answer_identical_requests_from"), elem_id="batch-cache")
    used = gr.Markdown(used_text(picker.values_for(next(iter(PRESETS))), [], "", 0, True), elem_id="batch-columns-used")
    with gr.Accordion(t("batch.graders"), open=True, elem_id="batch-graders"):
        grader_inputs: list[Any] = []
        for slot in range(GRADER_SLOTS):
            with gr.Row():
                grader_inputs += [
                    gr.Dropdown(KIND_CHOICES, value="", label=t("batch.grader") + f" {slot + 1}", elem_id=f"batch-grader-kind-{slot}", scale=2),
                    gr.Textbox(label=t("batch.text_regex_json_schema"), elem_id=f"batch-grader-value-{slot}", scale=4),
                    gr.Number(0, minimum=0, label=t("batch.min_length"), elem_id=f"batch-grader-min-{slot}", scale=1),
                    gr.Number(0, minimum=0, label=t("batch.max_length_0_none"), elem_id=f"batch-grader-max-{slot}", scale=1),
                    gr.Dropdown(model_ids(), value="gx-2.5-flash", allow_custom_value=True, label=t("batch.grading_model_model_graded"),
                                elem_id=f"batch-grader-model-{slot}", scale=2),
                ]
    with gr.Row():
        run = gr.Button(t("batch.run"), variant="primary", elem_id="batch-run")
        stop = gr.Button(t("conversation.stop"), variant="stop", elem_id="batch-stop")
        resume = gr.Button(t("common.resume"), elem_id="batch-resume")
        rerun_errors = gr.Checkbox(False, label=t("batch.resume_also_resends_cells"), elem_id="batch-rerun-errors")
    error = error_banner("batch")
    notice = notice_banner("batch")
    progress = gr.HTML(t("bview.idle"), elem_id="batch-progress")
    board = gr.Markdown(elem_id="batch-leaderboard")
    with gr.Row():
        shown = gr.Radio(choices(FILTERS), value=FILTERS[0], label=t("batch.show"), elem_id="batch-filter")
        sort = gr.Dropdown([(t("bview.sort.row"), "row")], value="row", label=t("batch.sort_by"), elem_id="batch-sort")
    grid_note = gr.Markdown(elem_id="batch-grid-note")
    table = gr.Dataframe(interactive=False, wrap=True, max_height=520, elem_id="batch-grid", show_search="filter")
    cell = gr.Markdown(elem_id="batch-cell")
    inspector = Inspector.build("batch")
    grader_exchange = gr.Code(language="json", label=t("batch.model_grader_s_request"), interactive=False, elem_id="batch-grader-exchange")
    with gr.Accordion(t("batch.blind_a_b_which"), open=False, elem_id="batch-ab"):
        with gr.Row():
            left = gr.Dropdown([("C1", 0)], value=0, label=t("common.first_column"), elem_id="batch-ab-left")
            right = gr.Dropdown([("C2", 1)], value=1, label=t("common.second_column"), elem_id="batch-ab-right")
            next_pair = gr.Button(t("batch.show_a_pair"), elem_id="batch-ab-next")
        ab_prompt = gr.Markdown(elem_id="batch-ab-prompt")
        with gr.Row():
            answer_a = gr.Textbox(label=t("batch.answer_a"), lines=6, interactive=False, elem_id="batch-ab-a")
            answer_b = gr.Textbox(label=t("batch.answer_b"), lines=6, interactive=False, elem_id="batch-ab-b")
        with gr.Row():
            vote_a = gr.Button(t("batch.a_is_better"), elem_id="batch-vote-a")
            vote_tie = gr.Button(t("batch.tie"), elem_id="batch-vote-tie")
            vote_b = gr.Button(t("batch.b_is_better"), elem_id="batch-vote-b")
        ab_status = gr.Markdown(elem_id="batch-ab-status")
    prices = PriceEditor.build("batch", saved_prices, ctx.prices)
    with gr.Accordion(t("batch.export_and_session_file"), open=False, elem_id="batch-export-panel"):
        with gr.Row():
            export = gr.Button(t("batch.export_this_run"), elem_id="batch-export")
            load_session = gr.UploadButton(t("batch.load_a_session_file"), file_types=[".json"], type="filepath", elem_id="batch-session-load")
        files = gr.File(label=t("batch.csv_jsonl_leaderboard_md"), file_count="multiple", elem_id="batch-export-files")
        session_status = gr.Markdown(elem_id="batch-session-status")

    picker.wire()
    page = current_blocks()
    assert page is not None  # the Batch tab is built inside the page's gr.Blocks
    prices.wire(page)
    form = [system, user, *picker.inputs, repeats, concurrency, temperature, max_tokens, stream, cache, *grader_inputs, *own.components]
    handlers = BatchHandlers(ctx, runs, len(picker.inputs), len(grader_inputs), len(own.components))

    shown_settings = [temperature, max_tokens, stream, *picker.inputs, *own.components]
    gr.on([c.change for c in shown_settings], handlers.on_settings, shown_settings, used, queue=False, show_progress="hidden")

    view_outputs = [progress, board, table, grid_note, sort, left, right]
    ctx.prompts.register_batch(BatchTarget(to_chat, system, user, state, handlers.on_receive, [state, system, user, data_status, preview, check]))
    upload.upload(handlers.on_data, [state, upload, paste, system, user], [state, data_status, preview, check], queue=False)
    use_paste.click(handlers.on_paste, [state, paste, system, user], [state, data_status, preview, check], queue=False)
    gr.on([system.change, user.change], handlers.on_template, [state, system, user], check, queue=False)

    on_watch, on_end = handlers.on_watch, handlers.on_end  # one function each: both runs' watchers share its queue, as before
    ends = [*view_outputs, error]
    started = run.click(handlers.on_run, [state, *ctx.connection, *form], [state, error, notice, last_run], queue=False)
    watching = started.then(on_watch, state, progress, concurrency_limit=None, show_progress="hidden")
    watching.then(on_end, [state, shown, sort], ends, queue=False)
    resumed = resume.click(handlers.on_resume, [state, rerun_errors, *ctx.connection], [state, error, notice], queue=False)
    watching_again = resumed.then(on_watch, state, progress, concurrency_limit=None, show_progress="hidden")
    watching_again.then(on_end, [state, shown, sort], ends, queue=False)
    stop.click(handlers.on_stop, [state, shown, sort], ends, cancels=[watching, watching_again], queue=False)
    gr.on([shown.input, sort.input], handlers.on_view, [state, shown, sort], [table, grid_note], queue=False)
    page.load(handlers.on_restore, [state, last_run], [state, *view_outputs], queue=False)
    table.select(handlers.on_select, state, [cell, *inspector.components, grader_exchange], queue=False)

    next_pair.click(handlers.on_pair, [state, left, right], [state, ab_prompt, answer_a, answer_b], queue=False)
    for button, voted in ((vote_a, handlers.vote_a), (vote_tie, handlers.vote_tie), (vote_b, handlers.vote_b)):
        button.click(voted, [state, left, right, shown, sort], [state, ab_status, ab_prompt, answer_a, answer_b, board], queue=False)
    export.click(handlers.on_export, state, [files, session_status], queue=False)
    load_session.upload(handlers.on_load, [state, load_session], [state, session_status, *form, data_status, preview, check], queue=False)
