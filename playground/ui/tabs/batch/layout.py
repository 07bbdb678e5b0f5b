"""The Batch tab's layout: the sample example, a prompt template, a data set, one to eight columns
chosen as in Compare (those in use on screen, and "Add a column"), graders (likewise), the runner's
progress bar with Stop and Resume, the leaderboard, the results grid whose cells open their request,
raw events and curl, blind A/B votes, what changed since a baseline run, the kept runs (found by data
set, model and date, and opened), prices and exports.

The layout lays out and wires; the events run `handlers.BatchHandlers`' methods. Every handler
that reads a run names its owner (`owners.current_owner`, from the event's request): the run id in
the browser's store is only a pointer, and another visitor's id opens nothing."""

from __future__ import annotations

from functools import partial
from typing import Any

import gradio as gr

from playground.ui.i18n import choices, english, t, t_client
from playground.gradio_compat import current_blocks

from playground.client.batch.graders import FORM_KINDS, KINDS as GRADER_KINDS
from playground.client.batch.plan import MAX_COLUMNS, MAX_REPEATS
from playground.client.batch.report import FILTERS
from playground.settings import Settings
from playground.ui.conversation.prompt_library import PromptLibrary
from playground.ui.tabs.batch.column_prompts import ColumnPrompts, PromptVersionsExample
from playground.ui.tabs.batch.columns import ColumnSettingsInputs
from playground.ui.tabs.batch.handlers import DEFAULT_TEMPLATE, BatchHandlers, BatchState, closed_cell, reworded_template
from playground.ui.tabs.batch.form import GRADER_SLOTS
from playground.ui.tabs.batch.changes import ChangesHandlers
from playground.ui.tabs.batch.linked import BatchLink
from playground.ui.tabs.batch.runs import BatchRuns
from playground.ui.tabs.batch.sample import EXAMPLES
from playground.ui.tabs.batch.views import preview_rows
from playground.ui.shared.column_picker import ColumnPicker, model_ids
from playground.ui.tabs.context import TabContext, TabParts
from playground.ui.shared.prices import PriceEditor
from playground.ui.shared.examples import ExampleCard, ExampleRow
from playground.ui.shared.links import LinkWriter
from playground.ui.shared.scrolling import into_view_js, shown_into_view_js
from playground.ui.shared.worded_defaults import first_default_js
from playground.ui.conversation.prompt_move import BatchTarget
from playground.ui.shared.widgets import Inspector, error_banner, notice_banner
from playground.ui.web.browser_stores import kept_in_browser

KIND_CHOICES = [(t("bgrader.none"), "")] + [(t_client(GRADER_KINDS[kind]), kind) for kind in FORM_KINDS]
"""The client's grader kinds the boxes offer, named through the catalogue; the values the handlers read are the kinds
(an imported suite's other kinds come with it: `BatchState.suite_graders`)."""
PRESETS = {
    "Two models through chat completions": [("chat", "gx-2.5-flash"), ("chat", "gpt-4.1")],
    "One model family through all four formats": [("chat", "gx-2.5-flash"), ("responses", "gx-2.5-flash"),
                                                  ("messages", "cl-sonnet-4-5-20250929"), ("native", "gx-2.5-flash")],
}
LAST_RUN_KEY = "gateway-playground-batch-run"


def batch_stores() -> tuple[gr.BrowserState, gr.BrowserState, gr.State]:
    """The Batch tab's browser stores (last run, prices) and its session state, made by the app before
    its `gr.Tabs`: a tab's content mounts only when opened, and these are read on page load. Made between
    the tabs, they shifted Gradio's tab indexes (after opening Batch, its button took the Video tab's
    place). The state, which the last run's restore reads on load, sits near the top of the page's tree:
    Gradio's page walks its tree to a completed event's inputs on every later status message (issue 41)."""
    return kept_in_browser({"run_id": ""}, LAST_RUN_KEY), PriceEditor.store(), gr.State(BatchState())


def build_batch_tab(ctx: TabContext) -> TabParts:
    """Lay out the tab and wire its events; its stores (`batch_stores`) are `ctx.stores["batch"]`."""
    settings = ctx.settings
    runs = BatchRuns.at(settings.data_dir, settings.batch_max_rows)
    last_run, saved_prices, state = ctx.stores["batch"]
    tab = BatchPage(ctx, saved_prices, state)
    tab.picker.wire()
    page = current_blocks()
    assert page is not None  # the Batch tab is built inside the page's gr.Blocks
    tab.prices.wire(page)
    worded = [tab.state, tab.temperature, tab.max_tokens, tab.stream, *tab.picker.inputs, *tab.own.components]
    handlers = BatchHandlers(ctx, runs, len(tab.picker.inputs), len(tab.grader_inputs), len(tab.own.components), len(tab.own.offers),
                             first_form=tuple(box.value for box in worded[1:]))
    _wire_inputs(ctx, tab, handlers)
    _wire_slots(tab, handlers)
    _wire_run(ctx, tab, handlers, last_run)
    own_words = [tab.used, tab.preview, tab.table, tab.runs_table]
    worded_on_load = page.load(handlers.on_page_load, None, own_words, queue=False)  # reads nothing: see on_page_load
    worded_on_load.then(None, tab.user, tab.user, js=first_default_js(DEFAULT_TEMPLATE), queue=False)  # in the page, while untouched
    _wire_results(worded_on_load, tab, handlers, last_run)  # the last run and its form after the load's preview, never under it
    _wire_changes(tab, ChangesHandlers(ctx, runs))
    link = BatchLink(ctx, (tab.system.value or "", tab.user.value or ""))  # after the load's preview (a link with a form restores no run)
    opened = worded_on_load.then(link.on_open, [tab.state], [tab.state, *tab.data_outputs, *tab.grader_inputs, tab.link_notice],
                                 queue=False)
    opened.then(None, None, None, js=shown_into_view_js(tab.link_notice.elem_id), queue=False)
    return TabParts(after_language=partial(_reword_after, handlers, worded, own_words, tab),
                    link=LinkWriter(link.on_copy, [tab.state, tab.mock_tools, *tab.grader_inputs]))


def _reword_after(handlers: BatchHandlers, inputs: list[Any], outputs: list[Any], tab: BatchPage, switched: Any) -> None:
    """The language switch: the columns-used line, the empty preview, grid and runs list again, in the new language, the
    default template if untouched, and the price table's headings."""
    switched.then(handlers.on_language, inputs, outputs, queue=False)
    switched.then(reworded_template, tab.user, tab.user, queue=False)
    switched.then(tab.prices.reworded, tab.prices.table, tab.prices.table, queue=False)


class BatchPage:
    """The tab's components, laid out top to bottom one section per method (the order the page shows
    them, which is also the order Gradio numbers them in)."""

    def __init__(self, ctx: TabContext, saved_prices: gr.BrowserState, state: gr.State) -> None:
        settings = ctx.settings
        self.state = state
        self._prompt_and_data(settings)
        self._columns_and_settings(settings)
        self._graders()
        self._run_and_results()
        self._blind_ab()
        self._changes()
        self._kept_runs()
        self.prices = PriceEditor.build("batch", saved_prices, ctx.prices)
        self._exports()

    @property
    def form(self) -> list[Any]:
        """What Run sends and a loaded session fills, in `BatchHandlers.form_size`'s order."""
        return [self.system, self.user, *self.picker.inputs, self.repeats, self.concurrency, self.temperature, self.max_tokens,
                self.stream, self.cache, *self.grader_inputs, *self.own.components, *self.own.offers, self.mock_tools]

    @property
    def view_outputs(self) -> list[Any]:
        """What `BatchHandlers.views` fills: progress, leaderboard, grid, grid note, sort, A/B columns."""
        return [self.progress, self.board, self.table, self.grid_note, self.sort, self.left, self.right]

    @property
    def cell_outputs(self) -> list[Any]:
        """What a grid cell opened fills (`BatchHandlers.on_select`, `closed_cell`): its text, the inspector, its model graders' box."""
        return [self.cell, *self.inspector.components, self.grader_exchange]

    @property
    def data_outputs(self) -> list[Any]:
        """The data set's status, preview and template check, and the graders an imported suite brought with it."""
        return [self.data_status, self.preview, self.check, self.suite_graders, self.suite_model]

    @property
    def example_fields(self) -> dict[str, Any]:
        """What an example sets or resets, by name (the prompt and rows come from `BatchHandlers.on_sample`)."""
        fields: dict[str, Any] = {"preset": self.picker.preset, "system": self.system, "repeats": self.repeats, "temperature": self.temperature,
                                  "max_tokens": self.max_tokens, "stream": self.stream, "cache": self.cache}
        for index, (fmt, model) in enumerate(zip(self.picker.formats, self.picker.models)):
            fields[f"format_{index}"], fields[f"model_{index}"] = fmt, model
        for index, own in enumerate(self.own.components):
            fields[f"own_{index}"] = own
        for slot in range(GRADER_SLOTS):
            kind, value, low, high, _ = self.grader_inputs[slot * 5:(slot + 1) * 5]
            fields.update({f"grader_kind_{slot}": kind, f"grader_value_{slot}": value, f"grader_min_{slot}": low, f"grader_max_{slot}": high})
        return fields

    def _prompt_and_data(self, settings: Settings) -> None:
        self.link_notice = notice_banner("batch-link")  # a link's refused part, at the top of the tab where a page opens
        prompts = ExampleCard(t("batch_col.prompt_example"), t("batch_col.prompt_example_explains"), "batch-prompt-example")
        self.examples = ExampleRow.build("batch", EXAMPLES, shows="batch-run", more=(prompts,))
        self.prompt_example = self.examples.more[0]
        with gr.Row():
            with gr.Column(scale=3):
                self.system = gr.Textbox(label=t("batch.system_prompt_template"), lines=1, elem_id="batch-system")
                self.user = gr.Textbox(label=t("batch.user_prompt_template_column"), lines=3,
                                       value=english(DEFAULT_TEMPLATE), elem_id="batch-user")  # worded on load
                self.check = gr.Markdown(elem_id="batch-check")
                self.to_chat = gr.Button(t("batch.to_chat"), size="sm", elem_id="batch-to-chat")
            with gr.Column(scale=3):
                self.upload = gr.File(label=t("batch.dataset") + f" {settings.batch_max_rows:,}",
                                      file_types=[".csv", ".jsonl", ".xlsx"], type="filepath", elem_id="batch-upload")
                self.paste = gr.Textbox(label=t("batch.or_paste_rows_one"), lines=3, elem_id="batch-paste")
                self.use_paste = gr.Button(t("batch.use_the_pasted_rows"), size="sm", elem_id="batch-paste-use")
                self.data_status = gr.Markdown(elem_id="batch-data-status")
                self.suite_upload = gr.File(label=t("batch.import_suite"), file_count="multiple", type="filepath", elem_id="batch-import",
                                            file_types=[".yaml", ".yml", ".json", ".jsonl", ".csv", ".txt", ".md"])
                self.suite_status = gr.Markdown(elem_id="batch-import-status")
        self.preview = gr.Dataframe(value=preview_rows(None), label=t("batch.preview_first_10_rows"), interactive=False, max_height=260,
                                    elem_id="batch-preview")

    def _columns_and_settings(self, settings: Settings) -> None:
        self.own = ColumnSettingsInputs("batch")
        self.picker = ColumnPicker.build("batch", PRESETS, MAX_COLUMNS, extra=self.own.add)
        self.add_column = gr.Button(t("batch.add_column"), size="sm", elem_id="batch-add-column")
        with gr.Row():
            self.repeats = gr.Number(1, minimum=1, maximum=MAX_REPEATS, label=t("batch.repeat_each_row_n"), elem_id="batch-repeats")
            self.concurrency = gr.Slider(1, settings.batch_concurrency, value=min(4, settings.batch_concurrency), step=1,
                                         label=t("batch.requests_at_once"), elem_id="batch-concurrency")
            self.temperature = gr.Textbox("", label=t("batch.temperature_empty_not_set"), elem_id="batch-temperature")
            self.max_tokens = gr.Number(0, label=t("batch.max_tokens_all"), elem_id="batch-max-tokens")
            with gr.Column(min_width=160):
                self.stream = gr.Checkbox(True, label=t("batch.stream_gives_time_to"), elem_id="batch-stream")
                self.cache = gr.Checkbox(False, label=t("batch.answer_identical_requests_from"), elem_id="batch-cache")
        self.used = gr.Markdown(elem_id="batch-columns-used")  # written on load, in the visitor's language (`on_language`)
        with gr.Accordion(t("batch.mocked_tools"), open=False, elem_id="batch-mock"):
            gr.Markdown(t("batch.mocked_tools_explains"))
            self.mock_example = gr.Button(t("batch.mocked_tools_example"), size="sm", elem_id="batch-mock-example")
            self.mock_tools = gr.Code("", language="json", label=t("batch.mocked_tools_json"), interactive=True, elem_id="batch-mock-tools")

    def _graders(self) -> None:
        with gr.Accordion(t("batch.graders"), open=True, elem_id="batch-graders"):
            self.grader_inputs: list[Any] = []
            self.grader_rows: list[gr.Row] = []
            self.graders_added = gr.State(0)
            """How many grader rows "Add a grader" asked for (those with a kind are shown anyway)."""
            with gr.Row():
                self.suite_graders = gr.Markdown(elem_id="batch-suite-graders", scale=4)
                self.suite_model = gr.Dropdown(model_ids(), value=None, allow_custom_value=True, label=t("batch.suite_grading_model"),
                                               visible=False, elem_id="batch-suite-model", scale=2)
            for slot in range(GRADER_SLOTS):
                with gr.Row(visible=slot == 0) as row:
                    self.grader_rows.append(row)
                    self.grader_inputs += [
                        gr.Dropdown(KIND_CHOICES, value="", label=t("batch.grader") + f" {slot + 1}", elem_id=f"batch-grader-kind-{slot}", scale=2),
                        gr.Textbox(label=t("batch.text_regex_json_schema"), elem_id=f"batch-grader-value-{slot}", scale=4),
                        gr.Number(0, minimum=0, label=t("batch.min_length"), elem_id=f"batch-grader-min-{slot}", scale=1),
                        gr.Number(0, minimum=0, label=t("batch.max_length_0_none"), elem_id=f"batch-grader-max-{slot}", scale=1),
                        gr.Dropdown(model_ids(), value="gx-2.5-flash", allow_custom_value=True, label=t("batch.grading_model_model_graded"),
                                    elem_id=f"batch-grader-model-{slot}", scale=2),
                    ]
            self.add_grader = gr.Button(t("batch.add_grader"), size="sm", elem_id="batch-add-grader")

    def _run_and_results(self) -> None:
        with gr.Row():
            self.run = gr.Button(t("batch.run"), variant="primary", elem_id="batch-run")
            self.stop = gr.Button(t("conversation.stop"), variant="stop", elem_id="batch-stop")
            self.resume = gr.Button(t("common.resume"), elem_id="batch-resume")
            self.rerun_errors = gr.Checkbox(False, label=t("batch.resume_also_resends_cells"), elem_id="batch-rerun-errors")
        self.error = error_banner("batch")
        self.notice = notice_banner("batch")
        self.progress = gr.HTML(t("bview.idle"), elem_id="batch-progress")
        self.board = gr.Markdown(elem_id="batch-leaderboard")
        with gr.Row():
            self.shown = gr.Radio(choices(FILTERS), value=FILTERS[0], label=t("batch.show"), elem_id="batch-filter")
            self.sort = gr.Dropdown([(t("bview.sort.row"), "row")], value="row", label=t("batch.sort_by"), elem_id="batch-sort")
        self.grid_note = gr.Markdown(elem_id="batch-grid-note")
        self.table = gr.Dataframe(interactive=False, wrap=True, max_height=520, elem_id="batch-grid", show_search="filter")
        self.cell = gr.Markdown(elem_id="batch-cell")
        self.inspector = Inspector.build("batch")
        self.grader_exchange = gr.Code(language="json", label=t("batch.model_grader_s_request"), interactive=False, visible=False,
                                       elem_id="batch-grader-exchange")  # shown when an opened cell has a model grader's exchange

    def _blind_ab(self) -> None:
        with gr.Accordion(t("batch.blind_a_b_which"), open=False, elem_id="batch-ab"):
            with gr.Row():
                self.left = gr.Dropdown([("C1", 0)], value=0, label=t("common.first_column"), elem_id="batch-ab-left")
                self.right = gr.Dropdown([("C2", 1)], value=1, label=t("common.second_column"), elem_id="batch-ab-right")
                self.next_pair = gr.Button(t("batch.show_a_pair"), elem_id="batch-ab-next")
            self.ab_prompt = gr.Markdown(elem_id="batch-ab-prompt")
            with gr.Row():
                self.answer_a = gr.Textbox(label=t("batch.answer_a"), lines=6, interactive=False, elem_id="batch-ab-a")
                self.answer_b = gr.Textbox(label=t("batch.answer_b"), lines=6, interactive=False, elem_id="batch-ab-b")
            with gr.Row():
                self.vote_a = gr.Button(t("batch.a_is_better"), elem_id="batch-vote-a")
                self.vote_tie = gr.Button(t("batch.tie"), elem_id="batch-vote-tie")
                self.vote_b = gr.Button(t("batch.b_is_better"), elem_id="batch-vote-b")
            self.ab_status = gr.Markdown(elem_id="batch-ab-status")

    def _changes(self) -> None:
        with gr.Accordion(t("batch.changes"), open=False, elem_id="batch-changes-panel") as self.changes_panel:
            with gr.Row():
                self.baseline = gr.Dropdown([], value=None, label=t("batch.baseline"), elem_id="batch-baseline", scale=4)
                self.list_runs = gr.Button(t("batch.list_runs"), elem_id="batch-list-runs", scale=1)
                self.compare_baseline = gr.Button(t("batch.compare_baseline"), variant="primary", elem_id="batch-compare-baseline", scale=1)
            self.changes = gr.Markdown(elem_id="batch-changes")

    def _kept_runs(self) -> None:
        with gr.Accordion(t("batch.runs"), open=False, elem_id="batch-runs"):
            with gr.Row():
                self.runs_dataset = gr.Textbox(label=t("batch.runs_dataset"), elem_id="batch-runs-dataset")
                self.runs_model = gr.Textbox(label=t("batch.runs_model"), elem_id="batch-runs-model")
                self.runs_since = gr.Textbox(label=t("batch.runs_since"), elem_id="batch-runs-since")
                self.runs_until = gr.Textbox(label=t("batch.runs_until"), elem_id="batch-runs-until")
            self.find_runs = gr.Button(t("batch.runs_find"), elem_id="batch-runs-find")
            self.runs_note = gr.Markdown(elem_id="batch-runs-note")
            self.runs_table = gr.Dataframe(interactive=False, wrap=True, max_height=360, elem_id="batch-runs-list")

    def _exports(self) -> None:
        with gr.Accordion(t("batch.export_and_session_file"), open=False, elem_id="batch-export-panel"):
            with gr.Row():
                self.export = gr.Button(t("batch.export_this_run"), elem_id="batch-export")
                self.load_session = gr.UploadButton(t("batch.load_a_session_file"), file_types=[".json"], type="filepath",
                                                    elem_id="batch-session-load")
            self.files = gr.File(label=t("batch.csv_jsonl_leaderboard_md"), file_count="multiple", elem_id="batch-export-files")
            self.session_status = gr.Markdown(elem_id="batch-session-status")


def _wire_inputs(ctx: TabContext, tab: BatchPage, handlers: BatchHandlers) -> None:
    """The columns-used line, the data set (upload, paste, an imported suite, Send to Batch) and the template check."""
    shown_settings = [tab.temperature, tab.max_tokens, tab.stream, *tab.picker.inputs, *tab.own.components]
    column_prompts = ColumnPrompts(PromptLibrary.of(ctx.settings))
    for prompt in tab.own.prompts:  # the library's versions, read when the picker opens (another tab may have saved one)
        prompt.focus(column_prompts.choices, prompt, prompt, concurrency_limit=None, show_progress="hidden")
    example = PromptVersionsExample(column_prompts.library, handlers.on_paste, len(tab.picker.inputs), len(tab.data_outputs))
    tab.prompt_example.click(example.fill, tab.state, [tab.state, *tab.data_outputs, tab.paste, tab.system, tab.user, *tab.picker.inputs,
                                                       *tab.own.prompts], concurrency_limit=None)
    gr.on([c.change for c in shown_settings], handlers.on_settings, shown_settings, tab.used, queue=False, show_progress="hidden")
    ctx.prompts.register_batch(BatchTarget(tab.to_chat, tab.system, tab.user, tab.state, handlers.on_receive,
                                           [tab.state, tab.system, tab.user, *tab.data_outputs]))
    tab.upload.upload(handlers.on_data, [tab.state, tab.upload, tab.paste, tab.system, tab.user], [tab.state, *tab.data_outputs], queue=False)
    tab.suite_upload.upload(handlers.on_import, [tab.state, tab.suite_upload], [tab.state, tab.suite_status, *tab.form, *tab.data_outputs],
                            queue=False)
    tab.mock_example.click(handlers.on_mock_example, None, tab.mock_tools, queue=False)
    tab.suite_model.input(handlers.on_suite_model, [tab.state, tab.suite_model], [tab.state, tab.suite_graders], queue=False)
    tab.use_paste.click(handlers.on_paste, [tab.state, tab.paste, tab.system, tab.user], [tab.state, *tab.data_outputs], queue=False)
    gr.on([tab.system.change, tab.user.change], handlers.on_template, [tab.state, tab.system, tab.user], tab.check, queue=False)


def _wire_slots(tab: BatchPage, handlers: BatchHandlers) -> None:
    """The column and grader slots on screen (those in use, plus those "Add" asked for), and the sample example: its
    columns and graders filled in the browser, then its prompt and rows loaded as the data set."""
    kinds = tab.grader_inputs[::5]
    grader_slots = [*tab.grader_rows, tab.add_grader]
    tab.picker.wire_slots(tab.add_column)
    gr.on([kind.change for kind in kinds], handlers.on_graders_shown, [tab.graders_added, *kinds], grader_slots, queue=False,
          show_progress="hidden")
    tab.add_grader.click(handlers.on_add_grader, [tab.graders_added, *kinds], [tab.graders_added, *grader_slots], queue=False)
    for filled in tab.examples.wire(tab.example_fields):
        loaded = filled.then(handlers.on_sample, tab.state, [tab.state, tab.user, tab.paste, *tab.data_outputs], queue=False)
        loaded.then(None, None, None, js=into_view_js("batch-run"), queue=False)  # again once the sample's slots are shown: Run is next


def _wire_run(ctx: TabContext, tab: BatchPage, handlers: BatchHandlers, last_run: gr.BrowserState) -> None:
    """Run and Resume, each followed by the progress watcher and the end views; Stop cancels both."""
    on_watch, on_end = handlers.on_watch, handlers.on_end  # one function each: both runs' watchers share its queue, as before
    ends, viewed = [*tab.view_outputs, tab.error], [tab.state, tab.shown, tab.sort]
    started = tab.run.click(handlers.on_run, [tab.state, *ctx.connection, *tab.form], [tab.state, tab.error, tab.notice, last_run], queue=False)
    started.then(closed_cell, None, tab.cell_outputs, queue=False, show_progress="hidden")  # the panel showed a cell of the run before
    watching = started.then(on_watch, tab.state, tab.progress, concurrency_limit=None, show_progress="hidden")
    watching.then(on_end, viewed, ends, queue=False)
    resumed = tab.resume.click(handlers.on_resume, [tab.state, tab.rerun_errors, *ctx.connection], [tab.state, tab.error, tab.notice], queue=False)
    watching_again = resumed.then(on_watch, tab.state, tab.progress, concurrency_limit=None, show_progress="hidden")
    watching_again.then(on_end, viewed, ends, queue=False)
    tab.stop.click(handlers.on_stop, viewed, ends, cancels=[watching, watching_again], queue=False)


def _wire_results(loaded: Any, tab: BatchPage, handlers: BatchHandlers, last_run: gr.BrowserState) -> None:
    """The grid's filter and order, the last run with its form after the page's load (`loaded`), a cell's details, A/B votes,
    exports, session files."""
    viewed = [tab.state, tab.shown, tab.sort]
    gr.on([tab.shown.input, tab.sort.input], handlers.on_view, viewed, [tab.table, tab.grid_note], queue=False)
    loaded.then(handlers.on_restore, [tab.state, last_run], [tab.state, *tab.view_outputs, *tab.form, *tab.data_outputs], queue=False)
    tab.table.select(handlers.on_select, tab.state, tab.cell_outputs, queue=False)
    pair_outputs = [tab.state, tab.ab_prompt, tab.answer_a, tab.answer_b]
    tab.next_pair.click(handlers.on_pair, [tab.state, tab.left, tab.right], pair_outputs, queue=False)
    for button, voted in ((tab.vote_a, handlers.vote_a), (tab.vote_tie, handlers.vote_tie), (tab.vote_b, handlers.vote_b)):
        button.click(voted, [tab.state, tab.left, tab.right, tab.shown, tab.sort], [*pair_outputs[:1], tab.ab_status, *pair_outputs[1:], tab.board],
                     queue=False)
    filters = [tab.state, tab.runs_dataset, tab.runs_model, tab.runs_since, tab.runs_until]
    gr.on([tab.find_runs.click, *(box.submit for box in filters[1:])], handlers.on_find, filters, [tab.state, tab.runs_table, tab.runs_note],
          queue=False)
    opened = tab.runs_table.select(handlers.on_open_listed, tab.state, [tab.state, *tab.view_outputs, *tab.form, *tab.data_outputs, last_run,
                                                                         tab.runs_note], queue=False)
    opened.then(closed_cell, None, tab.cell_outputs, queue=False, show_progress="hidden")
    tab.export.click(handlers.on_export, tab.state, [tab.files, tab.session_status], queue=False)
    tab.load_session.upload(handlers.on_load, [tab.state, tab.load_session], [tab.state, tab.session_status, *tab.form, *tab.data_outputs],
                            queue=False)


def _wire_changes(tab: BatchPage, changes: ChangesHandlers) -> None:
    """What changed: the baseline picker filled when the section opens or on request, then the comparison."""
    gr.on([tab.changes_panel.expand, tab.list_runs.click], changes.on_list, tab.state, tab.baseline, queue=False)
    tab.compare_baseline.click(changes.on_diff, [tab.state, tab.baseline], tab.changes, queue=False)
