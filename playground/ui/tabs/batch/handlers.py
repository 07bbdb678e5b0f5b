"""The Batch tab's work without layout: the leaderboard and exports (the form as a plan is in
`form`), then `BatchHandlers`, the handlers the tab's events run (the layout wires its methods, the tests call
them): each turns those functions' answers into the page's updates. The work on one run (start,
resume, watch, a cell's exchange, votes) is in `runs` beside the process's runs."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

import gradio as gr

from playground.client.batch.cost import Price
from playground.client.batch.dataset import Dataset, DatasetError
from playground.client.batch.exports import write_exports
from playground.client.batch.graders import GraderError, GraderSpec, fits_the_boxes
from playground.client.batch.importers import SuiteError
from playground.client.batch.plan import MAX_COLUMNS, Plan, PlanError
from playground.client.batch.report import FILTERS, leaderboard, leaderboard_markdown
from playground.client.batch.store import RUN_ID, RunRecord, cell_key
from playground.client.batch.template import TemplateError
from playground.client.errors import GatewayError
from playground.client.texts import Text
from playground.gradio_compat import current_request
from playground.ui.tabs.batch.runs import (BatchRuns, cell_exchange, not_blind, progress_of, resume, rng_for, run_problem, start, vote,
                                          watch)
from playground.ui.tabs.batch.changes import linked_form, linked_run
from playground.ui.tabs.batch.suites import graders_line, import_suite, refusal_status, regraded, suite_status
from playground.ui.tabs.batch.run_list import find, picked, table as runs_table
from playground.client.tools.mock import EXAMPLE, mock_tools_text
from playground.ui.conversation.prompt_library import PromptLibrary
from playground.ui.tabs.batch.column_prompts import ColumnPrompts
from playground.ui.tabs.batch.columns import PER_COLUMN, PROMPT_AT, session_offers, session_setting_values, used_text
from playground.ui.tabs.batch.sample import sample_suite
from playground.ui.shared.slots import graders_in_use, one_more, shown
from playground.ui.tabs.batch.views import (cell_markdown, column_of_grid_index, empty_grid, grader_exchanges_json, grid, pick_pair,
                                            pass_headings, preview_rows, progress_html, sort_choices, tool_calls_markdown)
from playground.ui.tabs.batch.form import (DATA_OUTPUTS, GRADER_SLOTS, data_shown, load_dataset, plan_from_form, read_session,
                                           session_values, template_check)
from playground.ui.tabs.context import TabContext
from playground.ui.i18n.client_words import message_of, word, word_list
from playground.ui.shared.connection import resolve_connection
from playground.ui.shared.widgets import Inspector, banner_update
from playground.ui.shared.worded_defaults import reworded_default
from playground.ui.web.owned_files import owned_folder
from playground.ui.web.owners import current_owner
from playground.ui.i18n import EN, say
from playground.ui.shared.render import error_text, plain

VIEW_OUTPUTS = 7
"""What `BatchHandlers.views` answers: progress, leaderboard, grid, grid note, sort, A/B columns (x2)."""


@dataclass
class BatchState:
    dataset: Dataset | None = None
    run_id: str = ""
    pair: dict[str, Any] | None = None
    suite_graders: list[GraderSpec] = field(default_factory=list)
    """An imported suite's graders: they belong to its data set, run beside the form's, and go when the data set changes."""
    listed: list[str] = field(default_factory=list)
    """The kept runs the list shows now (only this visitor's when hosted)."""


def leaderboard_heading(name: str) -> str:
    """A leaderboard column's heading in the visitor's language (the client names them in English)."""
    if f"bview.head.{name}" in EN:
        return say(f"bview.head.{name}")
    if name.startswith("pass^") and name[5:].isdigit():
        return say("bview.head.pass_k", k=name[5:])
    if name.startswith("pass: "):
        return say("bview.head.pass", grader=name.removeprefix("pass: "))
    if name.startswith("TTFT ") and name.endswith(" ms"):
        return say("bview.head.ttft", which=name.removeprefix("TTFT ").removesuffix(" ms"))
    return word(name)


def leaderboard_text(plan: Plan, run: RunRecord, prices: dict[str, Price]) -> str:
    if not run.cells:
        return ""
    graders = pass_headings(plan)
    heading = partial(_heading_in, graders)
    return say("bview.leaderboard") + "\n\n" + leaderboard_markdown(plan, leaderboard(plan, run, prices), _cell, heading) + "\n\n" + say("bview.legend")


def _cell(value: str) -> str:
    """A leaderboard cell as literal text, a column's label (a client message) in the visitor's language."""
    return plain(word(value) if isinstance(value, Text) else value)


def _heading_in(graders: dict[str, str], name: str) -> str:
    return graders.get(name) or leaderboard_heading(name)


DEFAULT_TEMPLATE = "batch.default_template"


def reworded_template(current: Any) -> Any:
    """After the language switch: the default prompt template in the new language, if still untouched."""
    return reworded_default(DEFAULT_TEMPLATE, current)


def exports(plan: Plan, run: RunRecord, folder: Path, prices: dict[str, Price]) -> list[str]:
    """The run's five files, written into `folder` (the caller's, from `owned_files.owned_folder`:
    a fresh name that holds no run id, served only to its owner)."""
    return [str(path) for path in write_exports(folder, plan, run, prices).values()]


def closed_cell() -> tuple[Any, ...]:
    """The cell panel, its inspector and its model graders' box emptied (another run is started or opened)."""
    return ("", *Inspector.note(""), gr.update(value="", visible=False))


@dataclass
class BatchHandlers:
    """The handlers the tab's events run (`layout` wires these methods, the tests call them), bound
    to the page's context and the process's runs. `columns`, `graders` and `own` count the form's
    column pickers, grader boxes and the columns' own setting boxes, in the order the form sends
    them. Every handler that reads a run opens it for the event's owner (`owner`)."""

    ctx: TabContext
    runs: BatchRuns
    columns: int
    graders: int
    own: int
    offers: int = 0
    """The columns' "offer the mocked tools" boxes; with them, the mocked tools box ends the form."""
    first_form: tuple[Any, ...] = ()
    """What `on_language` reads after the state, as the layout built it: the form a page shows when it loads."""

    @property
    def form_size(self) -> int:
        """system, user, column pickers, six run settings, grader boxes, the columns' own boxes, then
        (when the form has them) each column's "offer the mocked tools" box and the mocked tools box."""
        return 8 + self.columns + self.graders + self.own + (self.offers + 1 if self.offers else 0)

    def on_mock_example(self) -> str:
        """The mocked tools box's example: get_weather answered from a template over its `city`."""
        return mock_tools_text([EXAMPLE])

    def owner(self) -> str | None:
        """Who the current event acts for (`owners.current_owner`)."""
        return current_owner(self.ctx.settings.hosted)

    def plan_of(self, batch: BatchState, values: tuple[Any, ...]) -> tuple[Plan, list[str]]:
        """The plan and its warnings from the form's values (as `form_size` orders them)."""
        n_cols, n_graders, settings = self.columns, self.graders, self.ctx.settings
        cols = list(values[2:2 + n_cols])
        rep, conc, temp, tokens, streamed, cached = values[2 + n_cols:8 + n_cols]
        graders = list(values[8 + n_cols:8 + n_cols + n_graders])
        own_at = 8 + n_cols + n_graders
        own, rest = list(values[own_at:own_at + self.own]), list(values[own_at + self.own:])
        offers, mocked = (rest[:self.offers], str(rest[self.offers] or "")) if self.offers else ([], "")
        return plan_from_form(values[0], values[1], batch.dataset, cols, rep, conc, temp, tokens, streamed, cached, graders,
                              settings.batch_max_rows, settings.batch_concurrency, own, batch.suite_graders, offers, mocked)

    def views(self, batch: BatchState, filter_name: str = FILTERS[0], order: str = "row") -> tuple[Any, ...]:
        """progress, leaderboard, grid, grid note, sort choices, A/B column choices (x2)."""
        try:
            run_file, plan = self.runs.open(batch.run_id, self.owner())
        except (OSError, ValueError):
            return (progress_html(None), "", gr.skip(), "", gr.skip(), gr.skip(), gr.skip())
        runner = self.runs.active(batch.run_id)
        prices = self.ctx.prices.current()
        value, note = grid(plan, run_file, prices, filter_name, order)
        labels = [(f"C{i + 1} {model}", i) for i, (_, model) in enumerate(plan.columns)]
        orders = {value for _, value in sort_choices(plan)}
        return (progress_html(runner.progress if runner else progress_of(run_file, plan)), leaderboard_text(plan, run_file, prices),
                value, note, gr.update(choices=sort_choices(plan), value=order if order in orders else "row"),
                gr.update(choices=labels, value=0), gr.update(choices=labels, value=1 if len(labels) > 1 else 0))

    def on_settings(self, temp: Any, tokens: Any, streamed: Any, *values: Any) -> str:
        """The "columns used" line for the shared settings, the pickers and the columns' own boxes."""
        return used_text(list(values[:self.columns]), list(values[self.columns:]), temp, tokens, streamed)

    def on_language(self, batch: BatchState, temp: Any, tokens: Any, streamed: Any, *values: Any) -> tuple[Any, ...]:
        """On load and after the header's switch: the texts the tab writes itself (the columns-used
        line, the data set's preview, the results grid and the kept-runs list while empty), in the visitor's language."""
        return (self.on_settings(temp, tokens, streamed, *values), preview_rows(batch.dataset),
                gr.skip() if batch.run_id else empty_grid(), gr.skip() if batch.listed else runs_table([]))

    def on_page_load(self) -> tuple[Any, ...]:
        """On page load: `on_language` for the form as a loaded page holds it (`first_form`, a fresh state), reading
        nothing from the page. Gradio's page keeps a loading status for every input of every event it has run and walks its
        whole component tree for each of them on every later status message: the 52 Batch boxes this event read made each
        streamed update of a Chat reply 35-45 ms slower (issue 41, docs/benchmarks.md)."""
        return self.on_language(BatchState(), *self.first_form)

    async def on_data(self, batch: BatchState, path: str | None, pasted: str, system_text: str, user_text: str) -> tuple[Any, ...]:
        """An uploaded (or pasted) data set: state, status, preview, template check."""
        try:
            dataset = await load_dataset(path, pasted, system_text, user_text, self.ctx.settings.batch_max_rows)
        except (DatasetError, TemplateError, OSError) as problem:
            return batch, say("bview.not_loaded", problem=plain(word(message_of(problem)))), *(gr.skip(),) * (DATA_OUTPUTS - 1)
        batch.dataset, batch.suite_graders = dataset, []
        return batch, *data_shown(dataset, system_text, user_text)

    async def on_paste(self, batch: BatchState, pasted: str, system_text: str, user_text: str) -> tuple[Any, ...]:
        return await self.on_data(batch, None, pasted, system_text, user_text)

    def on_receive(self, batch: BatchState, system_text: str, user_text: str, dataset: Any) -> tuple[Any, ...]:
        """A prompt sent from a text tab ("Send to Batch"): state, templates, status, preview, check."""
        batch.dataset, batch.suite_graders = dataset, []
        return (batch, system_text, user_text, *data_shown(dataset, system_text, user_text))

    def on_template(self, batch: BatchState, system_text: str, user_text: str) -> str:
        return template_check(system_text, user_text, batch.dataset)

    def on_graders_shown(self, added: Any, *kinds: Any) -> tuple[Any, ...]:
        """The grader rows on screen (those with a kind, or asked for by "Add a grader"), then the button."""
        return shown(added, graders_in_use(kinds), GRADER_SLOTS)

    def on_add_grader(self, added: Any, *kinds: Any) -> tuple[Any, ...]:
        """"Add a grader": the count asked for, the grader rows on screen, the button."""
        return one_more(added, graders_in_use(kinds), GRADER_SLOTS)

    async def on_sample(self, batch: BatchState) -> tuple[Any, ...]:
        """The sample example, once its columns and graders are filled: its prompt and rows in the visitor's
        language, read as the data set: state, prompt, pasted rows, data status, preview, template check."""
        prompt, rows = sample_suite()
        dataset = await load_dataset(None, rows, "", prompt, self.ctx.settings.batch_max_rows)
        batch.dataset, batch.suite_graders = dataset, []
        status, *rest = data_shown(dataset, "", prompt)
        return (batch, prompt, rows, status + " " + say("batch.sample.loaded"), *rest)

    async def on_run(self, batch: BatchState, url: str, key: str, *values: Any) -> tuple[Any, ...]:
        """Start a run of the form's plan: state, error banner, notice banner, the browser's last-run store."""
        started_by = self.owner()
        try:
            first_own = 8 + self.columns + self.graders
            values = tuple(await ColumnPrompts(PromptLibrary.of(self.ctx.settings)).resolved(
                values, range(first_own + PROMPT_AT, len(values), PER_COLUMN)))
            plan, warnings = self.plan_of(batch, values)
            conn = resolve_connection(self.ctx.defaults, url, key)
        except PlanError as problem:
            return batch, banner_update(say("bview.not_started", problems=plain(word_list(problem.problems)))), banner_update(""), gr.skip()
        except GatewayError as problem:
            return batch, banner_update(error_text(problem)), banner_update(""), gr.skip()
        if started_by is None:  # hosted, and the request names no visitor: nobody to own the run
            return batch, banner_update(say("bview.no_owner")), banner_update(""), gr.skip()
        batch.run_id = await start(self.runs, self.ctx.client, conn, plan, started_by)
        note = "⚠ " + plain(word_list(warnings)) if warnings else ""
        return batch, banner_update(""), banner_update(note), {"run_id": batch.run_id}

    async def on_resume(self, batch: BatchState, again: bool, url: str, key: str) -> tuple[Any, ...]:
        try:
            conn = resolve_connection(self.ctx.defaults, url, key)
            await resume(self.runs, self.ctx.client, conn, batch.run_id, bool(again), self.owner())
        except GatewayError as problem:
            return batch, banner_update(error_text(problem)), banner_update("")
        except (OSError, ValueError):
            return batch, banner_update(say("bview.nothing_to_resume")), banner_update("")
        return batch, banner_update(""), banner_update("")

    async def on_watch(self, batch: BatchState) -> AsyncIterator[str]:
        """The progress bar while the state's run runs (nothing for a run this visitor may not open)."""
        try:
            self.runs.open(batch.run_id, self.owner())
        except (OSError, ValueError):
            return
        async for state_now in watch(self.runs, batch.run_id):
            yield progress_html(state_now)

    async def on_end(self, batch: BatchState, filter_name: str, order: str) -> tuple[Any, ...]:
        problem = run_problem(self.runs, batch.run_id)  # the state's run id: set only for a run this visitor may open
        return (*self.views(batch, filter_name, order), banner_update(problem) if problem else gr.skip())

    async def on_stop(self, batch: BatchState, filter_name: str, order: str) -> tuple[Any, ...]:
        await self.runs.stop(batch.run_id, self.owner())
        return (*self.views(batch, filter_name, order), gr.skip())

    def on_view(self, batch: BatchState, filter_name: str, order: str) -> tuple[Any, ...]:
        """The grid and its note for the filter and order chosen."""
        return self.views(batch, filter_name, order)[2:4]

    def on_restore(self, batch: BatchState, stored: Any) -> tuple[Any, ...]:
        """On page load: adopt the run a page link names (`?run=`), else the browser's last run, if it is this visitor's, and show it
        with the form it ran (prompt, data set, columns, graders), so the page never shows a run beside another form (a link
        to the tab with its own settings shows those, and no run):
        state, the views, every form box, data status, preview, template check."""
        remembered = stored.get("run_id", "") if isinstance(stored, dict) and not linked_form() else ""  # a link's form is kept as linked
        run_id = linked_run() or remembered  # a page link's run first
        kept = (batch, *(gr.skip(),) * (VIEW_OUTPUTS + self.form_size + DATA_OUTPUTS))
        if not isinstance(run_id, str) or not RUN_ID.match(run_id):
            return kept
        try:  # the browser's store is written by the browser: a run that is not this visitor's is not adopted
            _, plan = self.runs.open(run_id, self.owner())
        except (OSError, ValueError):
            return kept
        batch.run_id = run_id
        return (batch, *self.views(batch), *self.form_of_run(batch, plan))

    def form_of_run(self, batch: BatchState, plan: Plan) -> tuple[Any, ...]:
        """A run's plan back in the form (as `form_of`) and its data set in `batch`; graders the boxes cannot hold
        (an imported suite's) stay with the data set."""
        boxes = [spec for spec in plan.graders if fits_the_boxes(spec)][:GRADER_SLOTS]
        batch.dataset, batch.suite_graders = plan.dataset, [spec for spec in plan.graders if spec not in boxes]
        return self.form_of(replace(plan, graders=boxes), suite_graders=batch.suite_graders)

    def on_select(self, batch: BatchState, evt: gr.SelectData) -> tuple[Any, ...]:
        """A grid cell opened: its text, its request in the inspector, its model graders' exchanges (hidden when none)."""
        try:
            run_file, plan = self.runs.open(batch.run_id, self.owner())
            row, repeat = int(evt.row_value[0]) - 1, int(evt.row_value[1]) - 1
        except (OSError, ValueError, TypeError, IndexError):
            return closed_cell()
        column = column_of_grid_index(plan, evt.index[1] if isinstance(evt.index, (list, tuple)) else 0)
        if column is None:
            column = 0
        exchange, detail = cell_exchange(run_file, cell_key(row, repeat, column))
        text = cell_markdown(plan, run_file, row, repeat, column, self.ctx.prices.current()) + tool_calls_markdown(detail)
        shown_exchange = Inspector.values(exchange) if exchange else Inspector.note(say("bview.no_request"))
        graded = grader_exchanges_json(detail)  # the model grader's box is on screen only when a model grader answered
        return (text, *shown_exchange, gr.update(value=graded, visible=bool(graded)))

    def on_find(self, batch: BatchState, dataset: str, model: str, since: str, until: str) -> tuple[Any, ...]:
        """The kept runs the filters select, newest first (hosted: only this visitor's): state, table, note."""
        batch.listed, value, note = find(self.runs.database, self.owner(), self.ctx.settings.hosted, dataset, model, since, until)
        return batch, value, note

    def on_open_listed(self, batch: BatchState, evt: gr.SelectData) -> tuple[Any, ...]:
        """A listed run clicked: it becomes the page's run, shown with the form it ran (as `on_restore`): state, the views,
        every form box, data status, preview, template check, the browser's last run, the list's note."""
        run_id = picked(batch.listed, evt.row_value)
        try:
            _, plan = self.runs.open(run_id, self.owner())
        except (OSError, ValueError):
            return (batch, *(gr.skip(),) * (VIEW_OUTPUTS + self.form_size + DATA_OUTPUTS), gr.skip(), say("bview.runs_open_failed"))
        batch.run_id, batch.pair = run_id, None
        return (batch, *self.views(batch), *self.form_of_run(batch, plan), {"run_id": run_id}, gr.skip())

    def on_pair(self, batch: BatchState, a: Any, b: Any) -> tuple[Any, ...]:
        """A blind pair of two columns' answers to one row: state, prompt, answer A, answer B."""
        try:
            run_file, plan = self.runs.open(batch.run_id, self.owner())
        except (OSError, ValueError):
            return batch, say("bview.run_first"), "", ""
        pair = pick_pair(plan, run_file, int(a or 0), int(b or 0), rng_for(run_file))
        batch.pair = pair
        if pair is None:
            return batch, say("bview.pick_columns"), "", ""
        values = plan.dataset.rows[pair["row"]]
        prompt = say("bview.pair_row", row=pair["row"] + 1, values=plain("; ".join(f"{k}: {v[:200]}" for k, v in values.items())))
        return (batch, prompt, run_file.cells[cell_key(pair["row"], pair["repeat"], pair["a"])].answer,
                run_file.cells[cell_key(pair["row"], pair["repeat"], pair["b"])].answer)

    def on_vote(self, outcome: str, batch: BatchState, a: Any, b: Any, filter_name: str, order: str) -> tuple[Any, ...]:
        """Record `outcome` ("a", "b", "tie") on the pair shown: state, status, the next pair, the leaderboard."""
        try:
            run_file, plan = self.runs.open(batch.run_id, self.owner())
        except (OSError, ValueError):
            return (batch, say("bview.run_first"), gr.skip(), gr.skip(), gr.skip(), gr.skip())
        dropped = not_blind(plan, run_file, batch.pair)
        if dropped is None and not vote(run_file, batch.pair, outcome):
            return (batch, say("bview.show_pair"), gr.skip(), gr.skip(), gr.skip(), gr.skip())
        status = say("bview.vote_dropped", reason=plain(word(dropped))) if dropped else say("bview.voted", count=len(run_file.votes))
        following = self.on_pair(batch, a, b)
        return (following[0], status, *following[1:], self.views(batch, filter_name, order)[1])

    def vote_a(self, batch: BatchState, a: Any, b: Any, filter_name: str, order: str) -> tuple[Any, ...]:
        return self.on_vote("a", batch, a, b, filter_name, order)

    def vote_tie(self, batch: BatchState, a: Any, b: Any, filter_name: str, order: str) -> tuple[Any, ...]:
        return self.on_vote("tie", batch, a, b, filter_name, order)

    def vote_b(self, batch: BatchState, a: Any, b: Any, filter_name: str, order: str) -> tuple[Any, ...]:
        return self.on_vote("b", batch, a, b, filter_name, order)

    def on_export(self, batch: BatchState) -> tuple[Any, Any]:
        """The run's five files, in a folder only this visitor is served: files, status."""
        exported_by = self.owner()
        try:
            run_file, plan = self.runs.open(batch.run_id, exported_by)
        except (OSError, ValueError):
            return gr.skip(), say("bview.run_first")
        folder = owned_folder("batch", exported_by or "", current_request())
        return exports(plan, run_file, folder, self.ctx.prices.current()), say("bview.exported", count=f"{len(run_file.cells):,}")

    def on_load(self, batch: BatchState, path: str | None) -> tuple[Any, ...]:
        """A saved session file: state, status, every form box, data status, preview, template check."""
        settings = self.ctx.settings
        try:
            plan = read_session(path, settings.batch_max_rows)
        except (PlanError, OSError) as problem:
            message = word_list(problem.problems) if isinstance(problem, PlanError) else word(str(problem))
            return (batch, say("bview.not_loaded", problem=plain(message)), *(gr.skip(),) * (self.form_size + DATA_OUTPUTS))
        return (batch, say("bview.loaded", rows=f"{len(plan.dataset.rows):,}", columns=len(plan.columns), graders=len(plan.graders)),
                *self.form_of_run(batch, plan))

    def form_of(self, plan: Plan, keep_columns: bool = False, suite_graders: list[GraderSpec] | None = None) -> tuple[Any, ...]:
        """Every form box for `plan` (as `form_size` orders them), then what the page shows of its data set (`data_shown`,
        with the suite's graders); `keep_columns` leaves the column pickers and their own boxes as they are."""
        values, n_cols = session_values(plan, MAX_COLUMNS), self.columns
        pickers = [gr.skip()] * n_cols if keep_columns else values[:n_cols]
        own = [gr.skip()] * self.own if keep_columns else session_setting_values(plan, MAX_COLUMNS)
        offers = [] if not self.offers else [gr.skip()] * (self.offers + 1) if keep_columns else session_offers(plan, self.offers)
        return (plan.system, plan.user, *pickers, plan.repeats, min(plan.concurrency, self.ctx.settings.batch_concurrency),
                "" if plan.temperature is None else repr(plan.temperature), plan.max_tokens or 0, plan.stream, plan.cache, *values[n_cols:],
                *own, *offers, *data_shown(plan.dataset, plan.system, plan.user, suite_graders))

    async def on_import(self, batch: BatchState, paths: list[str] | None) -> tuple[Any, ...]:
        """An imported suite (promptfoo, OpenAI Evals, Console CSV): state, status, every form box, data
        status, preview, template check; the suite's graders stay with its data set (`BatchState`)."""
        try:
            suite = await import_suite(paths, self.ctx.settings.batch_max_rows, self.ctx.prices.current())
        except (SuiteError, OSError) as problem:
            refused = problem if isinstance(problem, SuiteError) else SuiteError([str(problem)])
            return (batch, refusal_status(refused), *(gr.skip(),) * (self.form_size + DATA_OUTPUTS))
        plan = suite.plan()
        batch.dataset, batch.suite_graders = suite.dataset, list(suite.graders)
        return (batch, suite_status(suite), *self.form_of(replace(plan, graders=[]), keep_columns=not suite.columns,
                                                          suite_graders=batch.suite_graders))

    def on_suite_model(self, batch: BatchState, model: Any) -> tuple[Any, ...]:
        """Another grading model for the imported suite's model-graded graders: state, the Graders panel's line for them."""
        try:
            batch.suite_graders = regraded(batch.suite_graders, model)
        except GraderError as problem:
            return batch, f"⚠ {plain(word(str(problem)))}\n\n{graders_line(batch.suite_graders)}"
        return batch, graders_line(batch.suite_graders)
