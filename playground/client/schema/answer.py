"""A structured answer checked against its schema: it matches, or the first failing place
(`$.address.city`, `$.tags[1]`) and what is wrong there, in words. Bounded before parsing (size,
nesting) and while validating (a `pattern` gets 0.25 s per value, on the `regex` engine)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from typing import Any

import regex

from playground.client.json_depth import deeper_than
from playground.client.texts import Items, Text

MAX_ANSWER_CHARS = 1_000_000
MAX_DEPTH = 64
PATTERN_SECONDS = 0.25
_FENCE = re.compile(r"```(?:json)?\s*(.*?)\s*```", re.DOTALL)


@dataclass(frozen=True)
class Verdict:
    matches: bool
    text: Text
    path: str = ""
    """Where the answer fails (`$` is the whole answer); empty when it matches or is not JSON."""


def json_path(parts: Any) -> str:
    return "$" + "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in parts)


def check_answer(answer: str, schema: dict[str, Any]) -> Verdict:
    """Whether `answer` (JSON text, a ```json fence allowed) is valid against `schema`; never raises."""
    if len(answer) > MAX_ANSWER_CHARS:
        return Verdict(False, Text("schema.answer.too_large", limit=MAX_ANSWER_CHARS))
    fenced = _FENCE.fullmatch(answer.strip())
    text = fenced.group(1) if fenced else answer.strip()
    if deeper_than(text, MAX_DEPTH) or deeper_than(json.dumps(schema), MAX_DEPTH):
        return Verdict(False, Text("schema.answer.too_deep", limit=MAX_DEPTH))
    try:
        document = json.loads(text)
    except ValueError as error:
        return Verdict(False, Text("schema.answer.not_json", error=str(error)[:120]))
    validator_class = _validator_class()
    try:
        validator_class.check_schema(schema)
        failure = _first_error(validator_class(schema), document)
    except Exception as problem:  # an unusable schema is a verdict, never a crash
        return Verdict(False, Text("schema.answer.schema_unusable", reason=str(problem).split("\n")[0][:160]))
    if failure is None:
        return Verdict(True, Text("schema.answer.matches"))
    where = json_path(failure.absolute_path)
    return Verdict(False, Text("schema.answer.fails", path=where, problem=_wording(failure)), where)


def _first_error(validator: Any, document: Any) -> Any:
    import jsonschema

    return jsonschema.exceptions.best_match(validator.iter_errors(document))


def _wording(error: Any) -> Text:
    keyword, expected, instance = error.validator, error.validator_value, error.instance
    if keyword == "type":
        return Text("schema.answer.type", expected=Items(expected if isinstance(expected, list) else [expected]),
                    got=_json_type(instance))
    if keyword == "required" and isinstance(instance, dict):
        return Text("schema.answer.required", names=Items([name for name in expected if name not in instance]))
    if keyword == "enum":
        return Text("schema.answer.enum", allowed=Items(json.dumps(value, ensure_ascii=False)[:40] for value in expected[:20]))
    if keyword == "additionalProperties" and isinstance(instance, dict):
        known = error.schema.get("properties") or {}
        return Text("schema.answer.additional", names=Items([name for name in instance if name not in known][:20]))
    if keyword == "pattern" and isinstance(error.message, Text):
        return error.message
    return Text("schema.answer.keyword", keyword=str(keyword))


def _json_type(value: Any) -> str:
    for kind, python in (("null", type(None)), ("boolean", bool), ("integer", int), ("number", float), ("string", str),
                         ("array", list), ("object", dict)):
        if isinstance(value, python):
            return kind
    return type(value).__name__


def _pattern(validator: Any, pattern: Any, instance: Any, schema: Any) -> Any:
    import jsonschema

    if not validator.is_type(instance, "string") or not isinstance(pattern, str):
        return
    try:
        found = regex.search(pattern, instance, timeout=PATTERN_SECONDS)
    except TimeoutError:
        yield jsonschema.ValidationError(Text("schema.answer.pattern_slow", seconds=PATTERN_SECONDS))
        return
    except regex.error:
        yield jsonschema.ValidationError(Text("schema.answer.pattern_unusable"))
        return
    if found is None:
        yield jsonschema.ValidationError(Text("schema.answer.pattern", pattern=pattern[:80]))


@cache
def _validator_class() -> Any:
    """Draft 2020-12 with `pattern` on the `regex` engine under a time limit (imported on first use)."""
    import jsonschema

    return jsonschema.validators.extend(jsonschema.Draft202012Validator, {"pattern": _pattern})
