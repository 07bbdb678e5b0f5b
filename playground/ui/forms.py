"""Reading form inputs shared by every tab: JSON editors and optional numbers."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import fields
from typing import Any


MAX_JSON_DEPTH = 64


def _depth(value: Any, limit: int = MAX_JSON_DEPTH + 1) -> int:
    """Nesting depth of parsed JSON, counted up to `limit` (iteratively: no recursion)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, level)
            if deepest >= limit:
                return deepest
            stack.extend((child, level + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def parse_json_field(label: str, text: str | None, expected: type, problems: list[str]) -> Any:
    """Parse an editor's JSON; on a problem, append a readable message and return None.

    An empty editor means "not set" and returns None without a problem.
    """
    if text is None or not text.strip():
        return None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        problems.append(f"{label}: not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})")
        return None
    except RecursionError:
        problems.append(f"{label}: nested more than {MAX_JSON_DEPTH} levels deep")
        return None
    if _depth(value) > MAX_JSON_DEPTH:
        problems.append(f"{label}: nested more than {MAX_JSON_DEPTH} levels deep")
        return None
    if not isinstance(value, expected):
        wanted = "an array [...]" if expected is list else "an object {...}"
        problems.append(f"{label}: must be {wanted}")
        return None
    return value


def parse_extensions(text: str | None, allowed: tuple[str, ...], problems: list[str]) -> dict[str, Any]:
    """A tab's extension-fields editor: a JSON object whose keys must be among `allowed`."""
    extensions = parse_json_field("Extension fields", text, dict, problems) or {}
    unknown = sorted(set(extensions) - set(allowed))
    if unknown:
        problems.append(f"Extension fields: unknown field(s) {', '.join(unknown)}; allowed: {', '.join(allowed)}")
    return extensions


def optional_positive(value: float | int | None) -> int | None:
    """Number inputs use empty or 0 for "not set"."""
    if value is None or value == 0:
        return None
    return int(value) if float(value).is_integer() else value  # type: ignore[return-value]


class Throttle:
    """Says when a stream should push an update: at most every `interval` seconds."""

    def __init__(self, interval: float, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._interval = interval
        self._last = float("-inf")

    def due(self) -> bool:
        now = self._clock()
        if now - self._last >= self._interval:
            self._last = now
            return True
        return False


def named_fields(form_class: type, components: Sequence[Any]) -> dict[str, Any]:
    """`{field name: component}` for a tab whose form dataclass takes its components in order."""
    names = [field.name for field in fields(form_class)]
    if len(names) != len(components):
        raise ValueError(f"{form_class.__name__} has {len(names)} fields but {len(components)} components were given")
    return dict(zip(names, components))
