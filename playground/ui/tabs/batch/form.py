"""The Batch tab's form as a plan: the data set read and described, the template checked, the
grader slots and columns read as typed, the plan with its warnings, and a saved session file read
back into the form. Plain functions the handlers and the tests call."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playground.client.batch.dataset import PASTED_SOURCE, Dataset, read_file, read_in_worker, read_paste
from playground.client.batch.graders import GraderError, GraderSpec
from playground.client.batch.plan import Plan, PlanError
from playground.client.batch.template import TemplateError, check_variables, variables_of
from playground.client.errors import RequestValidationError
from playground.client.json_depth import deeper_than
from playground.client.validation import MAX_DATA_DEPTH
from playground.ui.i18n import say
from playground.ui.i18n.client_words import word, word_list
from playground.ui.shared.forms import optional_positive, whole
from playground.ui.shared.render import code, plain
from playground.ui.tabs.batch.suites import suite_graders_shown
from playground.ui.tabs.batch.views import preview_rows
from playground.ui.tabs.batch.columns import columns_with_settings, mocked_tools_of, temperature_of, with_mocked_tools

GRADER_SLOTS = 6
MAX_SESSION_BYTES = 20_000_000


async def load_dataset(path: str | None, paste: str, system: str, user: str, max_rows: int) -> Dataset:
    """The uploaded file, or else the pasted rows, read on the data-set readers' threads within
    their budget (raises `DatasetError`, `TemplateError` or `OSError`)."""
    if path:
        return await read_in_worker(read_file, path, max_rows)
    return await read_in_worker(read_paste, paste, variables_of([system, user]), max_rows)


def dataset_status(dataset: Dataset) -> str:
    shown = ", ".join(code(name) for name in dataset.columns)
    rows = say("bview.row_one" if len(dataset.rows) == 1 else "bview.row_many")
    return say("bview.rows", count=f"{len(dataset.rows):,}", rows=rows, source=source_words(dataset.source), columns=shown)


DATA_OUTPUTS = 5
"""How many values `data_shown` gives."""


def data_shown(dataset: Dataset, system: str, user: str, suite_graders: list[GraderSpec] | None = None) -> list[Any]:
    """What the page shows of a data set and of the graders that came with it (the tab's `data_outputs`):
    its status, preview and template check, then the suite's graders in the Graders panel."""
    return [dataset_status(dataset), preview_rows(dataset), template_check(system, user, dataset), *suite_graders_shown(suite_graders or [])]


def source_words(source: str) -> str:
    """Where a data set came from, in the visitor's language where it is a word (pasted rows)."""
    return say("bview.source.pasted") if source == PASTED_SOURCE else plain(source)


def template_check(system: str, user: str, dataset: Dataset | None) -> str:
    """Which variables the prompt uses and what is missing or unused (shown before sending)."""
    try:
        used = variables_of([system, user])
    except TemplateError as error:
        return f"⚠ {plain(word(str(error)))}"
    if not used:
        return say("bview.no_variables")
    found = say("bview.variables", names=", ".join(f"`{{{{{plain(name)}}}}}`" for name in used))
    if dataset is None:
        return found + say("bview.add_dataset")
    problems = check_variables(used, dataset.columns)
    return found + ("" if not problems else " · ⚠ " + plain("; ".join(problems)))


def tool_grader_parts(value: str) -> tuple[str, str]:
    """A "called the tool" grader's box: the tool's name, then optionally the expected arguments as a
    JSON object (`get_weather {"city": "{{city}}"}`)."""
    text = (value or "").strip()
    start = text.find("{")
    return (text, "") if start < 0 else (text[:start].strip(), text[start:].strip())


def tool_grader_box(spec: GraderSpec) -> str:
    return f"{spec.value} {spec.arguments}".strip()


def graders_from(values: list[Any]) -> list[GraderSpec]:
    """Grader slots (kind, value, min, max, model) -> specs, each checked (raises `PlanError`)."""
    specs, problems = [], []
    for slot in range(0, len(values), 5):
        kind, value, low, high, model = values[slot:slot + 5]
        if not kind:
            continue
        arguments = ""
        if kind == "tool_called":
            value, arguments = tool_grader_parts(value)
        try:
            spec = GraderSpec.from_dict({"kind": kind, "value": value or "", "model": model or "", "arguments": arguments,
                                         "minimum": whole("min length", low) if low else None,
                                         "maximum": whole("max length", high) if high else None})
            specs.append(spec)
        except RequestValidationError as error:
            problems.append(say("bview.grader_problem", number=slot // 5 + 1, problem=word_list(error.problems)))
        except (GraderError, ValueError, TypeError) as error:
            problems.append(say("bview.grader_problem", number=slot // 5 + 1, problem=word(str(error))))
    if problems:
        raise PlanError(problems)
    return specs


def plan_from_form(system: str, user: str, dataset: Dataset | None, column_values: list[Any], repeats: Any, concurrency: Any,
                   temperature: Any, max_tokens: Any, stream: bool, cache: bool, grader_values: list[Any],
                   max_rows: int, max_concurrency: int, setting_values: list[Any] | None = None,
                   suite_graders: list[GraderSpec] | None = None, offers: list[Any] | None = None, mocked_tools: str = "") -> tuple[Plan, list[str]]:
    """The plan and its warnings (raises `PlanError` naming every blocking problem). `setting_values`
    are the columns' own boxes (`batch_columns`), four per column slot (the fourth a picked
    `ColumnPrompt` or None); `suite_graders` an imported suite's graders, graded after the form's;
    `offers` each column slot's "offer the mocked tools" box and `mocked_tools` the tab's mocked
    tools (JSON, `client.tools.mock`)."""
    problems: list[str] = []

    def read(reader: Any, *args: Any) -> Any:
        try:
            return reader(*args)
        except PlanError as error:
            problems.extend(error.problems)
        except RequestValidationError as error:  # sent as typed: 1.5 repeats or tokens is refused, never rounded
            problems.extend(error.problems)
        return None

    graders = (read(graders_from, grader_values) or []) + list(suite_graders or [])
    columns, own = read(columns_with_settings, column_values, list(setting_values or [])) or ([], [])
    tools = read(mocked_tools_of, mocked_tools) or ()
    own = read(with_mocked_tools, columns, own, column_values, list(offers or []), tools) or own
    repeat_count = read(whole, "repeat each row N times", repeats) or 1
    tokens = read(optional_positive, max_tokens, "max output tokens")
    shared_temperature = read(temperature_of, say("bcols.temperature"), temperature)
    if problems:  # every field's problem at once, each named
        raise PlanError(problems)
    plan = Plan(user or "", system or "", dataset or Dataset([]), columns, repeat_count, graders,
                shared_temperature, tokens, bool(stream), bool(cache), int(concurrency or 1), own)
    blocking, warnings = plan.problems(max_rows, max_concurrency)
    if blocking:
        raise PlanError(blocking)
    return plan, warnings


def read_session(path: str | None, max_rows: int) -> Plan:
    """A saved batch session file, checked whole (raises `PlanError`)."""
    if not path:
        raise PlanError([say("bview.choose_session")])
    file = Path(path)
    if file.stat().st_size > MAX_SESSION_BYTES:
        raise PlanError([say("bview.session_too_large", mb=MAX_SESSION_BYTES // 1_000_000)])
    try:
        text = file.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise PlanError([say("bview.not_json", error=str(error)[:80])]) from None
    if deeper_than(text, MAX_DATA_DEPTH):  # measured before json recurses into it
        raise PlanError([say("bview.session_too_deep", depth=MAX_DATA_DEPTH)])
    try:
        data = json.loads(text)
    except ValueError as error:
        raise PlanError([say("bview.not_json", error=str(error)[:80])]) from None
    return Plan.from_dict(data, max_rows)


def session_values(plan: Plan, columns: int) -> list[Any]:
    """Form values for a loaded plan: column pickers (interleaved), then grader slots."""
    pairs = list(plan.columns) + [("", "")] * columns
    column_values = [value for fmt, model in pairs[:columns] for value in (fmt, model)]
    return column_values + grader_boxes(list(plan.graders))


def grader_boxes(specs: list[GraderSpec]) -> list[Any]:
    """The grader slots' values (kind, value, min, max, model per slot) holding `specs`, the rest empty."""
    grader_values: list[Any] = []
    for spec in specs[:GRADER_SLOTS] + [None] * GRADER_SLOTS:
        value = (tool_grader_box(spec) if spec.kind == "tool_called" else spec.value) if spec else ""
        grader_values += [spec.kind, value, spec.minimum, spec.maximum, spec.model] if spec else ["", "", None, None, ""]
    return grader_values[:GRADER_SLOTS * 5]
