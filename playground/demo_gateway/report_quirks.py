"""Quirks for the Report's error and accounting checks: the demo gateway answering with one
planted defect, so each of those checks has a cell it must flag (`DEMO_QUIRKS`, `NAME` or
`NAME@MODEL` as in `quirks`).

| name                   | effect (the spec rule it breaks)                                                   |
|------------------------|------------------------------------------------------------------------------------|
| flat-errors            | error answers are `{"code", "message"}` without the `error` object (Errors)        |
| no-retry-after         | a 429 carries neither `Retry-After` nor `retry-after-ms`                           |
| count-skips-tools      | `count_tokens` leaves the tool definitions out (POST /v1/messages/count_tokens)    |
| thoughts-outside-total | native `totalTokenCount` leaves `thoughtsTokenCount` out (whole and streamed)      |
| cache-in-input         | `input_tokens` counts the cache again: messages adds the reads and writes (Message object usage: the non-cached input), responses adds `cached_tokens`, already inside it (Response object usage) |

Each works on the answer the demo already made (`with_report_quirks` wraps an endpoint), so the
demo's own rules stay in one place.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse

from playground.demo_gateway.prompt_cache import prompt_units

REPORT_QUIRKS = ("flat-errors", "no-retry-after", "count-skips-tools", "thoughts-outside-total", "cache-in-input")
RETRY_HEADERS = ("retry-after", "retry-after-ms")
Endpoint = Callable[[Request], Awaitable[Response]]


def _flat_error(data: Any, status: int) -> Any:
    error = data.get("error") if isinstance(data, dict) else None
    message = error.get("message") if isinstance(error, dict) else None
    return {"code": status, "message": message} if isinstance(message, str) else data


def _count_without_tools(request_body: dict[str, Any]) -> dict[str, Any]:
    return {"input_tokens": sum(unit.tokens for unit in prompt_units({**request_body, "tools": []}))}


def _responses_cached(usage: dict[str, Any]) -> int:
    details = usage.get("input_tokens_details")
    cached = details.get("cached_tokens") if isinstance(details, dict) else None
    return cached if isinstance(cached, int) else 0


def _usage_rewritten(payload: Any, names: set[str]) -> bool:
    """Apply the accounting quirks to one answer or event in place; True when it changed."""
    if not isinstance(payload, dict):
        return False
    changed = False
    metadata = payload.get("usageMetadata")
    if "thoughts-outside-total" in names and isinstance(metadata, dict) and metadata.get("thoughtsTokenCount"):
        metadata["totalTokenCount"] = (metadata.get("promptTokenCount") or 0) + (metadata.get("candidatesTokenCount") or 0)
        changed = True
    for holder in (payload, payload.get("message"), payload.get("response")):
        usage = holder.get("usage") if isinstance(holder, dict) else None
        if "cache-in-input" in names and isinstance(usage, dict) and isinstance(usage.get("input_tokens"), int):
            cached = (usage.get("cache_read_input_tokens") or 0) + (usage.get("cache_creation_input_tokens") or 0) + _responses_cached(usage)
            usage["input_tokens"] += cached
            if isinstance(usage.get("total_tokens"), int):  # the total stays the sum it claims to be
                usage["total_tokens"] += cached
            changed = changed or bool(cached)
    return changed


def _frame_rewritten(frame: str, names: set[str]) -> str:
    head, found, data = frame.rpartition("data:")
    if not found:
        return frame
    end = "\r\n\r\n" if frame.endswith("\r\n\r\n") else "\n\n"
    try:
        payload = json.loads(data)
    except ValueError:
        return frame
    if not _usage_rewritten(payload, names):
        return frame
    return f"{head}data: {json.dumps(payload, ensure_ascii=False, separators=(',', ':'))}{end}"


async def _frames_rewritten(frames: AsyncIterator[Any], names: set[str]) -> AsyncIterator[str]:
    async for frame in frames:
        yield _frame_rewritten(frame.decode() if isinstance(frame, bytes) else frame, names)


def _json_answer(answer: Response, data: Any) -> JSONResponse:
    kept = {name: value for name, value in answer.headers.items() if name not in ("content-length", "content-type")}
    return JSONResponse(data, answer.status_code, headers=kept)


def rewrite(names: set[str], path: str, request_body: dict[str, Any], answer: Response) -> Response:
    """`answer` with the active report quirks (`names`) applied."""
    if "no-retry-after" in names and answer.status_code == 429:
        for header in RETRY_HEADERS:
            if header in answer.headers:
                del answer.headers[header]
    if isinstance(answer, StreamingResponse):
        if names & {"thoughts-outside-total", "cache-in-input"} and answer.status_code < 400:
            answer.body_iterator = _frames_rewritten(answer.body_iterator, names)
        return answer
    if not isinstance(answer, JSONResponse):
        return answer
    data = json.loads(bytes(answer.body))
    if "flat-errors" in names and answer.status_code >= 400:
        return _json_answer(answer, _flat_error(data, answer.status_code))
    if "count-skips-tools" in names and path.endswith("/messages/count_tokens") and answer.status_code == 200 and request_body.get("tools"):
        return _json_answer(answer, _count_without_tools(request_body))
    if answer.status_code == 200 and _usage_rewritten(data, names):
        return _json_answer(answer, data)
    return answer


def with_report_quirks(endpoint: Endpoint, active: Callable[[str, dict[str, Any]], set[str]]) -> Endpoint:
    """`endpoint` whose answers pass through `rewrite`; `active(path, body)` names the quirks on."""
    async def quirky(request: Request) -> Response:
        answer = await endpoint(request)
        try:
            body = json.loads(await request.body() or b"{}")
        except ValueError:
            body = {}
        body = body if isinstance(body, dict) else {}
        names = active(request.url.path, body) & set(REPORT_QUIRKS)
        return rewrite(names, request.url.path, body, answer) if names else answer

    return quirky
