"""A pasted call's body checked against the same request model a send uses, before any form is
filled: a field of the wrong type or out of range is named; fields the model does not know
(they go to a tab's extension editor) and fields left out (the form supplies them) are not
problems here. Never raises anything but `RequestValidationError`."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ValidationError

from playground.client.chat import ChatRequest
from playground.client.embeddings import ListEmbeddingRequest, NativeEmbeddingRequest
from playground.client.errors import RequestValidationError
from playground.client.images import ImageRequest
from playground.client.messages import MessagesRequest
from playground.client.native import NativeRequest
from playground.client.responses import ResponsesRequest
from playground.client.validation import _location, data_problems
from playground.client.texts import Text

REQUEST_MODELS: dict[str, type[BaseModel]] = {
    "chat": ChatRequest,
    "responses": ResponsesRequest,
    "messages": MessagesRequest,
    "count_tokens": MessagesRequest,
    "native": NativeRequest,
    "embeddings": ListEmbeddingRequest,
    "native_embeddings": NativeEmbeddingRequest,
    "images": ImageRequest,
}
NOT_PROBLEMS = frozenset({"extra_forbidden", "missing"})


def body_problems(interface: str | None, body: Any) -> list[str]:
    """Every problem of `body` as a request of `interface` (video bodies are checked by the form)."""
    if body is None:
        return []
    if not isinstance(body, dict):
        return [Text("curl.body_not_object")]
    problems = data_problems(body)
    if problems:
        return problems
    model = REQUEST_MODELS.get(interface or "")
    if model is None:
        return []
    try:
        model.model_validate(body)
    except ValidationError as exc:
        for item in exc.errors(include_url=False):
            if item["type"] in NOT_PROBLEMS or not item["loc"]:
                continue
            got = item.get("input")
            shown = f" (got {got!r})" if isinstance(got, (int, float, str)) and len(repr(got)) < 40 else ""
            problems.append(f"{_location(tuple(item['loc']))}: {item['msg'].removeprefix('Value error, ')}{shown}")
    except (RecursionError, ValueError, TypeError) as exc:  # a validator that met a shape it did not expect
        problems.append(Text("curl.body_not_checked", error_type=type(exc).__name__))
    return list(dict.fromkeys(problems))[:8]


def check_body(interface: str | None, body: Any) -> None:
    problems = body_problems(interface, body)
    if problems:
        raise RequestValidationError(problems)
