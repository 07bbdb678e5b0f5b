"""Graders: what makes an answer pass. Every grader is checked whole before a run starts
(a regex compiles, a schema is a valid JSON Schema, bounds are in order) and never raises while
grading: a problem becomes a mark that did not pass, with the reason.

Regular expressions run on the `regex` engine with a time limit, and pattern and answer lengths
are capped, so a catastrophic pattern costs at most `REGEX_TIMEOUT_S` per answer.
"""

from __future__ import annotations

from playground.client.texts import Text

import json
import math
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import regex

from playground.client.batch.template import TemplateError, fill
from playground.client.json_depth import deeper_than

FORM_KINDS = ("contains", "not_contains", "regex", "equals", "json", "schema", "length", "model", "tool_called")
"""The kinds the tab's grader boxes offer; the others come with an imported suite (their thresholds, labels and prices)."""
KINDS = {kind: Text(f"graders.kind.{kind}") for kind in (*FORM_KINDS, "contains_json", "numeric", "similar", "label", "latency", "cost", "tool_called")}
MODEL_KINDS = frozenset({"model", "similar", "label"})
"""Graded through the gateway (a grading model, or embeddings)."""
CELL_KINDS = frozenset({"latency", "cost", "tool_called"})
"""Graded on the cell's timing or usage, not its text."""
ROW_VALUE_PREFIX = "__"
"""A grader whose value is one placeholder of a `__` column takes its value from each row and does
not apply to a row where that column is empty (promptfoo's per-test assertions, imported)."""
MAX_LABELS = 20
MAX_PATTERN_CHARS = 500
MAX_REGEX_INPUT_CHARS = 200_000
REGEX_TIMEOUT_S = 0.25
PASS_SCORE = 4


def _jsonschema() -> Any:
    import jsonschema

    return jsonschema


class GraderError(ValueError):
    """A grader that cannot be used, and why."""


@dataclass(frozen=True)
class GraderSpec:
    kind: str
    value: str = ""
    """The text (contains), pattern (regex), schema JSON (schema) or rubric (model)."""
    minimum: int | None = None
    maximum: int | None = None
    model: str = ""
    """The grading model (model-graded; sent through chat completions), or the embedding model (similar)."""
    threshold: float | None = None
    """numeric: the tolerance; similar: the least cosine; model: the least score; latency: ms; cost: dollars."""
    labels: tuple[str, ...] = ()
    """label: the labels the grading model chooses from."""
    passing: tuple[str, ...] = ()
    """label: the labels that pass."""
    prices: str = ""
    """cost: the price table it counts with, as the Prices panel's CSV (`model,input,output,cached_input`)."""
    arguments: str = ""
    """tool_called: the arguments expected (a JSON object; a call passes when its arguments hold every key
    with the same value, nested objects likewise); empty: any arguments."""

    @property
    def label(self) -> str:
        column = row_column(self)
        if column is not None:
            return Text("graders.per_row_label", kind=KINDS.get(self.kind, self.kind), column=column)
        if self.kind == "equals" and self.value:
            return Text("graders.equals_value", value=repr(self.value[:30]))
        if self.kind == "length":
            return Text("graders.length_label", minimum=self.minimum if self.minimum is not None else 0, maximum=self.maximum if self.maximum is not None else "∞")
        if self.kind in ("contains", "not_contains", "regex"):
            return f"{KINDS[self.kind]} {self.value[:30]!r}"
        if self.kind == "model":
            return Text("graders.graded_by", model=self.model)
        if self.kind == "tool_called":
            return Text("graders.label.tool_called", name=self.value[:30], arguments=self.arguments[:40] or "{}")
        limit = f"{self.threshold if self.threshold is not None else 0:g}"
        if self.kind == "numeric":
            return Text("graders.label.numeric", value=self.value[:30], tolerance=limit)
        if self.kind == "similar":
            return Text("graders.label.similar", value=self.value[:30], least=limit if self.threshold is not None else "0.75")
        if self.kind in ("latency", "cost"):
            return Text(f"graders.label.{self.kind}", limit=limit)
        if self.kind == "label":
            return Text("graders.label.label", model=self.model, passing="/".join(self.passing)[:40])
        return KINDS.get(self.kind, self.kind)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "value": self.value, "minimum": self.minimum, "maximum": self.maximum, "model": self.model}
        if self.threshold is not None:
            data["threshold"] = self.threshold
        if self.labels:
            data["labels"], data["passing"] = list(self.labels), list(self.passing)
        if self.prices:
            data["prices"] = self.prices
        if self.arguments:
            data["arguments"] = self.arguments
        return data

    @classmethod
    def from_dict(cls, data: Any) -> GraderSpec:
        if not isinstance(data, dict) or not isinstance(data.get("kind"), str) or data["kind"] not in KINDS:
            raise GraderError(Text("graders.unknown_kind", kinds=', '.join(KINDS)))
        def bound(name: str) -> int | None:
            value = data.get(name)
            if value is None:
                return None
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise GraderError(Text("graders.bound_must_be_whole_number", name=name))
            return value
        value, model = data.get("value", ""), data.get("model", "")
        if not isinstance(value, str) or not isinstance(model, str):
            raise GraderError(Text("graders.grader_value_model_text"))
        threshold = data.get("threshold")
        if threshold is not None and (isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not math.isfinite(threshold)):
            raise GraderError(Text("graders.threshold_number"))
        labels, passing = data.get("labels") or [], data.get("passing") or []
        if not all(isinstance(item, list) and all(isinstance(text, str) for text in item) for item in (labels, passing)):
            raise GraderError(Text("graders.labels_text"))
        prices, arguments = data.get("prices") or "", data.get("arguments") or ""
        if not isinstance(prices, str) or not isinstance(arguments, str):
            raise GraderError(Text("graders.grader_value_model_text"))
        spec = cls(data["kind"], value, bound("minimum"), bound("maximum"), model,
                   float(threshold) if threshold is not None else None, tuple(labels), tuple(passing), prices, arguments)
        check(spec)
        return spec


@dataclass
class Mark:
    passed: bool | None
    """None: not graded (no answer to grade)."""
    detail: str = ""
    score: float | None = None
    exchange: dict[str, Any] | None = field(default=None, repr=False)
    """Model-graded: the grader's own request and answer."""

    def to_dict(self) -> dict[str, Any]:
        return {"passed": self.passed, "detail": self.detail, "score": self.score, "exchange": self.exchange}


def brief(reason: str, limit: int = 200) -> str:
    """A mark's reason quoting an error: up to `limit` characters, cut at a word with an ellipsis when longer."""
    if len(reason) <= limit:
        return reason
    return reason[:limit].rsplit(" ", 1)[0].rstrip(" ,.;:") + "…"


def fits_the_boxes(spec: GraderSpec) -> bool:
    """Whether the Batch tab's grader boxes (kind, value, minimum, maximum, model) can hold `spec`
    (an imported suite's thresholds, labels, prices, scales and per-row values they cannot)."""
    return (spec.kind in FORM_KINDS and spec.threshold is None and not spec.labels and not spec.prices and row_column(spec) is None
            and not (spec.kind == "model" and (spec.minimum is not None or spec.maximum is not None)))


def check(spec: GraderSpec) -> None:
    """Raise `GraderError` saying what to fix."""
    if spec.kind in ("contains", "not_contains") and not spec.value:
        raise GraderError(Text("graders.needs_text_look", kind=KINDS[spec.kind]))
    if spec.kind == "regex":
        if not spec.value or len(spec.value) > MAX_PATTERN_CHARS:
            raise GraderError(Text("graders.regex_length", limit=MAX_PATTERN_CHARS))
        try:
            regex.compile(spec.value)
        except (regex.error, ValueError, OverflowError) as error:
            raise GraderError(Text("graders.regex_does_not_compile", error=error)) from None
    if (spec.kind == "schema" or (spec.kind == "contains_json" and spec.value.strip())) and row_column(spec) is None:
        schema = schema_of(spec)
        jsonschema = _jsonschema()
        try:
            jsonschema.validators.validator_for(schema).check_schema(schema)
        except jsonschema.SchemaError as error:
            raise GraderError(Text("graders.not_valid_json_schema", reason=error.message)) from None
    if spec.kind == "length":
        if spec.minimum is None and spec.maximum is None:
            raise GraderError(Text("graders.length_bounds_need_minimum_maximum"))
        if spec.minimum is not None and spec.maximum is not None and spec.minimum > spec.maximum:
            raise GraderError(Text("graders.length_minimum_above_maximum", minimum=spec.minimum, maximum=spec.maximum))
    if spec.kind in ("model", "label"):
        if not spec.value.strip():
            raise GraderError(Text("graders.model_graded_grader_needs_rubric"))
        if not spec.model.strip():
            raise GraderError(Text("graders.model_graded_grader_needs_grading"))
    if spec.kind == "model" and spec.minimum is not None and spec.maximum is not None and spec.minimum >= spec.maximum:
        raise GraderError(Text("graders.scale_in_order", minimum=spec.minimum, maximum=spec.maximum))
    if spec.kind == "label" and not (0 < len(spec.labels) <= MAX_LABELS and spec.passing and set(spec.passing) <= set(spec.labels)):
        raise GraderError(Text("graders.labels_needed", limit=MAX_LABELS))
    if spec.kind in ("numeric", "similar") and not spec.value.strip():
        raise GraderError(Text("graders.needs_reference", kind=KINDS[spec.kind]))
    if spec.kind == "similar" and not spec.model.strip():
        raise GraderError(Text("graders.similar_needs_model"))
    if spec.kind in ("latency", "cost") and (spec.threshold is None or spec.threshold < 0):
        raise GraderError(Text("graders.needs_threshold", kind=KINDS[spec.kind]))
    if spec.kind == "numeric" and spec.threshold is not None and spec.threshold < 0:
        raise GraderError(Text("graders.needs_threshold", kind=KINDS[spec.kind]))
    if spec.kind == "tool_called":
        if not spec.value.strip():
            raise GraderError(Text("graders.tool_called_needs_name"))
        expected_arguments(spec)


MAX_EXPECTED_ARGUMENTS_CHARS = 20_000


def expected_arguments(spec: GraderSpec) -> dict[str, Any] | None:
    """A `tool_called` grader's expected arguments (None: any), bounded and checked (raises `GraderError`)."""
    text = spec.arguments.strip()
    if not text:
        return None
    if len(text) > MAX_EXPECTED_ARGUMENTS_CHARS or deeper_than(text, 32):
        raise GraderError(Text("graders.tool_arguments_too_big", limit=MAX_EXPECTED_ARGUMENTS_CHARS))
    try:
        value = json.loads(text)
    except ValueError as error:
        raise GraderError(Text("graders.tool_arguments_not_json", error=error)) from None
    if not isinstance(value, dict):
        raise GraderError(Text("graders.tool_arguments_not_object"))
    return value


def holds(actual: Any, expected: Any) -> bool:
    """Whether `actual` holds `expected`: every key of an expected object with a value it holds,
    anything else equal (1 and 1.0 alike, true and 1 not)."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(key in actual and holds(actual[key], value) for key, value in expected.items())
    if isinstance(expected, bool) or isinstance(actual, bool):
        return type(expected) is type(actual) and expected == actual
    return bool(expected == actual)


def tool_called(spec: GraderSpec, calls: Sequence[tuple[str, Any]]) -> Mark:
    """Passes when one of the cell's tool `calls` (name, parsed arguments) is of the named tool with
    the expected arguments (never raises)."""
    try:
        expected = expected_arguments(spec)
    except GraderError as error:
        return Mark(False, str(error))
    name = spec.value.strip()
    named = [arguments for called, arguments in calls if called == name]
    if not named:
        made = ", ".join(dict.fromkeys(called for called, _ in calls))
        return Mark(False, Text("graders.tool_not_called", name=name, made=made or "—"))
    if expected is None or any(holds(arguments, expected) for arguments in named):
        return Mark(True, Text("graders.tool_was_called", name=name, count=len(named)))
    shown = json.dumps(named[-1], ensure_ascii=False)[:80]
    return Mark(False, Text("graders.tool_other_arguments", name=name, arguments=shown))


def schema_of(spec: GraderSpec) -> dict[str, Any]:
    try:
        schema = json.loads(spec.value)
    except ValueError as error:
        raise GraderError(Text("graders.schema_not_valid_json", error=error)) from None
    if not isinstance(schema, dict):
        raise GraderError(Text("graders.schema_json_object"))
    return schema


def normalise(text: str) -> str:
    """Case, Unicode form, surrounding quotes and final punctuation, runs of white space."""
    text = unicodedata.normalize("NFKC", text).casefold().strip()
    text = re.sub(r"\s+", " ", text)
    return text.strip("\"'“”‘’ ").rstrip(".!?;:").strip()


def _template_value(spec: GraderSpec, row: Mapping[str, str]) -> str:
    try:
        return fill(spec.value, row, "the grader")
    except TemplateError:
        return spec.value


_LONE_PLACEHOLDER = re.compile(r"\{\{\s*([^{}\n]*?)\s*\}\}")


def row_column(spec: GraderSpec) -> str | None:
    """The `__` column a grader takes its value from row by row (None: the same value for every row)."""
    match = _LONE_PLACEHOLDER.fullmatch(spec.value.strip())
    return match.group(1) if match and match.group(1).startswith(ROW_VALUE_PREFIX) else None


def row_value(spec: GraderSpec, row: Mapping[str, str]) -> str | None:
    """The grader's value for this row, its placeholders filled; None when it does not apply to the row."""
    column = row_column(spec)
    if column is not None:
        value = row.get(column, "")
        return _template_value(replace(spec, value=value), row) if value.strip() else None
    return _template_value(spec, row)


def grade(spec: GraderSpec, answer: str, row: Mapping[str, str]) -> Mark:
    """Grade one answer with a grader that needs no model (never raises)."""
    try:
        value = row_value(spec, row)
    except Exception as error:  # a grader never takes a run down
        return Mark(False, Text("graders.could_not_grade", error=type(error).__name__))
    if value is None:
        return Mark(None, Text("graders.not_for_this_row"))
    return grade_value(spec, answer, row, value)


def grade_value(spec: GraderSpec, answer: str, row: Mapping[str, str], value: str) -> Mark:
    """`grade` with the grader's value for this row already filled in (`row_value`, not None)."""
    try:
        return _grade(spec, answer, row, value)
    except Exception as error:  # a grader never takes a run down
        return Mark(False, Text("graders.could_not_grade", error=type(error).__name__))


def _grade(spec: GraderSpec, answer: str, row: Mapping[str, str], value: str) -> Mark:
    if spec.kind in ("contains", "not_contains"):
        needle = value
        found = needle.casefold() in answer.casefold()
        passed = found if spec.kind == "contains" else not found
        return Mark(passed, Text("graders.found", text=repr(needle[:40])) if found else Text("graders.not_found", text=repr(needle[:40])))
    if spec.kind == "regex":
        if len(answer) > MAX_REGEX_INPUT_CHARS:
            return Mark(False, Text("graders.answer_longer_than_characters_not", limit=MAX_REGEX_INPUT_CHARS))
        if len(value) > MAX_PATTERN_CHARS:
            return Mark(False, Text("graders.regex_length", limit=MAX_PATTERN_CHARS))
        try:
            match = regex.search(value, answer, timeout=REGEX_TIMEOUT_S)
        except regex.error as error:
            return Mark(False, Text("graders.regex_does_not_compile", error=error))
        except TimeoutError:
            return Mark(False, Text("graders.regex_took_longer_than_answer", seconds=REGEX_TIMEOUT_S))
        return Mark(match is not None, Text("graders.matched", text=repr(match.group(0)[:40])) if match else Text("graders.no_match"))
    if spec.kind == "equals" and value:
        same = normalise(answer) == normalise(value)
        return Mark(same, Text("graders.equal") if same else Text("graders.expected", text=repr(value[:40])))
    if spec.kind == "equals":
        if "expected" not in row:
            return Mark(None, Text("graders.data_set_no_expected_column"))
        same = normalise(answer) == normalise(row["expected"])
        return Mark(same, Text("graders.equal") if same else Text("graders.expected", text=repr(row["expected"][:40])))
    if spec.kind == "contains_json":
        found = json_inside(answer)
        if found is None:
            return Mark(False, Text("graders.no_json_inside"))
        if (row_column(spec) is not None and value.strip().casefold() == "yes") or not value.strip():
            return Mark(True, Text("graders.answer_holds_json"))
        return _schema_mark(found, value)
    if spec.kind in ("json", "schema"):
        try:
            document = json.loads(_strip_fence(answer))
        except ValueError as error:
            return Mark(False, Text("graders.not_json", reason=str(error)[:80]))
        if spec.kind == "json":
            return Mark(True, Text("graders.answer_is_valid_json"))
        return _schema_mark(document, value)
    if spec.kind == "length":
        size = len(answer)
        low = spec.minimum if spec.minimum is not None else 0
        high = spec.maximum if spec.maximum is not None else float("inf")
        return Mark(low <= size <= high, Text("graders.characters", size=size))
    if spec.kind == "numeric":
        return numeric(answer, value, spec.threshold or 0.0)
    return Mark(None, Text("graders.graded_by_a_model", kind=spec.kind))


_NUMBER = re.compile(r"[-+−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?|[-+−]?\.\d+")


def number_in(text: str) -> float | None:
    """The last number written in `text` (thousands commas and a Unicode minus allowed), None if there is none."""
    found = _NUMBER.findall(text[-MAX_REGEX_INPUT_CHARS:])
    if not found:
        return None
    number = float(found[-1].replace(",", "").replace("−", "-"))
    return number if math.isfinite(number) else None


def numeric(answer: str, expected_text: str, tolerance: float) -> Mark:
    """The answer's last number within `tolerance` of the expected number."""
    expected = number_in(expected_text)
    if expected is None:
        return Mark(False, Text("graders.expected_not_number", text=repr(expected_text[:40])))
    got = number_in(answer)
    if got is None:
        return Mark(False, Text("graders.no_number"))
    passed = abs(got - expected) <= tolerance
    return Mark(passed, Text("graders.numeric_reason", got=f"{got:g}", expected=f"{expected:g}", tolerance=f"{tolerance:g}"))


def _schema_mark(document: Any, schema_text: str) -> Mark:
    schema = schema_of(GraderSpec("schema", schema_text))
    validator = _jsonschema().validators.validator_for(schema)
    errors = sorted(validator(schema).iter_errors(document), key=lambda e: list(e.path))
    if errors:
        where = "/".join(map(str, errors[0].path)) or "(root)"
        return Mark(False, f"{where}: {errors[0].message[:100]}")
    return Mark(True, Text("graders.matches_schema"))


MAX_JSON_STARTS = 200


def json_inside(text: str) -> Any:
    """The first JSON object or array written inside `text` (None when there is none); at most
    `MAX_JSON_STARTS` places where one could start are tried."""
    decoder = json.JSONDecoder()
    tried = 0
    for match in re.finditer(r"[{\[]", text[:MAX_REGEX_INPUT_CHARS]):
        tried += 1
        if tried > MAX_JSON_STARTS:
            return None
        try:
            return decoder.raw_decode(text, match.start())[0]
        except (ValueError, RecursionError):
            continue
    return None


def _strip_fence(text: str) -> str:
    """An answer wrapped in a ```json fence is JSON too."""
    stripped = text.strip()
    fenced = re.fullmatch(r"```(?:json)?\s*(.*?)\s*```", stripped, re.DOTALL)
    return fenced.group(1) if fenced else stripped
