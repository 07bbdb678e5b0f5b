"""Turns pydantic validation failures into one readable `RequestValidationError`."""

from __future__ import annotations

from typing import Any, TypeVar

from typing_extensions import Self

from pydantic import BaseModel, ConfigDict, ValidationError

from playground.client.errors import RequestValidationError

ModelT = TypeVar("ModelT", bound=BaseModel)


def _location(loc: tuple[Any, ...]) -> str:
    parts: list[str] = []
    for item in loc:
        if isinstance(item, int):
            parts.append(f"[{item}]")
        elif not str(item).startswith("function-") and item not in ("str", "list[...]", "dict[str,any]"):
            parts.append(("." if parts else "") + str(item))
    return "".join(parts) or "request"


def problems_from(error: ValidationError) -> list[str]:
    problems = []
    for item in error.errors(include_url=False):
        message = item["msg"].removeprefix("Value error, ")
        if not item["loc"]:
            problems.extend(message.split("; "))
            continue
        where = _location(tuple(item["loc"]))
        got = item.get("input")
        shown = f" (got {got!r})" if isinstance(got, (int, float, str)) and len(repr(got)) < 40 else ""
        problems.append(f"{where}: {message}{shown}")
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
