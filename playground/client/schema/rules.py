"""What each format refuses in a structured-output schema, checked before anything is sent.

- `chat` (`response_format.json_schema` with `strict: true`) and `responses` (`text.format`,
  strict): the vendor's strict mode. The root is an object; every object says
  `additionalProperties: false` and lists every property in `required` (an optional field is a
  union with `null`); only the supported keywords (below); at most 10 levels of nesting, 5,000
  properties and 1,000 enum values in all.
- `native` (`generationConfig.responseSchema`): an OpenAPI subset. One type per schema (upper or
  lower case; `nullable` instead of a type list), the keywords below only (no
  `additionalProperties`, `$ref`, `const`, `oneOf`...), enum values are strings, and an object
  names at least one property.

Each problem is a `Text` naming the place (`$.properties.city`) and the rule in words."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from playground.client.texts import Items, Text

FORMATS = ("chat", "responses", "native")
STRICT_KEYWORDS = frozenset({
    "type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf", "description", "title",
    "$ref", "$defs", "definitions", "pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
    "multipleOf", "minItems", "maxItems",
})
STRICT_TYPES = frozenset({"string", "number", "integer", "boolean", "object", "array", "null"})
NATIVE_KEYWORDS = frozenset({
    "type", "format", "description", "nullable", "enum", "maxItems", "minItems", "properties", "required", "propertyOrdering",
    "items", "anyOf", "minimum", "maximum", "minLength", "maxLength", "minProperties", "maxProperties", "title", "example",
})
NATIVE_TYPES = frozenset({"string", "number", "integer", "boolean", "object", "array"})
STRICT_MAX_DEPTH = 10
STRICT_MAX_PROPERTIES = 5000
STRICT_MAX_ENUM_VALUES = 1000
MAX_PROBLEMS = 20
_SUBSCHEMA_MAPS = ("properties", "$defs", "definitions")


def _nodes(schema: Any, where: str = "$", depth: int = 0) -> Iterator[tuple[str, dict[str, Any], int]]:
    """Every schema object inside `schema` with its place and its object nesting depth; stops
    below 64 levels (the checks name a schema that deep before that matters)."""
    if not isinstance(schema, dict) or depth > 64:
        return
    yield where, schema, depth
    nested = depth + (1 if schema.get("type") == "object" or "properties" in schema else 0)
    for keyword in _SUBSCHEMA_MAPS:
        children = schema.get(keyword)
        if isinstance(children, dict):
            for name, child in children.items():
                yield from _nodes(child, f"{where}.{keyword}.{name}", nested if keyword == "properties" else 0)
    if isinstance(schema.get("items"), dict):
        yield from _nodes(schema["items"], f"{where}.items", nested)
    if isinstance(schema.get("additionalProperties"), dict):
        yield from _nodes(schema["additionalProperties"], f"{where}.additionalProperties", nested)
    for index, child in enumerate(schema.get("anyOf") or [] if isinstance(schema.get("anyOf"), list) else []):
        yield from _nodes(child, f"{where}.anyOf[{index}]", nested)


def format_name(fmt: str) -> Text:
    return Text(f"schema.format.{fmt}")


def problems_for(schema: Any, fmt: str) -> list[Text]:
    """What `fmt` refuses in `schema` (at most `MAX_PROBLEMS`); empty when it would be accepted."""
    if fmt not in FORMATS:
        raise ValueError(fmt)  # a programming error: FORMATS names the formats with rules
    if not isinstance(schema, dict):
        return [Text("schema.rule.not_object_schema", format=format_name(fmt))]
    found = _native(schema) if fmt == "native" else _strict(schema)
    return [Text("schema.rule.problem", format=format_name(fmt), problem=problem) for problem in found[:MAX_PROBLEMS]]


def _strict(schema: dict[str, Any]) -> list[Text]:
    problems: list[Text] = []
    if schema.get("type") != "object":
        problems.append(Text("schema.rule.root_object", path="$"))
    properties = enum_values = 0
    for where, node, depth in _nodes(schema):
        for keyword in node:
            if keyword not in STRICT_KEYWORDS:
                problems.append(Text("schema.rule.keyword", path=where, keyword=keyword))
        types = node.get("type")
        for kind in types if isinstance(types, list) else [types] if types is not None else []:
            if not isinstance(kind, str) or kind not in STRICT_TYPES:
                problems.append(Text("schema.rule.type", path=where, type=str(kind)[:40], types=Items(sorted(STRICT_TYPES))))
        if depth > STRICT_MAX_DEPTH:
            problems.append(Text("schema.rule.too_deep", path=where, limit=STRICT_MAX_DEPTH))
        enum_values += len(node["enum"]) if isinstance(node.get("enum"), list) else 0
        if types == "object" or (isinstance(types, list) and "object" in types) or "properties" in node:
            named: dict[str, Any] = node["properties"] if isinstance(node.get("properties"), dict) else {}
            properties += len(named)
            problems += _strict_object(where, node, named)
    if properties > STRICT_MAX_PROPERTIES:
        problems.append(Text("schema.rule.too_many_properties", count=properties, limit=STRICT_MAX_PROPERTIES))
    if enum_values > STRICT_MAX_ENUM_VALUES:
        problems.append(Text("schema.rule.too_many_enum_values", count=enum_values, limit=STRICT_MAX_ENUM_VALUES))
    return problems


def _strict_object(where: str, node: dict[str, Any], named: dict[str, Any]) -> list[Text]:
    problems = []
    if node.get("additionalProperties") is not False:
        problems.append(Text("schema.rule.additional_properties", path=where))
    required: list[Any] = node["required"] if isinstance(node.get("required"), list) else []
    missing = [name for name in named if name not in required]
    if missing:
        problems.append(Text("schema.rule.all_required", path=where, names=Items(missing)))
    return problems


def _native(schema: dict[str, Any]) -> list[Text]:
    problems: list[Text] = []
    for where, node, _ in _nodes(schema):
        for keyword in node:
            if keyword not in NATIVE_KEYWORDS:
                problems.append(Text("schema.rule.native_keyword", path=where, keyword=keyword))
        kind = node.get("type")
        if isinstance(kind, list):
            problems.append(Text("schema.rule.native_type_list", path=where))
        elif kind is not None and str(kind).lower() not in NATIVE_TYPES:
            problems.append(Text("schema.rule.type", path=where, type=str(kind)[:40], types=Items(sorted(NATIVE_TYPES))))
        if isinstance(node.get("enum"), list) and not all(isinstance(value, str) for value in node["enum"]):
            problems.append(Text("schema.rule.native_enum_strings", path=where))
        if str(kind).lower() == "object" and not node.get("properties"):
            problems.append(Text("schema.rule.native_empty_object", path=where))
    return problems
