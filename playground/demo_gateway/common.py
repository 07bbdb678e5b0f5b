"""Shared pieces of the demo gateway: tokens, auth, JSON errors, SSE framing, pacing."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, StreamingResponse

from playground.demo_gateway.pacing import paced

_TOKEN = re.compile(r"[\u3400-\u9fff]|[^\W\u3400-\u9fff]+|[^\w\s]")
"""A token of the demo: a Chinese character (as a real tokenizer gives about one a character), a
run of other word characters, or a punctuation mark."""
_PIECE = re.compile(r"\s*(?:[\u3400-\u9fff][\u3400-\u9fff\u3000-\u303f\uff00-\uffef]?|[^\s\u3400-\u9fff]{1,16})")
"""A streamed piece: a word with its leading space (long words in chunks), or one or two Chinese characters (Chinese
has no spaces; a real tokenizer gives about a token per character or two), so a Chinese answer streams as long as an English one."""


class HTTPProblem(Exception):
    """Raised by handlers; turned into the interface's error body by the app.

    `error_type` "invalid" means a malformed request: each interface names it its own way."""

    def __init__(self, status: int, error_type: str, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.error_type = error_type
        self.message = message
        self.code = code


def count_tokens(text: str) -> int:
    """The demo's tokenizer: words, Chinese characters and punctuation marks count one each."""
    return len(_TOKEN.findall(text))


def split_pieces(text: str) -> list[str]:
    """Split text into streamable pieces (one word with its leading space each, long words in chunks; Chinese a character or two)."""
    return _PIECE.findall(text)


def first_pieces(text: str, limit: int) -> str:
    """The first pieces of `text` holding at most `limit` tokens."""
    kept, used = [], 0
    for piece in split_pieces(text):
        cost = count_tokens(piece)
        if used + cost > limit:
            break
        kept.append(piece)
        used += cost
    return "".join(kept)


def bearer_key(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return None


async def read_json_object(request: Request) -> dict[str, Any]:
    raw = await request.body()
    try:
        body = json.loads(raw or b"null")
    except ValueError:
        raise HTTPProblem(400, "invalid", "The request body is not valid JSON.") from None
    if not isinstance(body, dict):
        raise HTTPProblem(400, "invalid", "The request body must be a JSON object.")
    return body


def openai_error(status: int, error_type: str, message: str, code: str | None = None, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": {"message": message, "type": error_type, "param": None, "code": code}}, status, headers=headers)


def sse_data(payload: Any, event: str | None = None) -> str:
    head = f"event: {event}\n" if event else ""
    return f"{head}data: {json.dumps(payload, separators=(',', ':'), ensure_ascii=False)}\n\n"


def sse_response(events: AsyncIterator[str]) -> StreamingResponse:
    return StreamingResponse(events, media_type="text/event-stream", headers={"cache-control": "no-cache"})


async def pace(delay: float) -> None:
    """Wait between streamed tokens (`delay`, or the pace the request asked for: `pacing`); with no
    delay still yield control to the loop."""
    await asyncio.sleep(paced(delay))


def number_in_range(body: dict[str, Any], name: str, low: float, high: float) -> float | None:
    value = body.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        raise HTTPProblem(400, "invalid", f"{name} must be a number from {low:g} to {high:g}.", code="invalid_value")
    return float(value)


def positive_int(body: dict[str, Any], name: str) -> int | None:
    value = body.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise HTTPProblem(400, "invalid", f"{name} must be an integer greater than 0.", code="invalid_value")
    return value
