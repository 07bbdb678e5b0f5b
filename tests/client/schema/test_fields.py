"""The field table and the schema it stands for: what the form can say goes both ways without
loss (nesting, enums, arrays, descriptions, optional fields); anything else is refused with the
keyword and its place, so it is edited as JSON; a table's mistakes are named by row."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from playground.client.schema.fields import FieldRow, FieldTable, OnlyAsJson, join_wrapper, schema_of, split_wrapper, table_of

ORDER = FieldTable((
    FieldRow("customer", description="Who ordered"),
    FieldRow("size", type="enum", enum="small, medium, large"),
    FieldRow("quantity", type="integer"),
    FieldRow("gift", type="boolean", required=False),
    FieldRow("address", type="object"),
    FieldRow("city", parent="address"),
    FieldRow("geo", parent="address", type="object", required=False),
    FieldRow("lat", parent="address.geo", type="number"),
    FieldRow("toppings", type="array", items="enum", enum="cheese, ham"),
    FieldRow("lines", type="array", items="object", description="One per item"),
    FieldRow("sku", parent="lines"),
    FieldRow("notes", type="array", items="string", required=False),
))


def test_a_table_becomes_the_schema_it_stands_for() -> None:
    schema, problems = schema_of(ORDER)
    assert problems == [] and schema is not None
    assert schema["required"] == ["customer", "size", "quantity", "address", "toppings", "lines"]
    assert schema["additionalProperties"] is False
    assert schema["properties"]["size"] == {"type": "string", "enum": ["small", "medium", "large"]}
    assert schema["properties"]["customer"] == {"type": "string", "description": "Who ordered"}
    geo = schema["properties"]["address"]["properties"]["geo"]
    assert geo == {"type": "object", "properties": {"lat": {"type": "number"}}, "required": ["lat"], "additionalProperties": False}
    assert schema["properties"]["toppings"] == {"type": "array", "items": {"type": "string", "enum": ["cheese", "ham"]}}
    lines = schema["properties"]["lines"]
    assert lines["description"] == "One per item" and lines["items"]["properties"] == {"sku": {"type": "string"}}


@pytest.mark.parametrize("closed", [True, False])
def test_the_round_trip_is_lossless_both_ways(closed: bool) -> None:
    table = FieldTable(ORDER.rows, closed=closed)
    schema, _ = schema_of(table)
    assert table_of(schema) == table
    again, _ = schema_of(table_of(json.loads(json.dumps(schema))))
    assert again == schema
    assert ("additionalProperties" in json.dumps(schema)) is closed


def test_a_hand_written_schema_in_the_forms_words_opens_in_the_form() -> None:
    schema = {"type": "object", "properties": {"name": {"type": "string"}, "tags": {"type": "array", "items": {"type": "integer"}}},
              "required": ["name"]}
    table = table_of(schema)
    assert table == FieldTable((FieldRow("name"), FieldRow("tags", type="array", items="integer", required=False)), closed=False)
    assert schema_of(table)[0] == schema


@pytest.mark.parametrize("schema, keyword, where", [
    ({"type": "object", "properties": {"a": {"type": "string", "minLength": 2}}}, "minLength", "$.properties.a"),
    ({"type": "object", "properties": {"a": {"anyOf": [{"type": "string"}, {"type": "null"}]}}}, "type", "$.properties.a"),
    ({"type": "object", "properties": {"a": {"type": "array", "items": {"type": "array", "items": {"type": "string"}}}}}, "items", "$.properties.a"),
    ({"type": "object", "properties": {"a": {"type": "string", "enum": ["x", 1]}}}, "enum", "$.properties.a"),
    ({"type": "object", "properties": {}, "$defs": {}}, "$defs", "$"),
    ({"type": "object", "properties": {"a": {"type": "object", "additionalProperties": {"type": "string"}}}}, "additionalProperties",
     "$.properties.a"),
    ({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["b"]}, "required", "$"),
])
def test_what_the_form_cannot_say_is_named_with_its_place(schema: dict[str, Any], keyword: str, where: str) -> None:
    with pytest.raises(OnlyAsJson) as refused:
        table_of(schema)
    assert refused.value.reason.id == "schema.form.uses"
    assert refused.value.reason.params == {"keyword": keyword, "path": where}
    assert "edit it as JSON" in str(refused.value.reason)


def test_a_root_that_is_not_an_object_and_mixed_extra_fields_are_refused_in_words() -> None:
    with pytest.raises(OnlyAsJson, match="root is an object"):
        table_of({"type": "array", "items": {"type": "string"}})
    mixed = {"type": "object", "additionalProperties": False, "properties": {"a": {"type": "object", "properties": {}}}}
    with pytest.raises(OnlyAsJson, match="some objects refuse extra fields"):
        table_of(mixed)


def test_each_mistake_of_a_table_is_named_by_its_row() -> None:
    table = FieldTable((FieldRow("a"), FieldRow("a"), FieldRow("", type="strng"), FieldRow("b", parent="nowhere"),
                        FieldRow("c", parent="a"), FieldRow("d", type="enum"), FieldRow("e", type="array"),
                        FieldRow("f", items="string", enum="x")))
    schema, problems = schema_of(table)
    assert schema is None
    assert [(p.id, p.params.get("row")) for p in problems] == [
        ("schema.row.duplicate", 2), ("schema.row.bad_name", 3), ("schema.row.unknown_type", 3), ("schema.row.enum_values", 6),
        ("schema.row.item_type", 7), ("schema.row.items_unused", 8), ("schema.row.enum_unused", 8),
        ("schema.row.unknown_parent", 4), ("schema.row.parent_not_object", 5)]


def test_a_wrapped_schema_keeps_its_name_and_strictness() -> None:
    wrapped = {"name": "order", "strict": True, "schema": {"type": "object", "properties": {}}}
    wrapper, schema = split_wrapper(wrapped)
    assert wrapper == {"name": "order", "strict": True} and schema == wrapped["schema"]
    assert join_wrapper(wrapper, schema) == wrapped
    assert split_wrapper(schema) == (None, schema), "a bare schema has no wrapper"


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(
                               ["type", "properties", "required", "items", "enum", "description", "a", "additionalProperties"]), inner,
                               max_size=4), max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_any_json_opens_in_the_form_or_is_refused_in_words(value: Any) -> None:
    try:
        table = table_of(value)
    except OnlyAsJson as refused:
        assert refused.reason.id.startswith("schema.form.")
        return
    schema, problems = schema_of(table)
    assert problems == [] and table_of(schema) == table
