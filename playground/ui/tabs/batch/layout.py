"""The Batch tab's layout: a prompt template, a data set, one to eight columns chosen as in
Compare, graders, the runner's progress bar with Stop and Resume, the leaderboard, the results
grid whose cells open their request, raw events and curl, blind A/B votes, prices and exports.

Every handler that reads a run names its owner (`owners.current_owner`, from the event's request):
the run id in the browser's store is only a pointer, and another visitor's id opens nothing."""

from __future__ import annotations

from typing import Any

import gradio as gr

from playground.ui.i18n import choices, say, t
from playground.gradio_compat import current_blocks, current_request

from playground.client.batch.dataset import DatasetError
from playground.client.batch.graders import KINDS
from playground.client.batch.plan import MAX_COLUMNS, MAX_REPEATS, PlanError
from playground.client.batch.report import FILTERS
from playground.client.batch.store import RUN_ID, cell_key, runs_directory
from playground.client.batch.template import TemplateError
from playground.client.errors import GatewayError
from playground.settings import Settings
from playground.ui.tabs.batch import handlers as work
from playground.ui.tabs.batch.columns import ColumnSettingsInputs, session_setting_values, used_text
from playground.ui.tabs.batch.handlers import GRADER_SLOTS, BatchState
from playground.ui.tabs.batch.runs import BatchRuns
from playground.ui.tabs.batch.views import (cell_markdown, column_of_grid_index, grader_exchanges_json, grid, pick_pair,
                                       preview_rows, progress_html, sort_choices)
from playground.ui.i18n.client_words import word, word_list
from playground.ui.shared.column_picker import ColumnPicker, model_ids
from playground.ui.shared.connection import resolve_connection
from playground.ui.tabs.context import TabContext
from playground.ui.web.owned_files import owned_folder
from playground.ui.web.owners import current_owner
from playground.ui.shared.prices import PriceEditor
from playground.ui.conversation.prompt_move import BatchTarget
from playground.ui.shared.render import error_text, plain
from playground.ui.shared.widgets import Inspector, banner_update, error_banner, notice_banner

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
    n_cols = len(picker.inputs)
    n_graders = len(grader_inputs)

    def plan_of(batch: BatchState, values: tuple[Any, ...]) -> tuple[Any, list[str]]:
        system_text, user_text = values[0], values[1]
        cols = list(values[2:2 + n_cols])
        rep, conc, temp, tokens, streamed, cached = values[2 + n_cols:8 + n_cols]
        graders = list(values[8 + n_cols:8 + n_cols + n_graders])
        return work.plan_from_form(system_text, user_text, batch.dataset, cols, rep, conc, temp, tokens, streamed, cached, graders,
                                   settings.batch_max_rows, settings.batch_concurrency, list(values[8 + n_cols + n_graders:]))

    def on_settings(temp: Any, tokens: Any, streamed: Any, *values: Any) -> str:
        return used_text(list(values[:n_cols]), list(values[n_cols:]), temp, tokens, streamed)

    shown_settings = [temperature, max_tokens, stream, *picker.inputs, *own.components]
    gr.on([c.change for c in shown_settings], on_settings, shown_settings, used, queue=False, show_progress="hidden")

    def owner() -> str | None:
        """Who the current event acts for (`owners.current_owner`)."""
        return current_owner(settings.hosted)

    def views(batch: BatchState, filter_name: str = FILTERS[0], order: str = "row") -> tuple[Any, ...]:
        """progress, leaderboard, grid, grid note, sort choices, A/B column choices (x2)."""
        try:
            run_file, plan = runs.open(batch.run_id, owner())
        except (OSError, ValueError):
            return (progress_html(None), "", gr.skip(), "", gr.skip(), gr.skip(), gr.skip())
        runner = runs.active(batch.run_id)
        value, note = grid(plan, run_file, ctx.prices.current(), filter_name, order)
        labels = [(f"C{i + 1} {model}", i) for i, (_, model) in enumerate(plan.columns)]
        return (progress_html(runner.progress if runner else work.progress_of(run_file, plan)), work.leaderboard_text(plan, run_file, ctx.prices.current()),
                value, note, gr.update(choices=sort_choices(plan), value=order if order in {value for _, value in sort_choices(plan)} else "row"),
                gr.update(choices=labels, value=0), gr.update(choices=labels, value=1 if len(labels) > 1 else 0))

    view_outputs = [progress, board, table, grid_note, sort, left, right]

    async def on_data(batch: BatchState, path: str | None, pasted: str, system_text: str, user_text: str) -> tuple[Any, ...]:
        try:
            dataset = await work.load_dataset(path, pasted, system_text, user_text, settings.batch_max_rows)
        except (DatasetError, TemplateError, OSError) as problem:
            return batch, say("bview.not_loaded", problem=plain(word(str(problem)))), gr.skip(), gr.skip()
        batch.dataset = dataset
        return batch, work.dataset_status(dataset), preview_rows(dataset), work.template_check(system_text, user_text, dataset)

    def on_receive(batch: BatchState, system_text: str, user_text: str, dataset: Any) -> tuple[Any, ...]:
        batch.dataset = dataset
        return (batch, system_text, user_text, work.dataset_status(dataset), preview_rows(dataset),
                work.template_check(system_text, user_text, dataset))

    ctx.prompts.register_batch(BatchTarget(to_chat, system, user, state, on_receive, [state, system, user, data_status, preview, check]))
    upload.upload(on_data, [state, upload, paste, system, user], [state, data_status, preview, check], queue=False)
    async def on_paste(batch: BatchState, pasted: str, system_text: str, user_text: str) -> tuple[Any, ...]:
        return await on_data(batch, None, pasted, system_text, user_text)

    use_paste.click(on_paste, [state, paste, system, user], [state, data_status, preview, check], queue=False)
    gr.on([system.change, user.change], lambda b, s, u: work.template_check(s, u, b.dataset), [state, system, user], check, queue=False)

    async def on_run(batch: BatchState, url: str, key: str, *values: Any) -> tuple[Any, ...]:
        started_by = owner()
        try:
            plan, warnings = plan_of(batch, values)
            conn = resolve_connection(ctx.defaults, url, key)
        except PlanError as problem:
            return batch, banner_update(say("bview.not_started", problems=plain(word_list(problem.problems)))), banner_update(""), gr.skip()
        except GatewayError as problem:
            return batch, banner_update(error_text(problem)), banner_update(""), gr.skip()
        if started_by is None:  # hosted, and the request names no visitor: nobody to own the run
            return batch, banner_update(say("bview.no_owner")), banner_update(""), gr.skip()
        batch.run_id = work.start(runs, ctx.client, conn, plan, started_by)
        note = "⚠️ " + plain(word_list(warnings)) if warnings else ""
        return batch, banner_update(""), banner_update(note), {"run_id": batch.run_id}

    async def on_resume(batch: BatchState, again: bool, url: str, key: str) -> tuple[Any, ...]:
        try:
            conn = resolve_connection(ctx.defaults, url, key)
            work.resume(runs, ctx.client, conn, batch.run_id, bool(again), owner())
        except GatewayError as problem:
            return batch, banner_update(error_text(problem)), banner_update("")
        except (OSError, ValueError):
            return batch, banner_update(say("bview.nothing_to_resume")), banner_update("")
        return batch, banner_update(""), banner_update("")

    async def on_watch(batch: BatchState) -> Any:
        try:
            _run_file, _plan = runs.open(batch.run_id, owner())
        except (OSError, ValueError):
            return
        async for state_now in work.watch(runs, batch.run_id):
            yield progress_html(state_now)

    async def on_end(batch: BatchState, filter_name: str, order: str) -> tuple[Any, ...]:
        problem = work.run_problem(runs, batch.run_id)  # the state's run id: set only for a run this visitor may open
        return (*views(batch, filter_name, order), banner_update(problem) if problem else gr.skip())

    async def on_stop(batch: BatchState, filter_name: str, order: str) -> tuple[Any, ...]:
        await runs.stop(batch.run_id, owner())
        return (*views(batch, filter_name, order), gr.skip())

    def on_view(batch: BatchState, filter_name: str, order: str) -> tuple[Any, ...]:
        return views(batch, filter_name, order)[2:4]

    ends = [*view_outputs, error]
    started = run.click(on_run, [state, *ctx.connection, *form], [state, error, notice, last_run], queue=False)
    watching = started.then(on_watch, state, progress, concurrency_limit=None, show_progress="hidden")
    watching.then(on_end, [state, shown, sort], ends, queue=False)
    resumed = resume.click(on_resume, [state, rerun_errors, *ctx.connection], [state, error, notice], queue=False)
    watching_again = resumed.then(on_watch, state, progress, concurrency_limit=None, show_progress="hidden")
    watching_again.then(on_end, [state, shown, sort], ends, queue=False)
    stop.click(on_stop, [state, shown, sort], ends, cancels=[watching, watching_again], queue=False)
    gr.on([shown.input, sort.input], on_view, [state, shown, sort], [table, grid_note], queue=False)

    def on_restore(batch: BatchState, stored: Any) -> tuple[Any, ...]:
        run_id = stored.get("run_id", "") if isinstance(stored, dict) else ""
        if not isinstance(run_id, str) or not RUN_ID.match(run_id):
            return (batch, *(gr.skip(),) * len(view_outputs))
        try:  # the browser's store is written by the browser: a run that is not this visitor's is not adopted
            runs.open(run_id, owner())
        except (OSError, ValueError):
            return (batch, *(gr.skip(),) * len(view_outputs))
        batch.run_id = run_id
        return (batch, *views(batch))

    page.load(on_restore, [state, last_run], [state, *view_outputs], queue=False)

    def on_select(batch: BatchState, evt: gr.SelectData) -> tuple[Any, ...]:
        try:
            run_file, plan = runs.open(batch.run_id, owner())
            row, repeat = int(evt.row_value[0]) - 1, int(evt.row_value[1]) - 1
        except (OSError, ValueError, TypeError, IndexError):
            return ("", *Inspector.note(""), "")
        column = column_of_grid_index(plan, evt.index[1] if isinstance(evt.index, (list, tuple)) else 0)
        if column is None:
            column = 0
        exchange, detail = work.cell_exchange(run_file, cell_key(row, repeat, column))
        text = cell_markdown(plan, run_file, row, repeat, column, ctx.prices.current())
        shown_exchange = Inspector.values(exchange) if exchange else Inspector.note(say("bview.no_request"))
        return (text, *shown_exchange, grader_exchanges_json(detail))

    table.select(on_select, state, [cell, *inspector.components, grader_exchange], queue=False)

    def on_pair(batch: BatchState, a: Any, b: Any) -> tuple[Any, ...]:
        try:
            run_file, plan = runs.open(batch.run_id, owner())
        except (OSError, ValueError):
            return batch, say("bview.run_first"), "", ""
        pair = pick_pair(plan, run_file, int(a or 0), int(b or 0), work.rng_for(run_file))
        batch.pair = pair
        if pair is None:
            return batch, say("bview.pick_columns"), "", ""
        values = plan.dataset.rows[pair["row"]]
        prompt = say("bview.pair_row", row=pair["row"] + 1, values=plain("; ".join(f"{k}: {v[:200]}" for k, v in values.items())))
        return (batch, prompt, run_file.cells[cell_key(pair["row"], pair["repeat"], pair["a"])].answer,
                run_file.cells[cell_key(pair["row"], pair["repeat"], pair["b"])].answer)

    def on_vote(outcome: str) -> Any:
        def handler(batch: BatchState, a: Any, b: Any, filter_name: str, order: str) -> tuple[Any, ...]:
            try:
                run_file, _ = runs.open(batch.run_id, owner())
            except (OSError, ValueError):
                return (batch, say("bview.run_first"), gr.skip(), gr.skip(), gr.skip(), gr.skip())
            if not work.vote(run_file, batch.pair, outcome):
                return (batch, say("bview.show_pair"), gr.skip(), gr.skip(), gr.skip(), gr.skip())
            count = len(run_file.votes)
            following = on_pair(batch, a, b)
            status = say("bview.voted", count=count)
            return (following[0], status, *following[1:], views(batch, filter_name, order)[1])
        return handler

    next_pair.click(on_pair, [state, left, right], [state, ab_prompt, answer_a, answer_b], queue=False)
    for button, outcome in ((vote_a, "a"), (vote_tie, "tie"), (vote_b, "b")):
        button.click(on_vote(outcome), [state, left, right, shown, sort], [state, ab_status, ab_prompt, answer_a, answer_b, board], queue=False)

    def on_export(batch: BatchState) -> tuple[Any, Any]:
        exported_by = owner()
        try:
            run_file, plan = runs.open(batch.run_id, exported_by)
        except (OSError, ValueError):
            return gr.skip(), say("bview.run_first")
        folder = owned_folder("batch", exported_by or "", current_request())
        return work.exports(plan, run_file, folder, ctx.prices.current()), say("bview.exported", count=f"{len(run_file.cells):,}")

    export.click(on_export, state, [files, session_status], queue=False)

    def on_load(batch: BatchState, path: str | None) -> tuple[Any, ...]:
        try:
            plan = work.read_session(path, settings.batch_max_rows)
        except (PlanError, OSError) as problem:
            message = word_list(problem.problems) if isinstance(problem, PlanError) else word(str(problem))
            return (batch, say("bview.not_loaded", problem=plain(message)), *(gr.skip(),) * (len(form) + 3))
        batch.dataset = plan.dataset
        values = work.session_values(plan, MAX_COLUMNS)
        return (batch, say("bview.loaded", rows=f"{len(plan.dataset.rows):,}", columns=len(plan.columns), graders=len(plan.graders)),
                plan.system, plan.user, *values[:n_cols], plan.repeats, min(plan.concurrency, settings.batch_concurrency),
                "" if plan.temperature is None else repr(plan.temperature), plan.max_tokens or 0, plan.stream, plan.cache, *values[n_cols:],
                *session_setting_values(plan, MAX_COLUMNS), work.dataset_status(plan.dataset), preview_rows(plan.dataset),
                work.template_check(plan.system, plan.user, plan.dataset))

    load_session.upload(on_load, [state, load_session], [state, session_status, *form, data_status, preview, check], queue=False)
