"""Builds a value that is valid against a JSON Schema (the subset tools and structured output use).

Deterministic: strings are taken from a seed text, numbers from the bounds.
"""

from __future__ import annotations

from typing import Any


def _string(schema: dict[str, Any], seed: str, name: str) -> str:
    fmt = schema.get("format")
    if fmt == "date":
        value = "2025-01-01"
    elif fmt == "date-time":
        value = "2025-01-01T00:00:00Z"
    elif fmt == "email":
        value = "demo@example.com"
    elif fmt in ("uri", "url"):
        value = "https://example.com/"
    else:
        value = seed or name or "demo"
    min_len, max_len = schema.get("minLength", 0), schema.get("maxLength")
    if len(value) < min_len:
        value = value + "x" * (min_len - len(value))
    if max_len is not None:
        value = value[:max_len]
    return value


def _number(schema: dict[str, Any], integer: bool) -> int | float:
    low = schema.get("minimum", schema.get("exclusiveMinimum"))
    high = schema.get("maximum", schema.get("exclusiveMaximum"))
    if low is not None and high is not None:
        value: float = (low + high) / 2
    elif low is not None:
        value = low + 1
    elif high is not None:
        value = high - 1
    else:
        value = 42
    if integer:
        return int(value)
    return float(value)


def fill(schema: Any, seed: str = "", name: str = "") -> Any:
    """A value that validates against `schema`; `seed` fills free-text strings."""
    if not isinstance(schema, dict):
        return seed or None
    if "const" in schema:
        return schema["const"]
    if schema.get("enum"):
        return schema["enum"][0]
    for combinator in ("anyOf", "oneOf"):
        if schema.get(combinator):
            return fill(schema[combinator][0], seed, name)
    if schema.get("allOf"):
        merged: dict[str, Any] = {}
        for part in schema["allOf"]:
            merged.update(part)
        return fill(merged, seed, name)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind is None:
        kind = "object" if "properties" in schema else "string"
    if kind == "object":
        properties = schema.get("properties") or {}
        required = schema.get("required") or list(properties)
        return {key: fill(properties.get(key, {}), seed, key) for key in properties if key in required or len(properties) <= 6}
    if kind == "array":
        count = max(1, schema.get("minItems", 1))
        if schema.get("maxItems") is not None:
            count = min(count, schema["maxItems"])
        return [fill(schema.get("items", {}), seed, name) for _ in range(count)]
    if kind == "string":
        return _string(schema, seed, name)
    if kind == "integer":
        return _number(schema, integer=True)
    if kind == "number":
        return _number(schema, integer=False)
    if kind == "boolean":
        return True
    return None
