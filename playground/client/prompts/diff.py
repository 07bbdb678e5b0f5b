"""The difference of two prompt versions, field by field: the system prompt, each message and
the tools as lines of text (a unified diff), the variables and parameters value by value."""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from typing import Any

from playground.client.prompts.model import PromptContent


@dataclass(frozen=True)
class FieldChange:
    field: str
    lines: list[str]
    """Unified-diff lines for text fields; `- old` / `+ new` for a value."""


def _text_lines(name: str, old: str, new: str, before: str, after: str) -> FieldChange | None:
    if old == new:
        return None
    lines = list(difflib.unified_diff(old.splitlines(), new.splitlines(), before, after, lineterm="", n=2))
    return FieldChange(name, lines)


def _value(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _values(name: str, old: dict[str, Any], new: dict[str, Any]) -> list[FieldChange]:
    changes: list[FieldChange] = []
    for key in sorted(set(old) | set(new)):
        if old.get(key, _ABSENT) == new.get(key, _ABSENT) and (key in old) == (key in new):
            continue
        lines = ([f"- {_value(old[key])}"] if key in old else []) + ([f"+ {_value(new[key])}"] if key in new else [])
        changes.append(FieldChange(f"{name}.{key}", lines))
    return changes


_ABSENT = object()


def diff_versions(old: PromptContent, new: PromptContent, before: str, after: str) -> list[FieldChange]:
    """What changed from `old` (named `before`, e.g. "v1") to `new` (`after`), field by field."""
    changes: list[FieldChange] = []
    if old.format != new.format:
        changes.append(FieldChange("format", [f"- {old.format}", f"+ {new.format}"]))
    for name, a, b in (("system", old.system, new.system), ("tools", old.tools, new.tools)):
        change = _text_lines(name, a, b, before, after)
        if change:
            changes.append(change)
    for index in range(max(len(old.messages), len(new.messages))):
        was = old.messages[index] if index < len(old.messages) else {"role": "", "content": ""}
        now = new.messages[index] if index < len(new.messages) else {"role": "", "content": ""}
        label = f"messages[{index + 1}]"
        if was["role"] != now["role"]:
            changes.append(FieldChange(f"{label}.role", [f"- {was['role']}", f"+ {now['role']}"]))
        change = _text_lines(label, was["content"], now["content"], before, after)
        if change:
            changes.append(change)
    changes += _values("variables", old.variables, new.variables)
    changes += _values("parameters", old.parameters, new.parameters)
    return changes


def diff_text(changes: list[FieldChange]) -> str:
    """The changes as text: a `## field` heading, then its lines."""
    return "\n\n".join("\n".join([f"## {change.field}", *change.lines]) for change in changes)
