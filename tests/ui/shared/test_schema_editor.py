"""The schema editor's handlers, called as the page calls them: the JSON box and the table
rewrite each other, a schema the table cannot say is left to the JSON box (and never overwritten
by the table), the format's rules are named before sending, and an answer's verdict is in words."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from playground.ui.shared import schema_form
from playground.ui.shared.schema_form import example_json, schema_field_added, schema_json_changed, schema_table_edited

SKIPPED = {"__type__": "update"}
UNFORMABLE = '{"type": "object", "properties": {"code": {"type": "string", "pattern": "^[A-Z]+$"}}}'


def rows(value: dict[str, Any]) -> list[list[Any]]:
    return value["data"]


def test_the_json_box_fills_the_table_and_the_table_writes_the_box_back_unchanged() -> None:
    box = example_json("chat")
    table, closed, strict, note = schema_json_changed(box, "chat")
    assert [row[0] for row in rows(table)] == ["name", "diet", "legs", "habitat", "continent", "climate", "facts"]
    assert rows(table)[4][:3] == ["continent", "habitat", "string"] and rows(table)[6][2:4] == ["array", "string"]
    assert closed is True and strict is True and note == "The schema is ready to send."
    assert table["headers"] == ["name", "parent", "type", "items", "required", "enum", "description"]
    written, note = schema_table_edited(rows(table), closed, strict, box, "chat")
    assert json.loads(written) == json.loads(box), "the table writes back exactly the schema it came from (name and strict kept)"


def test_a_field_added_in_the_form_appears_in_the_json_and_clears_the_name() -> None:
    box = example_json("chat")
    table = schema_json_changed(box, "chat")[0]
    written, name_box, note = schema_field_added("zone", "enum", "", "habitat", True, "north, south", "Where", rows(table), True, True, box,
                                                 "chat")
    habitat = json.loads(written)["schema"]["properties"]["habitat"]
    assert habitat["properties"]["zone"] == {"type": "string", "enum": ["north", "south"], "description": "Where"}
    assert habitat["required"] == ["continent", "climate", "zone"] and name_box == "" and note == "The schema is ready to send."
    kept = schema_field_added("", "string", "", "", True, "", "", rows(table), True, True, box, "chat")
    assert kept[:2] == (SKIPPED, SKIPPED) and "name first" in kept[2]


def test_strict_mode_problems_are_named_as_soon_as_the_form_makes_them() -> None:
    box = example_json("chat")
    table = rows(schema_json_changed(box, "chat")[0])
    table[1][4] = False  # diet no longer required
    written, note = schema_table_edited(table, True, True, box, "chat")
    assert "Fix these before sending" in note and "optional fields at $: diet" in note
    assert "diet" not in json.loads(written)["schema"]["required"], "the box follows the form; the send is what refuses"
    relaxed, quiet = schema_table_edited(table, True, False, box, "chat")
    assert "strict" not in json.loads(relaxed) and quiet == "The schema is ready to send.", "strict off: nothing to refuse"


def test_the_table_refuses_its_mistakes_by_row_and_leaves_the_box_alone() -> None:
    written, note = schema_table_edited([["a", "", "string", "", True, "", ""], ["b", "missing", "string", "", True, "", ""]], True, False,
                                        "", "chat")
    assert written == SKIPPED and "The table was not applied" in note and "row 2: there is no field missing" in note


def test_a_schema_the_form_cannot_say_stays_json_only() -> None:
    table, _, _, note = schema_json_changed(UNFORMABLE, "chat")
    assert rows(table) == [["", "", "", "", False, "", ""]] and "pattern" in note and "edit it as JSON" in note
    written, refused = schema_table_edited([["x", "", "string", "", True, "", ""]], True, False, UNFORMABLE, "chat")
    assert written == SKIPPED and "can only be edited as JSON" in refused


def test_a_box_that_cannot_be_read_changes_nothing_and_says_why() -> None:
    for text, said in (("{nope", "not valid JSON"), ("[1]", "must be a JSON object"), ("[" * 40 + "]" * 40, "deeper than 32"),
                       (" " * (schema_form.MAX_JSON_CHARS + 1) + "{}", "longer than 200,000")):
        table, closed, strict, note = schema_json_changed(text, "chat")
        assert (table, closed, strict) == (SKIPPED, SKIPPED, SKIPPED) and said in note, text[:10]
    assert schema_json_changed("", "chat")[3] == "", "an empty box: no structured output, nothing to say"


def test_the_native_box_is_a_bare_schema_checked_against_its_subset() -> None:
    box = example_json("native")
    assert "additionalProperties" not in box and "strict" not in box
    table, closed, _, note = schema_json_changed(box, "native")
    assert closed is False and note == "The schema is ready to send."
    written, refused = schema_table_edited(rows(table), True, False, box, "native")
    assert "responseSchema refuses the keyword additionalProperties at $" in refused
    assert "strict" not in json.loads(written), "the native format has no strict flag"


def test_the_verdict_names_the_failing_path_in_plain_text() -> None:
    box = example_json("chat")
    good = {"name": "Zebra", "diet": "herbivore", "legs": 4, "habitat": {"continent": "Africa", "climate": "savanna"}, "facts": []}
    assert schema_form.answer_verdict(box, json.dumps(good)) == "The answer matches the schema."
    bad = {**good, "habitat": {"continent": "Africa", "climate": 3}}
    assert schema_form.answer_verdict(box, json.dumps(bad)) == \
        "The answer does not match the schema at $.habitat.climate: expected string, got integer."
    assert schema_form.answer_verdict("", "{}") == "" and schema_form.answer_verdict("{nope", "{}") == ""
    assert "\\*" in schema_form.answer_verdict('{"type": "object", "properties": {"*b*": {"type": "string"}}}', '{"*b*": 1}'), \
        "a name from the answer is shown as plain text, not Markdown"


def test_a_table_past_its_limits_is_refused_with_the_limit() -> None:
    many = [[f"f{n}", "", "string", "", True, "", ""] for n in range(schema_form.MAX_ROWS + 50)]
    assert "at most 200 fields" in schema_table_edited(many, True, False, "", "chat")[1]
    long = [["a", "", "string", "", True, "", "x" * 3000]]
    assert "row 1: a cell is longer than 2,000 characters" in schema_table_edited(long, True, False, "", "chat")[1]


cells = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), st.text(max_size=8),
                  st.sampled_from(["object", "array", "enum", "string", "a", "a.b", ""]))


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.lists(st.lists(cells, max_size=9), max_size=6), cells, st.dictionaries(st.text(max_size=4), cells)),
       st.sampled_from(["", example_json("chat"), UNFORMABLE, "{nope"]), st.sampled_from(["chat", "responses", "native"]))
def test_any_table_the_page_sends_is_applied_or_refused_in_words(data: Any, box: str, fmt: str) -> None:
    written, note = schema_table_edited(data, True, True, box, fmt)
    assert isinstance(note, str)
    if isinstance(written, str) and written:
        assert schema_json_changed(written, fmt)[0]["data"], "what the table wrote reads back into the table"
