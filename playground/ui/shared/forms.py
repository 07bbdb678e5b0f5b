"""Reading form inputs shared by every tab: JSON editors and optional numbers."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import fields
from typing import Any

from playground.client.errors import RequestValidationError
from playground.client.validation import strict_json


MAX_JSON_DEPTH = 64


def parse_json_field(label: str, text: str | None, expected: type, problems: list[str]) -> Any:
    """Parse an editor's JSON; on a problem, append a readable message and return None.

    An empty editor means "not set" and returns None without a problem.
    """
    if text is None or not text.strip():
        return None
    try:
        value = strict_json(text, MAX_JSON_DEPTH)
    except RequestValidationError as error:
        problems.extend(f"{label}: {problem}" for problem in error.problems)
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


def whole(label: str, value: Any) -> int | None:
    """A number box's value as an int, exactly as typed: empty is None; 1.5, text or NaN are
    refused with the field named (Gradio's `precision=0` would round them silently, so the app's
    number boxes have no precision and every whole number is read here)."""
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RequestValidationError([f"{label}: {value!r} is not a number"])
    if isinstance(value, float) and not value.is_integer():
        raise RequestValidationError([f"{label}: must be a whole number (got {value}); it is not rounded for you"])
    return int(value)


def optional_positive(value: float | int | None, label: str = "number") -> int | None:
    """Number inputs use empty or 0 for "not set"; any other value is sent as typed (`whole`)."""
    if value is None or value == 0:
        return None
    return whole(label, value)


class Throttle:
    """Says when a stream should push an update: at most every `interval` seconds (a number, or a
    function read at each call)."""

    def __init__(self, interval: float | Callable[[], float], clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._interval = interval if callable(interval) else (lambda: interval)
        self._last = float("-inf")

    def due(self) -> bool:
        now = self._clock()
        if now - self._last >= self._interval():
            self._last = now
            return True
        return False


class Pacing:
    """Counts the replies streaming at once in this process. Up to `full_rate` of them each update
    at the base interval; beyond that `interval` stretches in proportion, so the process pushes
    about as many updates a second as at `full_rate` (a burst of replies is CPU-bound: issue 25)."""

    def __init__(self, full_rate: int) -> None:
        self.full_rate = full_rate
        self.active = 0

    @contextmanager
    def streaming(self) -> Iterator[None]:
        self.active += 1
        try:
            yield
        finally:
            self.active -= 1

    def interval(self, base: float) -> float:
        return base * max(1.0, self.active / self.full_rate)


def named_fields(form_class: type, components: Sequence[Any]) -> dict[str, Any]:
    """`{field name: component}` for a tab whose form dataclass takes its components in order."""
    names = [field.name for field in fields(form_class)]
    if len(names) != len(components):
        raise ValueError(f"{form_class.__name__} has {len(names)} fields but {len(components)} components were given")
    return dict(zip(names, components))
