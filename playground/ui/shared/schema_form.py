"""The schema editor's handlers (`schema_editor.SchemaEditor` wires them): the JSON box and the
table of fields, each rewriting the other; the format's rules shown before sending; after a
structured answer, whether it matches the schema or where it fails. Plain functions the tests call.

The JSON box holds what a send uses: a bare schema, or (chat) `{name, strict, schema}`. Read
bounded (characters, nesting) and checked whole before the table changes; a schema the table
cannot say empties the table with the reason, and the table then refuses edits that would
overwrite it."""

from __future__ import annotations

import json
from typing import Any

import gradio as gr

from playground.client.json_depth import deeper_than
from playground.client.results import TextResult
from playground.client.schema.answer import check_answer
from playground.client.schema.fields import MAX_ROWS, FieldRow, FieldTable, OnlyAsJson, join_wrapper, schema_of, split_wrapper, table_of
from playground.client.schema.rules import problems_for
from playground.ui.i18n import say
from playground.ui.i18n.client_words import word
from playground.ui.shared.render import plain

MAX_JSON_CHARS = 200_000
MAX_DEPTH = 32
COLUMNS = ("name", "parent", "type", "items", "required", "enum", "description")
STRICT_FORMATS = ("chat", "responses")
EXAMPLE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "description": "The animal's common name"},
        "diet": {"type": "string", "enum": ["herbivore", "carnivore", "omnivore"]},
        "legs": {"type": "integer"},
        "habitat": {"type": "object", "properties": {"continent": {"type": "string"}, "climate": {"type": "string"}},
                    "required": ["continent", "climate"], "additionalProperties": False},
        "facts": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["name", "diet", "legs", "habitat", "facts"],
    "additionalProperties": False,
}


def headers() -> list[str]:
    """The table's headings in the visitor's language (in the order of `COLUMNS`)."""
    return [say(f"schema_editor.head.{name}") for name in COLUMNS]


def table_value(table: FieldTable | None) -> dict[str, Any]:
    rows = [[row.name, row.parent, row.type, row.items, row.required, row.enum, row.description] for row in (table.rows if table else ())]
    return {"data": rows or [["", "", "", "", False, "", ""]], "headers": headers()}


def example_json(fmt: str) -> str:
    """A small schema (nesting, an enum, an array, descriptions) in the shape the format's box takes."""
    if fmt == "native":
        return _dump(_opened(EXAMPLE_SCHEMA))
    return _dump({"name": "animal", "strict": True, "schema": EXAMPLE_SCHEMA})


def _opened(schema: dict[str, Any]) -> dict[str, Any]:
    table = table_of(schema)
    opened, _ = schema_of(FieldTable(table.rows, closed=False))
    return opened or {}


def _dump(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


def read_box(text: str) -> tuple[dict[str, Any] | None, dict[str, Any] | None, str]:
    """(wrapper, schema, problem in words) of the JSON box; (None, None, "") when it is empty."""
    if not (text or "").strip():
        return None, None, ""
    if len(text) > MAX_JSON_CHARS:
        return None, None, say("schema_editor.say.too_long", limit=f"{MAX_JSON_CHARS:,}")
    if deeper_than(text, MAX_DEPTH):
        return None, None, say("schema_editor.say.too_deep", limit=MAX_DEPTH)
    try:
        value = json.loads(text)
    except ValueError as error:
        return None, None, say("schema_editor.say.not_json", error=plain(str(error)))
    if not isinstance(value, dict):
        return None, None, say("schema_editor.say.not_object")
    wrapper, schema = split_wrapper(value)
    return wrapper, schema, ""


def rule_lines(wrapper: dict[str, Any] | None, schema: dict[str, Any], fmt: str) -> list[str]:
    """What the format would refuse, in words (strict mode only where the format has one)."""
    if fmt in STRICT_FORMATS and not (wrapper or {}).get("strict"):
        return []
    return [word(problem) for problem in problems_for(schema, fmt)]


def note_of(lines: list[str], heading: str = "") -> str:
    """A heading line (if any) and the lines as a list, as plain text (no Markdown from the schema)."""
    listed = "\n".join(f"- {plain(line)}" for line in lines)
    return f"{plain(heading)}\n\n{listed}" if heading else listed


def schema_json_changed(text: str, fmt: str) -> tuple[Any, Any, Any, Any]:
    """The JSON box changed (typed, an example, a preset, a session file): (table, closed, strict, note)."""
    wrapper, schema, problem = read_box(text)
    if problem:
        return gr.skip(), gr.skip(), gr.skip(), note_of([problem])
    if schema is None:
        return table_value(None), gr.skip(), gr.skip(), ""
    strict = bool((wrapper or {}).get("strict"))
    lines = rule_lines(wrapper, schema, fmt)
    try:
        table = table_of(schema)
    except OnlyAsJson as refused:
        return table_value(None), gr.skip(), strict, note_of([word(refused.reason), *lines])
    note = note_of(lines, say("schema_editor.say.refused_before_sending")) if lines else say("schema_editor.say.fine")
    return table_value(table), table.closed, strict, note


def _cell(value: Any) -> str:
    return "" if value is None else str(value).strip() if not isinstance(value, str) else value


def rows_of(data: Any) -> tuple[FieldRow, ...]:
    """The table's rows as fields (blank rows left out); a cell is read as text, `required` as a tick."""
    rows = data.get("data") if isinstance(data, dict) else data
    found: list[FieldRow] = []
    for cells in rows if isinstance(rows, list) else []:
        if len(found) > MAX_ROWS:  # one more than the table may have, so the refusal names the limit
            break
        cells = list(cells)[: len(COLUMNS)] if isinstance(cells, (list, tuple)) else [cells]
        cells += [""] * (len(COLUMNS) - len(cells))
        name, parent, kind, items, required, enum, description = cells
        if not any(_cell(value) for i, value in enumerate(cells) if i != 4):
            continue
        found.append(FieldRow(_cell(name), _cell(parent).strip(), _cell(kind).strip() or "string", _cell(items).strip(),
                              required is True or str(required).lower() == "true", _cell(enum), _cell(description)))
    return tuple(found)


def _written(rows: tuple[FieldRow, ...], closed: bool, strict: bool, text: str, fmt: str) -> tuple[Any, str]:
    """(the JSON box, the note) for a table: the box is left alone when the table has problems
    or the box holds a schema the table cannot say."""
    wrapper, schema, problem = read_box(text)
    if problem:
        return gr.skip(), note_of([problem], say("schema_editor.say.fix_json_first"))
    if schema is not None:
        try:
            table_of(schema)
        except OnlyAsJson as refused:
            return gr.skip(), note_of([word(refused.reason)], say("schema_editor.say.json_only"))
    if not rows:
        return "", ""
    made, problems = schema_of(FieldTable(rows, closed=bool(closed)))
    if made is None:
        return gr.skip(), note_of(list(map(word, problems)), say("schema_editor.say.table_problems"))
    if fmt in STRICT_FORMATS:
        wrapper = dict(wrapper or {"name": "response"})
        wrapper.pop("strict", None)
        wrapper = {**wrapper, "strict": True} if strict else wrapper
        wrapper = None if wrapper == {"name": "response"} else wrapper
    lines = rule_lines(wrapper, made, fmt)
    note = note_of(lines, say("schema_editor.say.refused_before_sending")) if lines else say("schema_editor.say.fine")
    return _dump(join_wrapper(wrapper, made)), note


def schema_table_edited(data: Any, closed: bool, strict: bool, text: str, fmt: str) -> tuple[Any, str]:
    """The table (or its closed / strict ticks) was edited: (the JSON box, the note)."""
    return _written(rows_of(data), closed, strict, text, fmt)


def schema_field_added(name: str, kind: str, items: str, parent: str, required: bool, enum: str, description: str,
                       data: Any, closed: bool, strict: bool, text: str, fmt: str) -> tuple[Any, Any, str]:
    """"Add field": the row appended to the table: (the JSON box, the name box, the note)."""
    if not (name or "").strip():
        return gr.skip(), gr.skip(), note_of([say("schema_editor.say.name_first")])
    row = FieldRow(name.strip(), (parent or "").strip(), kind or "string", items or "", bool(required), enum or "", description or "")
    written, note = _written((*rows_of(data), row), closed, strict, text, fmt)
    return written, ("" if isinstance(written, str) else gr.skip()), note


def schema_example(fmt: str) -> str:
    """The editor's example button: a small schema in the JSON box (the table follows)."""
    return example_json(fmt)


def structured_verdict(text: str, result: TextResult | None) -> str:
    """The verdict line after a turn: "" without a schema, a text answer or with a tool call instead."""
    if result is None or result.tool_calls or not result.text.strip():
        return ""
    return answer_verdict(text, result.text)


def answer_verdict(text: str, answer: str) -> str:
    """After a structured answer: whether it matches the box's schema, or where it fails ("" with no schema)."""
    _, schema, problem = read_box(text)
    if schema is None or problem:
        return ""
    return plain(word(check_answer(answer, schema).text))
