"""A batch run's settings (the plan): template, data set, columns, repeats, graders, shared
parameters, cache and concurrency. Checked whole before a run starts; saved as a session file
and in the run file, and read back with the same checks."""

from __future__ import annotations

from playground.client.texts import Text

import json
import math
from dataclasses import dataclass, field
from typing import Any

from playground.client.batch.dataset import Dataset
from playground.client.batch.graders import GraderError, GraderSpec
from playground.client.batch.template import TemplateError, check_variables, variables_of
from playground.client.intent import FORMATS
from playground.client.tools.mock import MockTool, MockToolError, mock_tools_from
from playground.client.validation import is_utf8
from playground.client.errors import ProblemsError

MAX_COLUMNS = 8
MAX_REPEATS = 20
MAX_GRADERS = 12
KIND = "gateway-playground/batch"


@dataclass(frozen=True)
class ColumnPrompt:
    """A prompt library version a column sends instead of the run's prompt: its name and number,
    and its system and user templates as they were when the run was planned (partials included),
    so a resume sends the same."""

    name: str
    version: int
    system: str
    user: str

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "version": self.version, "system": self.system, "user": self.user}

    @classmethod
    def from_dict(cls, data: Any, index: int, problems: list[str]) -> ColumnPrompt | None:
        if data is None:
            return None
        fine = isinstance(data, dict) and set(data) == {"name", "version", "system", "user"} and isinstance(data["name"], str) \
            and 0 < len(data["name"]) <= 60 and isinstance(data["version"], int) and not isinstance(data["version"], bool) \
            and data["version"] >= 1 and all(isinstance(data[name], str) and len(data[name]) <= MAX_PROMPT for name in ("system", "user"))
        if not fine:
            problems.append(Text("plan.column_prompt_shape", index=index))
            return None
        return cls(data["name"], data["version"], data["system"], data["user"])


MAX_PROMPT = 100_000


@dataclass(frozen=True)
class ColumnSettings:
    """One column's own settings; None = the run's shared value is used."""

    temperature: float | None = None
    max_tokens: int | None = None
    stream: bool | None = None
    prompt: ColumnPrompt | None = None
    tools: tuple[MockTool, ...] = ()
    """Mocked tools the column offers; their calls are answered by the run (`client.tools.loop`)."""

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"temperature": self.temperature, "max_tokens": self.max_tokens, "stream": self.stream}
        if self.prompt is not None:  # a column without one writes what it did before
            data["prompt"] = self.prompt.to_dict()
        if self.tools:
            data["tools"] = [tool.to_dict() for tool in self.tools]
        return data

    @classmethod
    def from_dict(cls, data: Any, index: int, problems: list[str]) -> ColumnSettings:
        """Checked whole; each problem names the column and the field."""
        if data is None:
            return cls()
        if not isinstance(data, dict):
            problems.append(Text("plan.column_settings_object", index=index))
            return cls()
        temperature, tokens, stream = data.get("temperature"), data.get("max_tokens"), data.get("stream")
        if temperature is not None and not _temperature_ok(temperature):
            problems.append(Text("plan.column_temperature_number_from_0", index=index))
            temperature = None
        if tokens is not None and (isinstance(tokens, bool) or not isinstance(tokens, int) or not 1 <= tokens <= 1_000_000):
            problems.append(Text("plan.column_max_tokens_whole_number", index=index))
            tokens = None
        if stream is not None and not isinstance(stream, bool):
            problems.append(Text("plan.column_stream_true_false_null", index=index))
            stream = None
        tools: list[MockTool] = []
        try:
            tools = mock_tools_from(data.get("tools") or [])
        except MockToolError as error:
            problems += [Text("plan.column_tools", index=index, problem=problem) for problem in error.problems]
        return cls(temperature, tokens, stream, ColumnPrompt.from_dict(data.get("prompt"), index, problems), tuple(tools))


def _temperature_ok(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, (int, float)) and math.isfinite(value) and 0 <= value <= 2


class PlanError(ProblemsError):
    """What is wrong with a plan, every problem named."""


@dataclass
class Plan:
    user: str
    system: str = ""
    dataset: Dataset = field(default_factory=lambda: Dataset([]))
    columns: list[tuple[str, str]] = field(default_factory=list)
    repeats: int = 1
    graders: list[GraderSpec] = field(default_factory=list)
    temperature: float | None = None
    max_tokens: int | None = None
    stream: bool = True
    cache: bool = False
    concurrency: int = 4
    column_settings: list[ColumnSettings] = field(default_factory=list)

    def settings_for(self, column: int) -> tuple[float | None, int | None, bool]:
        """(temperature, max tokens, stream) a column sends: its own value, else the run's."""
        own = self.column_settings[column] if column < len(self.column_settings) else ColumnSettings()
        return (own.temperature if own.temperature is not None else self.temperature,
                own.max_tokens if own.max_tokens is not None else self.max_tokens,
                own.stream if own.stream is not None else self.stream)

    def templates_for(self, column: int) -> tuple[str, str]:
        """(system, user) templates a column sends: its own prompt's, else the run's."""
        own = self.column_settings[column].prompt if column < len(self.column_settings) else None
        return (own.system, own.user) if own is not None else (self.system, self.user)

    def tools_for(self, column: int) -> tuple[MockTool, ...]:
        """The mocked tools `column` offers (none: it sends no tools)."""
        return self.column_settings[column].tools if column < len(self.column_settings) else ()

    def own_settings_text(self, column: int) -> str:
        """The column's own settings in words ("" when it uses the run's values throughout)."""
        own = self.column_settings[column] if column < len(self.column_settings) else ColumnSettings()
        parts = ([f"temperature {own.temperature:g}"] if own.temperature is not None else []) + \
            ([Text("plan.max_tokens", max_tokens=own.max_tokens)] if own.max_tokens is not None else []) + \
            ([f"stream {'on' if own.stream else 'off'}"] if own.stream is not None else []) + \
            ([Text("plan.column_prompt", name=own.prompt.name, version=own.prompt.version)] if own.prompt is not None else []) + \
            ([Text("plan.mocked_tools", names=", ".join(tool.name for tool in own.tools))] if own.tools else [])
        return " · ".join(parts)

    @property
    def total(self) -> int:
        return len(self.dataset.rows) * self.repeats * len(self.columns)

    def variables(self) -> list[str]:
        own = [text for settings in self.column_settings if settings.prompt is not None for text in (settings.prompt.system, settings.prompt.user)]
        return variables_of([self.system, self.user, *own])

    def uses_run_prompt(self) -> bool:
        """Whether a column sends the run's own prompt (one without a prompt of its own)."""
        return any(index >= len(self.column_settings) or self.column_settings[index].prompt is None for index in range(len(self.columns))) \
            or not self.columns

    def unsendable(self) -> str | None:
        """The problem when the plan holds text that cannot be sent or saved (a lone surrogate:
        UTF-8 cannot encode it), naming where; None when all of it can."""
        try:
            json.dumps(self.to_dict(), ensure_ascii=False).encode("utf-8")
            return None
        except UnicodeEncodeError:
            pass
        where = Text("plan.a_column_or_grader")
        if not is_utf8(self.system):
            where = Text("plan.system_prompt")
        elif not is_utf8(self.user):
            where = Text("plan.user_prompt")
        else:
            broken = next((index for index, row in enumerate(self.dataset.rows, 1)
                           if not all(is_utf8(name) and is_utf8(value) for name, value in row.items())), None)
            if broken is not None or not all(is_utf8(name) for name in self.dataset.columns):
                where = Text("plan.row_data_set", row=broken) if broken is not None else Text("plan.column_name_data_set")
        return Text("plan.holds_broken_character_lone_surrogate", where=where)

    def problems(self, max_rows: int, max_concurrency: int) -> tuple[list[str], list[str]]:
        """(blocking problems, warnings) — e.g. a missing variable blocks, an unused column warns."""
        blocking: list[str] = []
        warnings: list[str] = []
        broken = self.unsendable()
        if broken:
            blocking.append(broken)
        if not self.user.strip() and self.uses_run_prompt():
            blocking.append(Text("plan.write_user_prompt"))
        for index, own in enumerate(self.column_settings, 1):
            if own.prompt is not None and not own.prompt.user.strip():
                blocking.append(Text("plan.column_prompt_no_user", index=index, name=own.prompt.name, version=own.prompt.version))
        try:
            used = self.variables()
        except TemplateError as error:
            blocking.append(str(error))
            used = []
        if not self.dataset.rows:
            blocking.append(Text("plan.add_data_set_paste_rows") if used else Text("plan.add_data_set_one_row"))
        else:
            for problem in check_variables(used, self.dataset.columns):
                (blocking if problem.startswith("no value") else warnings).append(problem)
        if len(self.dataset.rows) > max_rows:
            blocking.append(Text("plan.too_many_rows", rows=len(self.dataset.rows), limit=max_rows))
        if not 1 <= len(self.columns) <= MAX_COLUMNS:
            blocking.append(Text("plan.choose_1_columns_format_model", limit=MAX_COLUMNS))
        for index, (fmt, model) in enumerate(self.columns, 1):
            if fmt not in FORMATS or not model.strip():
                blocking.append(Text("plan.column_needs_format_model", index=index))
        if not 1 <= self.repeats <= MAX_REPEATS:
            blocking.append(Text("plan.repeat_each_row_1_times", limit=MAX_REPEATS))
        if not 1 <= self.concurrency <= max_concurrency:
            blocking.append(Text("plan.requests_at_once", limit=max_concurrency))
        if len(self.graders) > MAX_GRADERS:
            blocking.append(Text("plan.too_many_graders", limit=MAX_GRADERS))
        if self.temperature is not None and not _temperature_ok(self.temperature):
            blocking.append(Text("plan.temperature_between_0_2"))
        if len(self.column_settings) > len(self.columns):
            blocking.append(Text("plan.column_settings_given_column_without"))
        for index, own in enumerate(self.column_settings, 1):
            if own.temperature is not None and not _temperature_ok(own.temperature):
                blocking.append(Text("plan.column_temperature_between_0_2", index=index))
        if self.cache and self.repeats > 1:
            warnings.append(Text("plan.cache_repeats_row_send_one"))
        return blocking, warnings

    def to_dict(self) -> dict[str, Any]:
        return {"kind": KIND, "version": 1, "system": self.system, "user": self.user,
                "dataset": {"columns": self.dataset.columns, "rows": self.dataset.rows, "source": self.dataset.source},
                "columns": [list(c) for c in self.columns], "repeats": self.repeats, "graders": [g.to_dict() for g in self.graders],
                "temperature": self.temperature, "max_tokens": self.max_tokens, "stream": self.stream, "cache": self.cache,
                "concurrency": self.concurrency, "column_settings": [c.to_dict() for c in self.column_settings]}

    @classmethod
    def from_dict(cls, data: Any, max_rows: int) -> Plan:
        """A plan from a session or run file, checked whole (raises `PlanError` naming each field)."""
        problems: list[str] = []
        if not isinstance(data, dict) or data.get("kind") != KIND:
            raise PlanError([Text("plan.not_batch_session_file_kind", kind=repr(KIND))])

        def text(name: str) -> str:
            value = data.get(name, "")
            if not isinstance(value, str):
                problems.append(Text("plan.must_be_text", name=name))
                return ""
            return value

        def whole(name: str, low: int, high: int, default: int | None) -> int | None:
            value = data.get(name, default)
            if value is None and default is None:
                return None
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                problems.append(Text("plan.whole_number_from", name=name, low=low, high=high))
                return default
            return value

        raw = data.get("dataset") or {}
        columns = raw.get("columns") if isinstance(raw, dict) else None
        rows = raw.get("rows") if isinstance(raw, dict) else None
        dataset = Dataset([])
        if not (isinstance(columns, list) and all(isinstance(c, str) for c in columns) and isinstance(rows, list)):
            problems.append(Text("plan.dataset_columns_names_rows"))
        elif len(rows) > max_rows:
            problems.append(Text("plan.dataset_too_many_rows", rows=len(rows), limit=max_rows))
        elif not all(isinstance(r, dict) and set(r) == set(columns) and all(isinstance(v, str) for v in r.values()) for r in rows):
            problems.append(Text("plan.every_dataset_row_give_text"))
        else:
            dataset = Dataset(list(columns), [dict(r) for r in rows], str(raw.get("source") or Text("plan.session_file")))
        pairs = data.get("columns")
        if not isinstance(pairs, list) or not all(isinstance(p, list) and len(p) == 2 and all(isinstance(v, str) for v in p) for p in pairs):
            problems.append(Text("plan.columns_format_model_pairs"))
            pairs = []
        graders = []
        raw_graders = data.get("graders") or []
        if not isinstance(raw_graders, list):
            problems.append(Text("plan.graders_must_be_list"))
            raw_graders = []
        for index, item in enumerate(raw_graders, 1):
            try:
                graders.append(GraderSpec.from_dict(item))
            except GraderError as error:
                problems.append(f"grader {index}: {error}")
        raw_settings = data.get("column_settings") or []
        if not isinstance(raw_settings, list) or len(raw_settings) > len(pairs):
            problems.append(Text("plan.column_settings_list_most_one"))
            raw_settings = []
        own = [ColumnSettings.from_dict(item, index, problems) for index, item in enumerate(raw_settings, 1)]
        temperature = data.get("temperature")
        if temperature is not None and not _temperature_ok(temperature):
            problems.append(Text("plan.temperature_number_from_0_2"))
            temperature = None
        flags = {}
        for name in ("stream", "cache"):
            flags[name] = data.get(name, name == "stream")
            if not isinstance(flags[name], bool):
                problems.append(Text("plan.must_be_true_or_false", name=name))
        plan = cls(text("user"), text("system"), dataset, [(f, m) for f, m in pairs], whole("repeats", 1, MAX_REPEATS, 1) or 1,
                   graders, temperature, whole("max_tokens", 1, 1_000_000, None), bool(flags["stream"]), bool(flags["cache"]),
                   whole("concurrency", 1, 64, 4) or 4, own)
        broken = plan.unsendable()
        if broken:
            problems.append(broken)
        if problems:
            raise PlanError(problems)
        return plan
