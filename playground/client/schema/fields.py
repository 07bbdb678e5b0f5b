"""A schema as a table of fields and back. Each row is one property: its name, the path of the
object it sits in (`parent`, dotted; an array of objects is the parent of its items' fields), a
type, the item type of an array, whether it is required, enum values and a description. What the
table can say goes both ways without loss; a schema using anything else is refused with the
keyword and its place (`OnlyAsJson`), so it is edited as JSON instead."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from playground.client.texts import Items, Text

TYPES = ("string", "number", "integer", "boolean", "array", "object", "enum")
ITEM_TYPES = ("string", "number", "integer", "boolean", "object", "enum")
SCALARS = ("string", "number", "integer", "boolean")
ENUM_SEPARATOR = ", "
MAX_ROWS = 200
MAX_CELL_CHARS = 2000
WRAPPER_KEYS = frozenset({"name", "schema", "strict", "description"})
_OBJECT_KEYS = frozenset({"type", "properties", "required", "additionalProperties"})


@dataclass(frozen=True)
class FieldRow:
    name: str
    parent: str = ""
    type: str = "string"
    items: str = ""
    required: bool = True
    enum: str = ""
    description: str = ""

    @property
    def path(self) -> str:
        return f"{self.parent}.{self.name}" if self.parent else self.name

    @property
    def holds_fields(self) -> bool:
        return self.type == "object" or (self.type == "array" and self.items == "object")


@dataclass(frozen=True)
class FieldTable:
    rows: tuple[FieldRow, ...]
    closed: bool = True
    """Every object refuses fields it does not name (`additionalProperties: false`)."""


class OnlyAsJson(ValueError):
    """The schema says something the table cannot: `reason` names what and where."""

    def __init__(self, reason: Text) -> None:
        super().__init__(reason)
        self.reason = reason


def split_wrapper(value: dict[str, Any]) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    """A chat box holds either a bare schema or `{name, schema, strict}`: the wrapper without
    its schema (None for a bare schema) and the schema."""
    if "schema" in value and set(value) <= WRAPPER_KEYS and isinstance(value["schema"], dict):
        return {k: v for k, v in value.items() if k != "schema"}, value["schema"]
    return None, value


def join_wrapper(wrapper: dict[str, Any] | None, schema: dict[str, Any]) -> dict[str, Any]:
    """The box's value again: the schema back inside its wrapper, keys in the wrapper's order."""
    if wrapper is None:
        return schema
    joined = dict(wrapper)
    joined["schema"] = schema
    return joined


# Schema -> table.

def _refuse(keyword: str, where: str) -> OnlyAsJson:
    return OnlyAsJson(Text("schema.form.uses", keyword=keyword, path=where))


def table_of(schema: Any) -> FieldTable:
    """The table a schema stands for; `OnlyAsJson` when it says more than a table can."""
    if not isinstance(schema, dict) or schema.get("type") != "object":
        raise OnlyAsJson(Text("schema.form.root_not_object"))
    rows: list[FieldRow] = []
    closed: set[bool] = set()
    _object_rows(schema, "$", "", rows, closed)
    if len(closed) > 1:
        raise OnlyAsJson(Text("schema.form.mixed_additional"))
    if len(rows) > MAX_ROWS:
        raise OnlyAsJson(Text("schema.form.too_many_fields", limit=MAX_ROWS))
    return FieldTable(tuple(rows), closed=closed != {False})


def _object_rows(node: dict[str, Any], where: str, parent: str, rows: list[FieldRow], closed: set[bool]) -> None:
    for keyword in node:
        if keyword not in _OBJECT_KEYS:
            raise _refuse(keyword, where)
    extra = node.get("additionalProperties")
    if "additionalProperties" in node and extra is not False:
        raise _refuse("additionalProperties", where)
    closed.add(extra is False)
    properties = node.get("properties", {})
    required = node.get("required", [])
    if not isinstance(properties, dict):
        raise _refuse("properties", where)
    if not isinstance(required, list) or len(set(map(str, required))) != len(required) \
            or not all(isinstance(name, str) and name in properties for name in required):
        raise _refuse("required", where)
    for name, child in properties.items():
        child_where = f"{where}.properties.{name}"
        if not name or "." in name or name != name.strip():
            raise OnlyAsJson(Text("schema.form.name_unusable", name=name, path=child_where))
        _field_rows(name, parent, child, name in required, child_where, rows, closed)


def _field_rows(name: str, parent: str, node: Any, required: bool, where: str, rows: list[FieldRow], closed: set[bool]) -> None:
    if not isinstance(node, dict):
        raise _refuse("schema", where)
    description = node.get("description", None)
    if "description" in node and (not isinstance(description, str) or not description):
        raise _refuse("description", where)
    bare = {k: v for k, v in node.items() if k != "description"}
    kind, items, enum = _kind(bare, where)
    row = FieldRow(name, parent, kind, items, required, enum, description or "")
    rows.append(row)
    if kind == "object":
        _object_rows(bare, where, row.path, rows, closed)
    elif items == "object":
        _object_rows(bare["items"], f"{where}.items", row.path, rows, closed)


def _kind(node: dict[str, Any], where: str) -> tuple[str, str, str]:
    """(type, item type, enum values) of a field's schema without its description."""
    kind = node.get("type")
    if kind == "string" and "enum" in node:
        if set(node) != {"type", "enum"}:
            raise _refuse(sorted(set(node) - {"type", "enum"})[0], where)
        return "enum", "", _enum_text(node["enum"], where)
    if kind in SCALARS:
        if set(node) != {"type"}:
            raise _refuse(sorted(set(node) - {"type"})[0], where)
        return str(kind), "", ""
    if kind == "object":
        return "object", "", ""
    if kind == "array":
        if set(node) != {"type", "items"} or not isinstance(node["items"], dict):
            raise _refuse(sorted(set(node) - {"type"})[0] if set(node) - {"type", "items"} else "items", where)
        item = node["items"]
        if item.get("type") == "object":
            return "array", "object", ""
        item_kind, nested, enum = _kind(item, f"{where}.items")
        if item_kind == "array" or nested:
            raise _refuse("items", where)
        return "array", item_kind, enum
    raise _refuse("type", where)


def _enum_text(values: Any, where: str) -> str:
    if not isinstance(values, list) or not values or len(set(map(repr, values))) != len(values) or not all(
            isinstance(v, str) and v and v == v.strip() and "," not in v for v in values):
        raise _refuse("enum", where)
    return ENUM_SEPARATOR.join(values)


# Table -> schema.

def enum_values(text: str) -> list[str]:
    return [value.strip() for value in text.split(",") if value.strip()]


def schema_of(table: FieldTable) -> tuple[dict[str, Any] | None, list[Text]]:
    """The schema a table stands for, or None and every problem of its rows (row numbers from 1)."""
    problems = _row_problems(table.rows)
    if problems:
        return None, problems
    children: dict[str, list[FieldRow]] = {}
    for row in table.rows:
        children.setdefault(row.parent, []).append(row)
    return _object_schema("", children, table.closed), []


def _object_schema(path: str, children: dict[str, list[FieldRow]], closed: bool) -> dict[str, Any]:
    rows = children.get(path, [])
    schema: dict[str, Any] = {"type": "object", "properties": {row.name: _field_schema(row, children, closed) for row in rows},
                              "required": [row.name for row in rows if row.required]}
    if closed:
        schema["additionalProperties"] = False
    return schema


def _field_schema(row: FieldRow, children: dict[str, list[FieldRow]], closed: bool) -> dict[str, Any]:
    def of(kind: str) -> dict[str, Any]:
        if kind == "enum":
            return {"type": "string", "enum": enum_values(row.enum)}
        if kind == "object":
            return _object_schema(row.path, children, closed)
        return {"type": kind}

    schema = {"type": "array", "items": of(row.items)} if row.type == "array" else of(row.type)
    return {**schema, "description": row.description} if row.description else schema


def _row_problems(rows: tuple[FieldRow, ...]) -> list[Text]:
    if len(rows) > MAX_ROWS:
        return [Text("schema.form.too_many_fields", limit=MAX_ROWS)]
    problems: list[Text] = []
    by_path: dict[str, FieldRow] = {}
    for number, row in enumerate(rows, start=1):
        problems += _one_row_problems(number, row)
        if row.path in by_path:
            problems.append(Text("schema.row.duplicate", row=number, path=row.path))
        by_path.setdefault(row.path, row)
    for number, row in enumerate(rows, start=1):
        holder = by_path.get(row.parent) if row.parent else None
        if row.parent and holder is None:
            problems.append(Text("schema.row.unknown_parent", row=number, parent=row.parent))
        elif holder is not None and not holder.holds_fields:
            problems.append(Text("schema.row.parent_not_object", row=number, parent=row.parent))
    return problems


def _one_row_problems(number: int, row: FieldRow) -> list[Text]:
    if max(len(row.name), len(row.parent), len(row.enum), len(row.description)) > MAX_CELL_CHARS:
        return [Text("schema.row.too_long", row=number, limit=MAX_CELL_CHARS)]
    problems: list[Text] = []
    if not row.name or row.name != row.name.strip() or "." in row.name:
        problems.append(Text("schema.row.bad_name", row=number, name=row.name))
    if row.type not in TYPES:
        problems.append(Text("schema.row.unknown_type", row=number, type=row.type, types=Items(TYPES)))
    if row.type == "array" and row.items not in ITEM_TYPES:
        problems.append(Text("schema.row.item_type", row=number, type=row.items, types=Items(ITEM_TYPES)))
    if row.type != "array" and row.items:
        problems.append(Text("schema.row.items_unused", row=number))
    enum_kind = row.type == "enum" or (row.type == "array" and row.items == "enum")
    values = enum_values(row.enum)
    if enum_kind and (not values or len(set(values)) != len(values)):
        problems.append(Text("schema.row.enum_values", row=number))
    if not enum_kind and row.enum.strip():
        problems.append(Text("schema.row.enum_unused", row=number))
    return problems
