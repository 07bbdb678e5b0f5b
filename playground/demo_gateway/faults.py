"""Deterministic fault injection.

A fault is named per request by the header `x-demo-fault`, by `[[fault:NAME]]` inside the
last user message (handy from the UI), or for every request by `DemoConfig.fault`.

| name            | effect                                                               |
|-----------------|----------------------------------------------------------------------|
| rate_limit[:N]  | the first N attempts of the same request get 429 + Retry-After (N=1) |
| rate_limit_long | 429 asking to wait 120 s (longer than a client should wait)          |
| html_error      | 502 with an HTML error page, as a proxy in front of a gateway sends  |
| body_truncated, body_html, body_sse, body_error, body_shape, body_empty | a non-streaming success answer that is cut JSON, an HTML page, an event stream, an error object, JSON of another shape, or empty |
| body_envelope   | a non-streaming HTTP 200 whose body is an error envelope `{"code": 500, "msg", "data": null}` (some gateways wrap errors so) |
| body_stall      | a non-streaming answer whose headers and first half arrive, then nothing for `stall_seconds` |
| server_error[:N]| the first N attempts get 500                                         |
| unavailable[:N] | the first N attempts get 503                                         |
| cut             | the stream is cut (connection closed) after a few events             |
| stall           | the stream goes silent after a few events (for `stall_seconds`)      |
| malformed       | a few events in, an event whose data is not JSON                     |
| stream_error    | a few events in, an in-stream error event, then the stream ends      |
| echo_key        | the answer text (and reasoning) repeats the key the caller sent      |
| echo_key_error  | like stream_error (or body_error for a whole answer), the error message repeating the key |
| poll_errors[:N] | video: the first N queries of the task get 503                       |
| corrupt_base64  | video (vidA): the download's base64 has stray characters            |
| not_mp4         | video (vidA): the download decodes to bytes that are not an MP4      |
| bad_size        | video (vidA): the download's `size` does not match its base64        |
| cut_download    | video: the download or file is cut off halfway                       |

Video faults are named in the prompt at submit time and act later, on that task.
Faults named `break_<rule>` break one rule of a stream's protocol (see `protocol_faults`).

"The same request" means the same body bytes, so a client retry sees the next attempt.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from starlette.responses import JSONResponse, Response, StreamingResponse

from playground.demo_gateway.protocol_faults import PROTOCOL_FAULTS, break_protocol
from playground.demo_gateway.text import ECHOED_KEY

STATUS_FAULTS = {"rate_limit": 429, "rate_limit_long": 429, "server_error": 500, "unavailable": 503}
LONG_RETRY_AFTER_S = 120
BODY_FAULTS = frozenset({"body_truncated", "body_html", "body_sse", "body_error", "body_shape", "body_empty", "body_envelope", "body_stall", "html_error"})
HTML_PAGE = ("<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1>"
             "<p>The proxy could not reach the gateway. <script>alert('x')</script></p></body></html>")
STREAM_FAULTS = frozenset({"cut", "stall", "malformed", "stream_error", "echo_key_error"})
ECHO_FAULTS = frozenset({"echo_key", "echo_key_error"})
VIDEO_FAULTS = frozenset({"poll_errors", "corrupt_base64", "not_mp4", "bad_size", "cut_download"})
EVENTS_BEFORE_STREAM_FAULT = 4
_MARKER = re.compile(r"\[\[fault:([a-z][a-z0-9_]*(?::\d+)?)\]\]")


@dataclass(frozen=True)
class Fault:
    name: str
    count: int = 1


def parse_fault(text: str | None) -> Fault | None:
    if not text:
        return None
    name, _, count = text.strip().partition(":")
    if not any(name in names for names in (STATUS_FAULTS, STREAM_FAULTS, VIDEO_FAULTS, PROTOCOL_FAULTS, BODY_FAULTS, ECHO_FAULTS)):
        return None
    return Fault(name, int(count) if count.isdigit() else 1)


def marker_in(text: str) -> str | None:
    match = _MARKER.search(text)
    return match.group(1) if match else None


def strip_markers(text: str) -> str:
    return _MARKER.sub("", text).strip()


class FaultInjector:
    """Decides, per request, whether a fault applies; counts attempts of identical requests."""

    def __init__(self) -> None:
        self._attempts: Counter[str] = Counter()

    def status_fault(self, fault: Fault | None, raw_body: bytes) -> int | None:
        """The error status to answer with now, or None to serve the request."""
        if fault is None or fault.name not in STATUS_FAULTS:
            return None
        key = f"{fault.name}:{hashlib.sha256(raw_body).hexdigest()}"
        self._attempts[key] += 1
        return STATUS_FAULTS[fault.name] if self._attempts[key] <= fault.count else None


def last_user_text(messages: Any) -> str:
    """Text of the last user message in an OpenAI- or messages-style list (string or parts)."""
    if not isinstance(messages, list):
        return ""
    for message in reversed(messages):
        if isinstance(message, dict) and message.get("role") == "user":
            content = message.get("content")
            if isinstance(content, str):
                return content
            if isinstance(content, list):
                return " ".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
            return ""
    return ""


def prompt_text(body: dict[str, Any]) -> str:
    """The text a person typed: the last user message, a video prompt, vidD's text item, or the texts to embed."""
    text = last_user_text(body.get("messages"))
    if text:
        return text
    contents = body.get("contents")
    if isinstance(contents, list) and contents and isinstance(contents[-1], dict):
        return " ".join(str(p.get("text", "")) for p in contents[-1].get("parts") or [] if isinstance(p, dict))
    if isinstance(body.get("input"), str):
        return body["input"]
    if isinstance(body.get("input"), list) and all(isinstance(text, str) for text in body["input"]):
        return " ".join(body["input"])
    requests = body.get("requests") if isinstance(body.get("requests"), list) else [body]
    texts = [str(part.get("text", "")) for request in requests if isinstance(request, dict) and isinstance(request.get("content"), dict)
             for part in request["content"].get("parts") or [] if isinstance(part, dict)]
    if texts:
        return " ".join(texts)
    text = last_user_text(body.get("input"))
    if text:
        return text
    if isinstance(body.get("prompt"), str):
        return body["prompt"]
    metadata = body.get("metadata")
    content = metadata.get("content") if isinstance(metadata, dict) else None
    if isinstance(content, list):
        return " ".join(str(item.get("text", "")) for item in content if isinstance(item, dict) and item.get("type") == "text")
    return ""


async def inject_stream_fault(events: Any, fault: Fault | None, stall_seconds: float, error_event: str) -> Any:
    """Pass `events` (SSE text frames) through, breaking the stream as `fault` says."""
    if fault is not None and fault.name in PROTOCOL_FAULTS:
        async for frame in break_protocol(events, fault.name):
            yield frame
        return
    sent = 0
    async for frame in events:
        if fault is not None and fault.name in STREAM_FAULTS and sent == EVENTS_BEFORE_STREAM_FAULT:
            if fault.name == "cut":
                raise ConnectionAbortedError("demo fault: connection cut mid-stream")
            if fault.name == "stall":
                await asyncio.sleep(stall_seconds)
            elif fault.name == "malformed":
                yield "data: {this is not json\n\n"
                return
            elif fault.name == "stream_error":
                yield error_event
                return
            elif fault.name == "echo_key_error":
                yield error_event.replace("(demo fault)", f"(demo fault; the request had Authorization: Bearer {ECHOED_KEY.get()})")
                return
        yield frame
        sent += 1


def broken_body(fault: Fault | None, answer: Any, stall_seconds: float = 0.0) -> Any:
    """Replace a whole JSON success answer as a `body_*` fault says (streams are left alone)."""
    if fault is not None and fault.name == "echo_key_error" and isinstance(answer, JSONResponse):
        return JSONResponse({"error": {"message": f"Upstream refused Authorization: Bearer {ECHOED_KEY.get()} (demo fault).",
                                       "type": "upstream_error"}})
    if fault is None or fault.name not in BODY_FAULTS or fault.name == "html_error":
        return answer
    if not isinstance(answer, JSONResponse):
        return answer
    if fault.name == "body_stall":
        body = bytes(answer.body)

        async def stalled() -> Any:
            yield body[: len(body) // 2]
            await asyncio.sleep(stall_seconds)
            yield body[len(body) // 2:]

        return StreamingResponse(stalled(), media_type="application/json")
    if fault.name == "body_truncated":
        return Response(bytes(answer.body)[: max(len(answer.body) // 2, 1)], media_type="application/json")
    if fault.name == "body_html":
        return Response(HTML_PAGE, media_type="text/html")
    if fault.name == "body_sse":
        return Response(b"data: " + bytes(answer.body) + b"\n\n", media_type="text/event-stream")
    if fault.name == "body_error":
        return JSONResponse({"error": {"message": "The upstream model failed (demo fault).", "type": "upstream_error"}})
    if fault.name == "body_envelope":
        return JSONResponse({"code": 500, "msg": "The upstream model is overloaded (demo fault).", "data": None})
    if fault.name == "body_shape":
        return JSONResponse({"result": "ok", "items": [1, 2, 3]})
    return Response(b"", media_type="application/json")
