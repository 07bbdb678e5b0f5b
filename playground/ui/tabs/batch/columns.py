"""Each Batch column's own settings: temperature, max output tokens, stream and a prompt library
version under its format and model pickers (empty = the run's value), read exactly as typed
(refused with the column and the field named, never rounded), and a line saying which value each
column uses."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import gradio as gr

from dataclasses import replace

from playground.client.batch.plan import ColumnPrompt, ColumnSettings, Plan, PlanError
from playground.client.errors import RequestValidationError
from playground.client.tools.mock import MockTool, MockToolError, mock_tools_text, read_mock_tools
from playground.ui.shared.column_picker import slots
from playground.ui.tabs.batch.column_prompts import parse_reference, prompt_picker, reference
from playground.ui.shared.forms import whole
from playground.ui.i18n import say, t
from playground.ui.i18n.client_words import word_list
from playground.ui.shared.render import plain

STREAM_CHOICES = [(t("batch_col.same"), ""), (t("batch_col.on"), "on"), (t("batch_col.off"), "off")]
PER_COLUMN = 4  # temperature, max tokens, stream, prompt library version
PROMPT_AT = 3


def _text(value: Any) -> str:
    return str(value if value is not None else "").strip()


def temperature_of(label: str, value: Any) -> float | None:
    """A temperature box: empty is None; otherwise a number from 0 to 2 as typed (`label` names it)."""
    raw = _text(value)
    if not raw:
        return None
    try:
        number = float(raw)
    except ValueError:
        raise PlanError([f"{label} must be a number from 0 to 2 or empty (got {raw[:20]!r})"]) from None
    if not (math.isfinite(number) and 0 <= number <= 2):
        raise PlanError([f"{label} must be from 0 to 2 (got {raw[:20]})"])
    return number


def tokens_of(label: str, value: Any) -> int | None:
    """A max-tokens text box: empty is None; a whole number of 1 or more as typed (1.5 is refused)."""
    raw = _text(value)
    if not raw:
        return None
    try:
        number: Any = int(raw)
    except ValueError:
        try:
            number = float(raw)
        except ValueError:
            number = raw
    try:
        tokens = whole(label, number)
    except RequestValidationError as error:
        raise PlanError(error.problems) from None
    if tokens is None or not 1 <= tokens <= 1_000_000:
        raise PlanError([f"{label} must be a whole number from 1 to 1000000 or empty (got {raw[:20]})"])
    return tokens


def own_settings(index: int, temperature: Any, tokens: Any, stream: Any, prompt: Any = None) -> ColumnSettings:
    """One column's boxes -> its settings (raises `PlanError` naming every problem of the column);
    `prompt` is the version its picker named, read from the library (`ColumnPrompts.resolved`)."""
    problems: list[str] = []
    values: list[Any] = []
    for read, name, value in ((temperature_of, "bcols.temperature", temperature), (tokens_of, "bcols.max_tokens", tokens)):
        try:
            values.append(read(say("bcols.field", number=index + 1, name=say(name)), value))
        except PlanError as error:
            problems += error.problems
            values.append(None)
    if problems:
        raise PlanError(problems)
    return ColumnSettings(values[0], values[1], {"on": True, "off": False}.get(stream or ""), prompt if isinstance(prompt, ColumnPrompt) else None)


def columns_with_settings(column_values: list[Any], setting_values: list[Any]) -> tuple[list[tuple[str, str]], list[ColumnSettings]]:
    """The chosen columns and their own settings, slot by slot (a blank slot's settings are dropped);
    raises `PlanError` naming every problem of every chosen column."""
    columns, settings, problems = [], [], []
    pairs = slots(column_values)
    setting_values = list(setting_values) + [""] * (PER_COLUMN * len(pairs))
    for index, (fmt, model) in enumerate(pairs):
        if not (fmt and model and model.strip()):
            continue
        columns.append((fmt, model.strip()))
        try:
            settings.append(own_settings(index, *setting_values[index * PER_COLUMN:(index + 1) * PER_COLUMN]))
        except PlanError as error:
            problems += error.problems
            settings.append(ColumnSettings())
    if problems:
        raise PlanError(problems)
    return columns, settings


def mocked_tools_of(text: str) -> tuple[MockTool, ...]:
    """The Batch tab's mocked tools box, read bounded and checked whole (raises `PlanError` naming each problem)."""
    try:
        return tuple(read_mock_tools(text or ""))
    except MockToolError as error:
        raise PlanError([say("bcols.mock_problem", problem=word_list(error.problems))]) from None


def with_mocked_tools(columns: list[tuple[str, str]], settings: list[ColumnSettings], column_values: list[Any], offers: list[Any],
                      tools: tuple[MockTool, ...]) -> list[ColumnSettings]:
    """Each chosen column's settings with the mocked tools when its "offer" box is ticked (raises
    `PlanError` when a column offers them and none are declared)."""
    ticked = [bool(offers[index]) if index < len(offers) else False for index, (fmt, model) in enumerate(slots(column_values))
              if fmt and model and model.strip()]
    if any(ticked) and not tools:
        raise PlanError([say("bcols.no_mocks")])
    return [replace(own, tools=tools) if ticked[index] else own for index, own in enumerate(settings[:len(columns)])]


def session_offers(plan: Plan, count: int) -> list[Any]:
    """A loaded plan's "offer the mocked tools" boxes, slot by slot, then the mocked tools box (the
    first column's tools that has some: the form holds one set for every column)."""
    offered = [plan.tools_for(index) for index in range(count)]
    first = next((tools for tools in offered if tools), ())
    return [bool(tools) for tools in offered] + [mock_tools_text(first) if first else ""]


def used_text(column_values: list[Any], setting_values: list[Any], temperature: Any, tokens: Any, stream: Any) -> str:
    """Per chosen column, the values it sends and whether they are its own or the run's."""
    lines = []
    pairs = slots(column_values)
    setting_values = list(setting_values) + [""] * (PER_COLUMN * len(pairs))
    for index, (fmt, model) in enumerate(pairs):
        if not (fmt and model and model.strip()):
            continue
        own_t, own_m, own_s, own_p = (_text(v) for v in setting_values[index * PER_COLUMN:(index + 1) * PER_COLUMN])
        shared_m = "" if tokens in (None, "", 0) else _text(tokens)
        not_set = say("bcols.not_set")
        parts = [_which(say("bcols.temperature"), own_t, _text(temperature), not_set), _which(say("bcols.max_tokens"), own_m, shared_m, not_set),
                 _which(say("bcols.stream"), _switch_words(own_s), say("bcols.on" if stream else "bcols.off"), "")]
        if parse_reference(own_p) is not None:
            parts.append(say("bcols.own", name=say("bcols.prompt"), value=plain(own_p)))
        lines.append(say("bcols.column", number=index + 1, model=plain(model.strip()), parts=" · ".join(parts)))
    return say("bcols.title") + "\n\n" + "\n".join(lines) if lines else ""


def _switch_words(value: str) -> str:
    """A column's own stream setting ("on"/"off" as the box holds it) in words."""
    return say(f"bcols.{value}") if value in ("on", "off") else value


def _which(name: str, own: str, shared: str, empty: str) -> str:
    if own:
        return say("bcols.own", name=name, value=plain(own))
    return say("bcols.shared", name=name, value=plain(shared) if shared else empty)


def session_setting_values(plan: Plan, count: int) -> list[Any]:
    """A loaded plan's column settings as the boxes' values, slot by slot."""
    values: list[Any] = []
    for index in range(count):
        own = plan.column_settings[index] if index < len(plan.column_settings) else ColumnSettings()
        values += ["" if own.temperature is None else repr(own.temperature), "" if own.max_tokens is None else str(own.max_tokens),
                   "" if own.stream is None else ("on" if own.stream else "off"),
                   "" if own.prompt is None else reference(own.prompt.name, f"v{own.prompt.version}")]
    return values


@dataclass
class ColumnSettingsInputs:
    prefix: str
    components: list[Any] = field(default_factory=list)
    offers: list[Any] = field(default_factory=list)
    """Each column's "offer the mocked tools" box (sent after every column's own boxes)."""

    def add(self, index: int) -> None:
        """One column's boxes (call inside the column's layout, under its pickers)."""
        self.components += [
            gr.Textbox("", label=t("batch_col.temperature"), elem_id=f"{self.prefix}-col-temperature-{index}"),
            gr.Textbox("", label=t("batch_col.max_tokens"), elem_id=f"{self.prefix}-col-max-tokens-{index}"),
            gr.Dropdown(STREAM_CHOICES, value="", label=t("batch_col.stream"), elem_id=f"{self.prefix}-col-stream-{index}"),
            prompt_picker(self.prefix, index),
        ]
        self.offers.append(gr.Checkbox(False, label=t("batch_col.mocked_tools"), elem_id=f"{self.prefix}-col-tools-{index}"))

    @property
    def prompts(self) -> list[Any]:
        """Each column's prompt library picker."""
        return self.components[PROMPT_AT::PER_COLUMN]
