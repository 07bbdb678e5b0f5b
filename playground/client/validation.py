"""Turns pydantic validation failures into one readable `RequestValidationError`."""

from __future__ import annotations

from playground.client.texts import Text, joined

import json
from typing import Any, TypeVar

from typing import Self

from pydantic import BaseModel, ConfigDict, ValidationError

from playground.client.errors import RequestValidationError

ModelT = TypeVar("ModelT", bound=BaseModel)


def _location(loc: tuple[Any, ...]) -> str:
    parts: list[str] = []
    for item in loc:
        if isinstance(item, int):
            parts.append(f"[{item}]")
        elif not str(item).startswith("function-") and "[" not in str(item) and item not in ("str",):
            parts.append(("." if parts else "") + str(item))
    return "".join(parts) or "request"


def _raised(item: Any) -> list[str] | None:
    """The messages a validator of ours raised (`ValueError(Text(...))`, several as `joined`),
    kept as `Text`s; None when pydantic wrote the message."""
    error = (item.get("ctx") or {}).get("error")
    message = error.args[0] if isinstance(error, ValueError) and len(error.args) == 1 else None
    if not isinstance(message, Text):
        return None
    return list(message.params["items"]) if message.id == "list.items" else [message]


def problems_from(error: ValidationError) -> list[str]:
    problems: list[str] = []
    for item in error.errors(include_url=False):
        raised = _raised(item)
        message = item["msg"].removeprefix("Value error, ")
        if not item["loc"]:
            problems.extend(raised if raised is not None else message.split("; "))
            continue
        where = _location(tuple(item["loc"]))
        problem = message if raised is None else raised[0] if len(raised) == 1 else joined(raised)
        got = item.get("input")
        if isinstance(got, (int, float, str)) and len(repr(got)) < 40:
            problems.append(Text("validation.field_problem_got", field=where, problem=problem, got=repr(got)))
        else:
            problems.append(Text("validation.field_problem", field=where, problem=problem))
    return list(dict.fromkeys(problems))


def validate(model: type[ModelT], data: dict[str, Any]) -> ModelT:
    """Build `model` from plain data or raise `RequestValidationError` listing every problem."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise RequestValidationError(problems_from(exc)) from None


class RequestModel(BaseModel):
    """A request body: unknown fields are refused, `build` reports every problem at once."""

    model_config = ConfigDict(extra="forbid")

    @classmethod
    def build(cls, **fields: Any) -> Self:
        """Validate plain data (None means "not set"); raises `RequestValidationError`."""
        return validate(cls, {k: v for k, v in fields.items() if v is not None})

    def to_body(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude_none=True, by_alias=True)


MAX_DATA_DEPTH = 64


def _refuse_constant(name: str) -> Any:
    raise ValueError(Text("validation.not_json_number", name=name))


def _where(path: list[Any]) -> str:
    return _location(tuple(path)) if path else Text("validation.top_level")


def data_problems(value: Any, max_depth: int = MAX_DATA_DEPTH) -> list[str]:
    """What in parsed JSON cannot be sent as it is: nesting deeper than `max_depth`, a number that
    is not finite (NaN, Infinity), text with a lone surrogate (not valid UTF-8). Iterative, so it
    never recurses and never raises; each problem names where it is."""
    problems: list[str] = []
    stack: list[tuple[Any, list[Any]]] = [(value, [])]
    while stack and len(problems) < 5:
        item, path = stack.pop()
        if len(path) > max_depth:
            problems.append(Text("validation.nested_more_than_levels_deep", max_depth=max_depth))
            break
        if isinstance(item, dict):
            for key, child in item.items():
                if isinstance(key, str) and not _is_utf8(key):
                    problems.append(Text("validation.field_name_broken_character_lone", path=_where(path)))
                stack.append((child, [*path, key if isinstance(key, str) and _is_utf8(key) else "?"]))
        elif isinstance(item, list):
            stack.extend((child, [*path, index]) for index, child in enumerate(item))
        elif (isinstance(item, float) and item != item) or (isinstance(item, float) and item in (float("inf"), float("-inf"))):
            problems.append(Text("validation.not_number_json_can_carry", path=_where(path), item=item))
        elif isinstance(item, str) and not _is_utf8(item):
            problems.append(Text("validation.text_broken_character_lone_surrogate", path=_where(path)))
    return problems


BROKEN_TEXT = Text("validation.text_contains_broken_character_half")


def is_utf8(text: str) -> bool:
    """False for text with a lone surrogate: it cannot be encoded, sent, or shown by Gradio."""
    return _is_utf8(text)


def _is_utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def strict_json(text: str | bytes, max_depth: int = MAX_DATA_DEPTH) -> Any:
    """Parse JSON that will be sent or shown as it is: NaN/Infinity, nesting deeper than
    `max_depth` and lone surrogates are refused (with where), never turned into something else.
    Raises `RequestValidationError`; never anything else."""
    try:
        value = json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        raise RequestValidationError([Text("validation.not_valid_json_line_column", reason=exc.msg, line=exc.lineno, column=exc.colno)]) from None
    except RecursionError:
        raise RequestValidationError([Text("validation.nested_more_than_levels_deep", max_depth=max_depth)]) from None
    except ValueError as exc:  # NaN / Infinity, or bytes that are not UTF-8
        raise RequestValidationError([Text("validation.not_valid_json", reason=exc.args[0] if exc.args and isinstance(exc.args[0], str) else str(exc))]) from None
    problems = data_problems(value, max_depth)
    if problems:
        raise RequestValidationError(problems)
    return value
