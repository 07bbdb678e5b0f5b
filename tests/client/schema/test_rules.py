"""Each format's rules for a structured-output schema, checked before sending: every problem
names the format, the place in the schema and the rule in words."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings

from playground.client.schema.fields import FieldRow, FieldTable, schema_of
from playground.client.schema.rules import problems_for
from tests.client.schema.test_fields import ORDER, json_values


def inner(problems: list[Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(p.params["problem"].id, p.params["problem"].params) for p in problems]


def test_a_closed_all_required_schema_passes_strict_mode() -> None:
    table = FieldTable(tuple(FieldRow(r.name, r.parent, r.type, r.items, True, r.enum, r.description) for r in ORDER.rows))
    schema, _ = schema_of(table)
    assert problems_for(schema, "chat") == [] and problems_for(schema, "responses") == []


@pytest.mark.parametrize("fmt", ["chat", "responses"])
def test_strict_mode_names_optional_fields_and_open_objects_with_their_paths(fmt: str) -> None:
    schema = {"type": "object", "properties": {
        "name": {"type": "string"},
        "address": {"type": "object", "properties": {"city": {"type": "string"}, "zip": {"type": "string"}}, "required": ["city"]}},
        "required": ["name", "address"], "additionalProperties": False}
    problems = problems_for(schema, fmt)
    assert inner(problems) == [
        ("schema.rule.additional_properties", {"path": "$.properties.address"}),
        ("schema.rule.all_required", {"path": "$.properties.address", "names": ("zip",)}),
    ]
    assert str(problems[1]) == ("Chat completions strict mode" if fmt == "chat" else "Responses strict mode") + \
        ' refuses optional fields at $.properties.address: zip (every property must be in "required"; allow null for one that may be empty)'


def test_strict_mode_refuses_keywords_it_does_not_support_and_a_root_that_is_not_an_object() -> None:
    schema = {"type": "array", "items": {"type": "string", "minLength": 1, "oneOf": []}}
    assert inner(problems_for(schema, "chat")) == [
        ("schema.rule.root_object", {"path": "$"}),
        ("schema.rule.keyword", {"path": "$.items", "keyword": "minLength"}),
        ("schema.rule.keyword", {"path": "$.items", "keyword": "oneOf"}),
    ]


def test_strict_mode_counts_nesting() -> None:
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(12):
        schema = {"type": "object", "properties": {"x": schema}, "required": ["x"], "additionalProperties": False}
    found = inner(problems_for(schema, "chat"))
    assert found and all(kind == "schema.rule.too_deep" for kind, _ in found)
    assert found[0][1]["path"] == "$" + ".properties.x" * 11


def test_the_native_subset_refuses_what_strict_mode_needs_and_names_each_place() -> None:
    closed, _ = schema_of(FieldTable((FieldRow("a"), FieldRow("b", type="object"), FieldRow("c", parent="b")), closed=True))
    assert inner(problems_for(closed, "native")) == [
        ("schema.rule.native_keyword", {"path": "$", "keyword": "additionalProperties"}),
        ("schema.rule.native_keyword", {"path": "$.properties.b", "keyword": "additionalProperties"}),
    ]
    open_, _ = schema_of(FieldTable(closed and (FieldRow("a"), FieldRow("b", type="object"), FieldRow("c", parent="b")), closed=False))
    assert problems_for(open_, "native") == []
    odd = {"type": "OBJECT", "properties": {"n": {"type": ["string", "null"]}, "e": {"type": "integer", "enum": [1, 2]},
                                            "o": {"type": "object"}, "r": {"$ref": "#/x"}}}
    assert inner(problems_for(odd, "native")) == [
        ("schema.rule.native_type_list", {"path": "$.properties.n"}),
        ("schema.rule.native_enum_strings", {"path": "$.properties.e"}),
        ("schema.rule.native_empty_object", {"path": "$.properties.o"}),
        ("schema.rule.native_keyword", {"path": "$.properties.r", "keyword": "$ref"}),
    ]


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_the_rules_never_raise_on_any_json(value: Any) -> None:
    for fmt in ("chat", "responses", "native"):
        assert all(isinstance(problem, str) for problem in problems_for(value, fmt))
