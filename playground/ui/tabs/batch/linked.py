"""What a Batch link holds beyond its boxes (`TabLink.written`): the data set (its name and rows, whether
pasted, the sample, an upload or an import: the rows themselves, never a path to read again), the
graders with their settings, and an imported suite's own graders (`BatchState.suite_graders`: thresholds,
labels, prices, per-row values, which the boxes cannot hold), each packed (`shared.link_packing`) under a
stated cap.

Copy link (`BatchLink.on_copy`) writes both from the page's state and grader boxes; a data set too
large for a link, or graders the boxes hold wrongly, are left out and said so in the link box's label
(where the person looks) and in the note under it, and the rest is still linked. Opening a link (`BatchLink.on_open`, after the page's load) reads each part
whole and bounded before anything on screen changes: the packed text's length and alphabet, its size
unpacked (a decompression bomb stops at the cap), then the data set through the JSONL reader and its
budget (rows against `PLAYGROUND_BATCH_MAX_ROWS`, columns, values, nesting, time) and each grader
through the checks a grader typed into the boxes gets (a suite's graders through the checks an import's
get, at most `MAX_GRADERS` as a run takes). A part refused changes nothing and is named in
the tab's notice with the reason; the other part still opens."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any

import gradio as gr

from playground.client.batch.dataset import Dataset, DatasetError, read_in_worker, read_jsonl
from playground.client.batch.dataset_budget import Budget
from playground.client.batch.graders import GraderError, GraderSpec, fits_the_boxes
from playground.client.batch.plan import MAX_GRADERS, PlanError
from playground.client.errors import RequestValidationError
from playground.ui.i18n import say, visitor_locale
from playground.ui.i18n.client_words import message_of, word, word_list
from playground.ui.shared.link_packing import PackedError, pack, unpack, unpack_json
from playground.ui.shared.links import MAX_TEXT
from playground.ui.shared.render import plain
from playground.ui.shared.widgets import banner_update
from playground.ui.tabs.batch.changes import link_parameter, linked_form
from playground.ui.tabs.batch.form import DATA_OUTPUTS, GRADER_SLOTS, data_shown, grader_boxes, graders_from
from playground.ui.tabs.context import TabContext

DATA, GRADERS, SUITE = "data", "graders", "suite"
"""The query parameters (`TabLink.written` of the Batch tab)."""
MAX_DATA_CHARS = 24_000
"""The packed data set in a link: 24,000 characters (with the graders' 4,000 and the templates, a link
stays well under the 40 KB `long_links` allows)."""
MAX_DATA_BYTES = 1_000_000
"""The data set's text unpacked: 1 MB at most."""
MAX_GRADERS_CHARS = 4_000
MAX_GRADERS_BYTES = 50_000
"""The grader boxes' parameter, and an imported suite's graders' (`suite`), each: 4,000 packed characters, 50 KB unpacked."""
MAX_NAME = 80
"""A data set's name (where it came from: pasted, CSV, an imported suite's name)."""
MAX_HEAD = 1_000
GRADER_DEPTH = 3
"""The graders' JSON: a list of objects whose values are text, numbers or lists of text."""


def dataset_text(dataset: Dataset) -> str:
    """The data set as the link packs it: a line with its name, then one JSON object per row, its keys
    the columns in order (raises `PackedError` `too_large`, counted before anything is built, when its
    values alone pass the cap)."""
    size = sum(len(value) for row in dataset.rows for value in row.values())
    if size > MAX_DATA_BYTES:
        raise PackedError("too_large", kb=f"{size / 1000:,.1f}", limit=f"{MAX_DATA_BYTES / 1000:,.1f}")
    lines = [_compact({"name": dataset.source})]
    lines += [_compact({name: row.get(name, "") for name in dataset.columns}) for row in dataset.rows]
    return "\n".join(lines)


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def data_parameter(dataset: Dataset | None) -> str:
    """The `data` parameter for `dataset` ("" for none; raises `PackedError` when it is too large for a link)."""
    if dataset is None or not dataset.rows:
        return ""
    return pack(dataset_text(dataset), MAX_DATA_CHARS, MAX_DATA_BYTES)


def _name(head: str) -> str:
    if len(head) > MAX_HEAD:
        raise PackedError("bad_name")
    try:
        value = json.loads(head)
    except ValueError:
        raise PackedError("bad_name") from None
    name = value.get("name") if isinstance(value, dict) else None
    if not isinstance(name, str) or not name or len(name) > MAX_NAME or not name.isprintable():
        raise PackedError("bad_name")
    return name


def read_data(text: str, max_rows: int) -> Dataset:
    """A `data` parameter's text unpacked and read whole (raises `PackedError` or `DatasetError`)."""
    head, _, rows = unpack(text, MAX_DATA_CHARS, MAX_DATA_BYTES).partition("\n")
    name = _name(head)
    dataset = read_jsonl(rows, Budget(max_rows))  # the rows' budget, columns, values and nesting, as a JSONL file's
    return Dataset(dataset.columns, dataset.rows, name)


def graders_parameter(values: list[Any]) -> str:
    """The `graders` parameter for the grader boxes' values ("" for none; raises `PlanError` naming a box's
    problem, `PackedError` past the cap)."""
    specs = graders_from(values)
    if not specs:
        return ""
    return pack(_compact([spec.to_dict() for spec in specs]), MAX_GRADERS_CHARS, MAX_GRADERS_BYTES)


def read_graders(text: str) -> list[Any]:
    """A `graders` parameter read whole: the grader boxes' values (raises `PackedError` or `PlanError`)."""
    items = unpack_json(text, MAX_GRADERS_CHARS, MAX_GRADERS_BYTES, GRADER_DEPTH)
    if not isinstance(items, list) or not items:
        raise PackedError("not_graders")
    if len(items) > GRADER_SLOTS:
        raise PackedError("too_many_graders", count=len(items), limit=GRADER_SLOTS)
    specs, problems = _specs(items, boxed=True)
    if problems:
        raise PlanError(problems)
    values = grader_boxes([spec for spec in specs if spec is not None])
    graders_from(values)  # what the boxes will hold, checked as Run checks it
    return values


def suite_parameter(specs: list[GraderSpec]) -> str:
    """The `suite` parameter for an imported suite's graders ("" for none; raises `PackedError` past the cap)."""
    if not specs:
        return ""
    return pack(_compact([spec.to_dict() for spec in specs]), MAX_GRADERS_CHARS, MAX_GRADERS_BYTES)


def read_suite(text: str) -> list[GraderSpec]:
    """A `suite` parameter read whole: an imported suite's graders, each checked as an import's are (raises
    `PackedError` or `PlanError` naming every grader refused)."""
    items = unpack_json(text, MAX_GRADERS_CHARS, MAX_GRADERS_BYTES, GRADER_DEPTH)
    if not isinstance(items, list) or not items:
        raise PackedError("not_graders")
    if len(items) > MAX_GRADERS:
        raise PackedError("too_many_suite_graders", count=len(items), limit=MAX_GRADERS)
    specs, problems = _specs(items)
    if problems:
        raise PlanError(problems)
    return [spec for spec in specs if spec is not None]


def _specs(items: list[Any], boxed: bool = False) -> tuple[list[GraderSpec | None], list[str]]:
    """Each item read as a grader (None where refused) and the refusals in order, each naming its grader's
    number; `boxed`: a grader the boxes cannot hold is refused too."""
    specs: list[GraderSpec | None] = []
    problems: list[str] = []
    for number, item in enumerate(items, 1):
        spec = None
        try:
            spec = GraderSpec.from_dict(item)
        except RequestValidationError as error:
            problems.append(say("bview.grader_problem", number=number, problem=word_list(error.problems)))
        except (GraderError, ValueError, TypeError) as error:
            problems.append(say("bview.grader_problem", number=number, problem=word(message_of(error))))
        if spec is not None and boxed and not fits_the_boxes(spec):
            problems.append(say("bview.grader_problem", number=number, problem=say("blink.grader_not_boxed")))
        specs.append(spec)
    return specs, problems


def _refusal(problem: Exception) -> str:
    if isinstance(problem, PackedError):
        return problem.words()
    if isinstance(problem, PlanError):
        return word_list(problem.problems)
    return word(message_of(problem))


@dataclass
class BatchLink:
    """The Batch tab's link parts: written for Copy link, read when a link opens the tab."""

    ctx: TabContext
    first_templates: tuple[str, str] = ("", "")
    """The system and user templates as the page builds them: what a link without its own (`system`, `q`) opens
    beside its data set. The page-load step reads no box of the form: Gradio's page would keep a loading status for
    each input and walk its whole tree for them on every later status message (issue 41)."""

    async def on_copy(self, batch: Any, mocks: Any, *grader_values: Any) -> tuple[Any, ...]:
        """Copy link pressed: the `data`, `graders` and `suite` parameters, the note under Copy link (what was left out of the
        link and why, then once what it holds; hidden when nothing was) and the link box's label, which says in a few
        words what was left out where the person looks. `mocks`: the mocked tools box, which the link holds as typed
        (`mocks`) up to the `MAX_TEXT` a link's opener takes; longer, it is said here and named when the link opens.
        The data set is packed on a worker thread (up to about 50 ms for the largest a link takes)."""
        notes, short, data, graders, suite = [], [], "", "", ""
        data_out = False
        try:
            data = await asyncio.to_thread(data_parameter, batch.dataset)
        except PackedError as problem:
            data_out = True
            rows = len(batch.dataset.rows)
            notes.append(say("blink.data_left_out", rows=f"{rows:,}", reason=problem.words()))
            short.append(say("blink.box_no_data"))
        graders_out = False
        try:
            graders = graders_parameter(list(grader_values))
        except (PackedError, PlanError) as problem:
            graders_out = True
            notes.append(say("blink.graders_left_out", reason=plain(_refusal(problem))))
            short.append(say("blink.box_no_graders_large" if isinstance(problem, PackedError) else "blink.box_no_graders"))
        if batch.suite_graders and data_out:  # they grade the suite's data set: without it they are no use
            graders_out = True
            notes.append(say("blink.suite_left_out", count=len(batch.suite_graders), reason=say("blink.suite_needs_data")))
            short.append(say("blink.box_no_suite_with_data"))
        try:
            suite = suite_parameter(batch.suite_graders) if data else ""
        except PackedError as problem:
            graders_out = True
            notes.append(say("blink.suite_left_out", count=len(batch.suite_graders), reason=problem.words()))
            short.append(say("blink.box_no_suite"))
        mocks_out = len(str(mocks or "")) > MAX_TEXT
        if mocks_out:
            notes.append(say("blink.mocks_left_out", chars=f"{len(str(mocks)):,}", limit=f"{MAX_TEXT:,}"))
            short.append(say("blink.box_no_mocks"))
        if notes:
            linked_graders = (graders or suite) and not graders_out
            notes.append(say(f"blink.holds_rest{'_graders' if linked_graders else ''}{'_no_mocks' if mocks_out else ''}"))
        label = say("blink.box_left_out", parts=visitor_locale().list_separator.join(short)) if short else say("links.box")
        return data, graders, suite, banner_update("\n\n".join(notes)), gr.update(label=label)

    async def on_open(self, batch: Any) -> tuple[Any, ...]:
        """After the page's load, a link to the tab with its own form (`linked_form`): its data set, graders and an
        imported suite's graders (kept with the data set in `batch`, so opened only with it), each read whole first:
        state, what the page shows of the data set (`data_shown`), the grader boxes, the tab's notice."""
        untouched = (batch, *(gr.skip(),) * (DATA_OUTPUTS + GRADER_SLOTS * 5 + 1))
        data_text, graders_text, suite_text = link_parameter(DATA), link_parameter(GRADERS), link_parameter(SUITE)
        if not linked_form() or not (data_text or graders_text or suite_text):
            return untouched
        refused: list[str] = []
        dataset, boxes, suite = None, None, None
        if data_text:
            try:
                dataset = await read_in_worker(read_data, data_text, self.ctx.settings.batch_max_rows)
            except (PackedError, DatasetError) as problem:
                refused.append(say("blink.data_refused", reason=plain(_refusal(problem))))
        if graders_text:
            try:
                boxes = read_graders(graders_text)
            except (PackedError, PlanError) as problem:
                refused.append(say("blink.graders_refused", reason=plain(_refusal(problem))))
        if suite_text:
            try:
                suite = read_suite(suite_text)
            except (PackedError, PlanError) as problem:
                refused.append(say("blink.suite_refused", reason=plain(_refusal(problem))))
            if suite is not None and dataset is None:  # they grade the link's data set, and go only with it
                suite = None
                refused.append(say("blink.suite_refused", reason=say("blink.suite_without_data")))
        notice = banner_update(say("blink.refused", parts=" ".join(refused)) if refused else "")
        shown: list[Any] = [gr.skip()] * DATA_OUTPUTS
        if dataset is not None:
            batch.dataset, batch.suite_graders = dataset, suite or []
            system_text, user_text = link_parameter("system") or self.first_templates[0], link_parameter("q") or self.first_templates[1]
            shown = data_shown(dataset, system_text, user_text, batch.suite_graders)
        return (batch, *shown, *(boxes if boxes is not None else [gr.skip()] * (GRADER_SLOTS * 5)), notice)
