"""Graders: what makes an answer pass. Every grader is checked whole before a run starts
(a regex compiles, a schema is a valid JSON Schema, bounds are in order) and never raises while
grading: a problem becomes a mark that did not pass, with the reason.

Regular expressions run on the `regex` engine with a time limit, and pattern and answer lengths
are capped, so a catastrophic pattern costs at most `REGEX_TIMEOUT_S` per answer.
"""

from __future__ import annotations

from playground.client.texts import Text

import json
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import regex

from playground.client.batch.template import TemplateError, fill

KINDS = {kind: Text(f"graders.kind.{kind}") for kind in ("contains", "not_contains", "regex", "equals", "json", "schema", "length", "model")}
MODEL_KINDS = frozenset({"model"})
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
    """The grading model (model-graded; sent through chat completions)."""

    @property
    def label(self) -> str:
        if self.kind == "length":
            return Text("graders.length_label", minimum=self.minimum if self.minimum is not None else 0, maximum=self.maximum if self.maximum is not None else "∞")
        if self.kind in ("contains", "not_contains", "regex"):
            return f"{KINDS[self.kind]} {self.value[:30]!r}"
        if self.kind == "model":
            return Text("graders.graded_by", model=self.model)
        return KINDS.get(self.kind, self.kind)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "value": self.value, "minimum": self.minimum, "maximum": self.maximum, "model": self.model}

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
        spec = cls(data["kind"], value, bound("minimum"), bound("maximum"), model)
        check(spec)
        return spec


@dataclass
class Mark:
    passed: bool | None
    """None: not graded (no answer to grade)."""
    detail: str = ""
    score: int | None = None
    exchange: dict[str, Any] | None = field(default=None, repr=False)
    """Model-graded: the grader's own request and answer."""

    def to_dict(self) -> dict[str, Any]:
        return {"passed": self.passed, "detail": self.detail, "score": self.score, "exchange": self.exchange}


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
    if spec.kind == "schema":
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
    if spec.kind == "model":
        if not spec.value.strip():
            raise GraderError(Text("graders.model_graded_grader_needs_rubric"))
        if not spec.model.strip():
            raise GraderError(Text("graders.model_graded_grader_needs_grading"))


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


def grade(spec: GraderSpec, answer: str, row: Mapping[str, str]) -> Mark:
    """Grade one answer with a grader that needs no model (never raises)."""
    try:
        return _grade(spec, answer, row)
    except Exception as error:  # a grader never takes a run down
        return Mark(False, Text("graders.could_not_grade", error=type(error).__name__))


def _grade(spec: GraderSpec, answer: str, row: Mapping[str, str]) -> Mark:
    if spec.kind in ("contains", "not_contains"):
        needle = _template_value(spec, row)
        found = needle.casefold() in answer.casefold()
        passed = found if spec.kind == "contains" else not found
        return Mark(passed, Text("graders.found", text=repr(needle[:40])) if found else Text("graders.not_found", text=repr(needle[:40])))
    if spec.kind == "regex":
        if len(answer) > MAX_REGEX_INPUT_CHARS:
            return Mark(False, Text("graders.answer_longer_than_characters_not", limit=MAX_REGEX_INPUT_CHARS))
        try:
            match = regex.search(spec.value, answer, timeout=REGEX_TIMEOUT_S)
        except TimeoutError:
            return Mark(False, Text("graders.regex_took_longer_than_answer", seconds=REGEX_TIMEOUT_S))
        return Mark(match is not None, Text("graders.matched", text=repr(match.group(0)[:40])) if match else Text("graders.no_match"))
    if spec.kind == "equals":
        if "expected" not in row:
            return Mark(None, Text("graders.data_set_no_expected_column"))
        same = normalise(answer) == normalise(row["expected"])
        return Mark(same, Text("graders.equal") if same else Text("graders.expected", text=repr(row["expected"][:40])))
    if spec.kind in ("json", "schema"):
        try:
            document = json.loads(_strip_fence(answer))
        except ValueError as error:
            return Mark(False, Text("graders.not_json", reason=str(error)[:80]))
        if spec.kind == "json":
            return Mark(True, Text("graders.answer_is_valid_json"))
        validator = _jsonschema().validators.validator_for(schema_of(spec))
        errors = sorted(validator(schema_of(spec)).iter_errors(document), key=lambda e: list(e.path))
        if errors:
            where = "/".join(map(str, errors[0].path)) or "(root)"
            return Mark(False, f"{where}: {errors[0].message[:100]}")
        return Mark(True, Text("graders.matches_schema"))
    if spec.kind == "length":
        size = len(answer)
        low = spec.minimum if spec.minimum is not None else 0
        high = spec.maximum if spec.maximum is not None else float("inf")
        return Mark(low <= size <= high, Text("graders.characters", size=size))
    return Mark(None, Text("graders.graded_by_a_model", kind=spec.kind))


def _strip_fence(text: str) -> str:
    """An answer wrapped in a ```json fence is JSON too."""
    stripped = text.strip()
    fenced = re.fullmatch(r"```(?:json)?\s*(.*?)\s*```", stripped, re.DOTALL)
    return fenced.group(1) if fenced else stripped
