"""A batch run's settings (the plan): template, data set, columns, repeats, graders, shared
parameters, cache and concurrency. Checked whole before a run starts; saved as a session file
and in the run file, and read back with the same checks."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

from playground.client.batch.dataset import Dataset
from playground.client.batch.graders import GraderError, GraderSpec
from playground.client.batch.template import TemplateError, check_variables, variables_of
from playground.client.intent import FORMATS
from playground.client.validation import is_utf8

MAX_COLUMNS = 8
MAX_REPEATS = 20
MAX_GRADERS = 12
KIND = "gateway-playground/batch"


@dataclass(frozen=True)
class ColumnSettings:
    """One column's own settings; None = the run's shared value is used."""

    temperature: float | None = None
    max_tokens: int | None = None
    stream: bool | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"temperature": self.temperature, "max_tokens": self.max_tokens, "stream": self.stream}

    @classmethod
    def from_dict(cls, data: Any, index: int, problems: list[str]) -> ColumnSettings:
        """Checked whole; each problem names the column and the field."""
        if data is None:
            return cls()
        if not isinstance(data, dict):
            problems.append(f"column {index} settings must be an object")
            return cls()
        temperature, tokens, stream = data.get("temperature"), data.get("max_tokens"), data.get("stream")
        if temperature is not None and not _temperature_ok(temperature):
            problems.append(f"column {index} temperature must be a number from 0 to 2, or null")
            temperature = None
        if tokens is not None and (isinstance(tokens, bool) or not isinstance(tokens, int) or not 1 <= tokens <= 1_000_000):
            problems.append(f"column {index} max_tokens must be a whole number from 1 to 1000000, or null")
            tokens = None
        if stream is not None and not isinstance(stream, bool):
            problems.append(f"column {index} stream must be true, false or null")
            stream = None
        return cls(temperature, tokens, stream)


def _temperature_ok(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, (int, float)) and math.isfinite(value) and 0 <= value <= 2


class PlanError(ValueError):
    """What is wrong with a plan, every problem named."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("; ".join(problems))


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

    def own_settings_text(self, column: int) -> str:
        """The column's own settings in words ("" when it uses the run's values throughout)."""
        own = self.column_settings[column] if column < len(self.column_settings) else ColumnSettings()
        parts = ([f"temperature {own.temperature:g}"] if own.temperature is not None else []) + \
            ([f"max {own.max_tokens} tokens"] if own.max_tokens is not None else []) + \
            ([f"stream {'on' if own.stream else 'off'}"] if own.stream is not None else [])
        return " · ".join(parts)

    @property
    def total(self) -> int:
        return len(self.dataset.rows) * self.repeats * len(self.columns)

    def variables(self) -> list[str]:
        return variables_of([self.system, self.user])

    def unsendable(self) -> str | None:
        """The problem when the plan holds text that cannot be sent or saved (a lone surrogate:
        UTF-8 cannot encode it), naming where; None when all of it can."""
        try:
            json.dumps(self.to_dict(), ensure_ascii=False).encode("utf-8")
            return None
        except UnicodeEncodeError:
            pass
        where = "a column or a grader"
        if not is_utf8(self.system):
            where = "the system prompt"
        elif not is_utf8(self.user):
            where = "the user prompt"
        else:
            broken = next((index for index, row in enumerate(self.dataset.rows, 1)
                           if not all(is_utf8(name) and is_utf8(value) for name, value in row.items())), None)
            if broken is not None or not all(is_utf8(name) for name in self.dataset.columns):
                where = f"row {broken} of the data set" if broken is not None else "a column name of the data set"
        return f"{where} holds a broken character (a lone surrogate, not valid UTF-8) that cannot be sent or saved; remove it"

    def problems(self, max_rows: int, max_concurrency: int) -> tuple[list[str], list[str]]:
        """(blocking problems, warnings) — e.g. a missing variable blocks, an unused column warns."""
        blocking: list[str] = []
        warnings: list[str] = []
        broken = self.unsendable()
        if broken:
            blocking.append(broken)
        if not self.user.strip():
            blocking.append("write the user prompt")
        try:
            used = self.variables()
        except TemplateError as error:
            blocking.append(str(error))
            used = []
        if not self.dataset.rows:
            blocking.append("add a data set (paste rows or upload a file)" if used else "add a data set: one row per request")
        else:
            for problem in check_variables(used, self.dataset.columns):
                (blocking if problem.startswith("no value") else warnings).append(problem)
        if len(self.dataset.rows) > max_rows:
            blocking.append(f"{len(self.dataset.rows):,} rows; at most {max_rows:,}")
        if not 1 <= len(self.columns) <= MAX_COLUMNS:
            blocking.append(f"choose 1 to {MAX_COLUMNS} columns (a format and a model each)")
        for index, (fmt, model) in enumerate(self.columns, 1):
            if fmt not in FORMATS or not model.strip():
                blocking.append(f"column {index} needs a format and a model")
        if not 1 <= self.repeats <= MAX_REPEATS:
            blocking.append(f"repeat each row 1 to {MAX_REPEATS} times")
        if not 1 <= self.concurrency <= max_concurrency:
            blocking.append(f"requests at once: 1 to {max_concurrency}")
        if len(self.graders) > MAX_GRADERS:
            blocking.append(f"at most {MAX_GRADERS} graders")
        if self.temperature is not None and not _temperature_ok(self.temperature):
            blocking.append("temperature is between 0 and 2")
        if len(self.column_settings) > len(self.columns):
            blocking.append("column settings given for a column without a format and a model")
        for index, own in enumerate(self.column_settings, 1):
            if own.temperature is not None and not _temperature_ok(own.temperature):
                blocking.append(f"column {index} temperature is between 0 and 2")
        if self.cache and self.repeats > 1:
            warnings.append("with the cache on, repeats of a row send one request and reuse its answer")
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
            raise PlanError([f"not a batch session file (its kind must be {KIND!r})"])

        def text(name: str) -> str:
            value = data.get(name, "")
            if not isinstance(value, str):
                problems.append(f"{name} must be text")
                return ""
            return value

        def whole(name: str, low: int, high: int, default: int | None) -> int | None:
            value = data.get(name, default)
            if value is None and default is None:
                return None
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                problems.append(f"{name} must be a whole number from {low} to {high}")
                return default
            return value

        raw = data.get("dataset") or {}
        columns = raw.get("columns") if isinstance(raw, dict) else None
        rows = raw.get("rows") if isinstance(raw, dict) else None
        dataset = Dataset([])
        if not (isinstance(columns, list) and all(isinstance(c, str) for c in columns) and isinstance(rows, list)):
            problems.append("dataset must have columns (names) and rows")
        elif len(rows) > max_rows:
            problems.append(f"dataset has {len(rows):,} rows; at most {max_rows:,}")
        elif not all(isinstance(r, dict) and set(r) == set(columns) and all(isinstance(v, str) for v in r.values()) for r in rows):
            problems.append("every dataset row must give a text value for each column")
        else:
            dataset = Dataset(list(columns), [dict(r) for r in rows], str(raw.get("source") or "session file"))
        pairs = data.get("columns")
        if not isinstance(pairs, list) or not all(isinstance(p, list) and len(p) == 2 and all(isinstance(v, str) for v in p) for p in pairs):
            problems.append("columns must be [format, model] pairs")
            pairs = []
        graders = []
        raw_graders = data.get("graders") or []
        if not isinstance(raw_graders, list):
            problems.append("graders must be a list")
            raw_graders = []
        for index, item in enumerate(raw_graders, 1):
            try:
                graders.append(GraderSpec.from_dict(item))
            except GraderError as error:
                problems.append(f"grader {index}: {error}")
        raw_settings = data.get("column_settings") or []
        if not isinstance(raw_settings, list) or len(raw_settings) > len(pairs):
            problems.append("column_settings must be a list with at most one entry per column")
            raw_settings = []
        own = [ColumnSettings.from_dict(item, index, problems) for index, item in enumerate(raw_settings, 1)]
        temperature = data.get("temperature")
        if temperature is not None and not _temperature_ok(temperature):
            problems.append("temperature must be a number from 0 to 2, or null")
            temperature = None
        flags = {}
        for name in ("stream", "cache"):
            flags[name] = data.get(name, name == "stream")
            if not isinstance(flags[name], bool):
                problems.append(f"{name} must be true or false")
        plan = cls(text("user"), text("system"), dataset, [(f, m) for f, m in pairs], whole("repeats", 1, MAX_REPEATS, 1) or 1,
                   graders, temperature, whole("max_tokens", 1, 1_000_000, None), bool(flags["stream"]), bool(flags["cache"]),
                   whole("concurrency", 1, 64, 4) or 4, own)
        broken = plan.unsendable()
        if broken:
            problems.append(broken)
        if problems:
            raise PlanError(problems)
        return plan
