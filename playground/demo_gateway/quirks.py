"""Quirks: the demo gateway misbehaving on purpose, the way real gateways do, so the Report tab
has failing cells to show (`DEMO_QUIRKS=no-done,drop-usage,...`, `DemoConfig.quirks`).

A quirk is `NAME` (every model) or `NAME@MODEL` (that model only):

| name             | effect                                                                 |
|------------------|------------------------------------------------------------------------|
| no-done          | chat completion streams end without `data: [DONE]`                    |
| drop-usage       | streams carry no usage (chat usage chunk, response.usage, message usage, usageMetadata) |
| slow-first-token | a stream waits `DemoConfig.slow_first_token_s` before its first event |
| ignore-schema    | chat `response_format` (JSON schema output) is ignored: a plain text answer |
| ignore-system    | the system prompt is ignored                                           |
| ignore-stop      | stop sequences are ignored (messages `stop_sequences`, native `generationConfig.stopSequences`) |
| stream-usage-off | a stream's usage counts 3 more output tokens than the same whole answer's |
| ignore-tool-choice-none | `tool_choice` none (responses, messages) / mode NONE (native) is read as auto |
| drop-argument-delta | a streamed chat tool call loses its first arguments delta (the pieces no longer join into JSON) |
| schema-drift     | a JSON-schema answer gives its number fields as strings                |
| double-finish    | a chat stream sends its finish chunk twice                             |
| ignore-parallel-off | parallel calls stay on when turned off (responses `parallel_tool_calls` false, messages `disable_parallel_tool_use`) |

This module also owns the one system-prompt rule the demo honours (every format): a system
prompt containing `Start every answer with the word "WORD".` puts WORD at the start of the
demo's answer (`starting_word`, read by `text.reply_text`), so a report can see the system prompt
was read.

The quirks of the Report's error and accounting checks (`flat-errors`, `no-retry-after`,
`count-skips-tools`, `thoughts-outside-total`, `cache-in-input`) are drawn in `report_quirks`.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from starlette.responses import Response, StreamingResponse

from playground.demo_gateway.report_quirks import REPORT_QUIRKS

QUIRKS = ("no-done", "drop-usage", "slow-first-token", "ignore-schema", "ignore-system", "ignore-stop", "stream-usage-off",
          "ignore-tool-choice-none", "drop-argument-delta", "schema-drift", "ignore-parallel-off",
          "double-finish")
STREAM_QUIRKS = frozenset({"no-done", "drop-usage", "slow-first-token", "stream-usage-off", "drop-argument-delta", "double-finish"})
EXTRA_OUTPUT_TOKENS = 3
"""What `stream-usage-off` adds to a stream's output (and total) token counts."""
OUTPUT_COUNTS = ("completion_tokens", "output_tokens", "candidatesTokenCount", "total_tokens", "totalTokenCount")
DIRECTIVE = re.compile(r'Start every answer with the word "([^"]{1,40})"')
SYSTEM_FIELDS = ("instructions", "system", "systemInstruction", "system_instruction")
CHAT_PATH = "/chat/completions"


@dataclass(frozen=True)
class Quirk:
    name: str
    model: str | None = None


def parse_quirks(text: str | tuple[str, ...] | list[str] | None) -> tuple[Quirk, ...]:
    """`"no-done,ignore-schema@gpt-4.1"` -> quirks; an unknown name raises ValueError naming it."""
    items = text.split(",") if isinstance(text, str) else list(text or ())
    quirks = []
    for item in (i.strip() for i in items):
        if not item:
            continue
        name, _, model = item.partition("@")
        if name not in (*QUIRKS, *REPORT_QUIRKS):
            raise ValueError(f"unknown demo quirk {name!r} (DEMO_QUIRKS takes: {', '.join((*QUIRKS, *REPORT_QUIRKS))})")
        quirks.append(Quirk(name, model.strip() or None))
    return tuple(quirks)


def _model_of(path: str, body: dict[str, Any]) -> str:
    if isinstance(body.get("model"), str):
        return body["model"]
    target = path.rsplit("/", 1)[-1]
    return target.rpartition(":")[0] or target


def active(quirks: tuple[Quirk, ...], path: str, body: dict[str, Any]) -> set[str]:
    model = _model_of(path, body)
    return {q.name for q in quirks if q.model is None or q.model == model}


def _system_text(body: dict[str, Any]) -> str:
    texts = [m.get("content") for m in body.get("messages") or [] if isinstance(m, dict) and m.get("role") in ("system", "developer")]
    for name in SYSTEM_FIELDS:
        value = body.get(name)
        if isinstance(value, list):
            texts += [b.get("text") for b in value if isinstance(b, dict)]
        elif isinstance(value, dict):
            texts += [p.get("text") for p in value.get("parts") or [] if isinstance(p, dict)]
        else:
            texts.append(value)
    return " ".join(t for t in texts if isinstance(t, str))


def on_request(quirks: tuple[Quirk, ...], path: str, body: dict[str, Any]) -> dict[str, Any]:
    """The body as the demo reads it: quirks that ignore fields, then the system-prompt rule."""
    names = active(quirks, path, body)
    if "ignore-schema" in names and path.endswith(CHAT_PATH):  # images' own response_format (url / b64_json) stays read
        body.pop("response_format", None)
    if "ignore-stop" in names:
        body.pop("stop_sequences", None)
        if isinstance(body.get("generationConfig"), dict):
            body["generationConfig"].pop("stopSequences", None)
    if "ignore-tool-choice-none" in names:
        _tool_choice_none_as_auto(body)
    if "schema-drift" in names:
        _drift(body)
    if "ignore-parallel-off" in names:
        body.pop("parallel_tool_calls", None)
        if isinstance(body.get("tool_choice"), dict):
            body["tool_choice"].pop("disable_parallel_tool_use", None)
    if "ignore-system" in names:
        for name in SYSTEM_FIELDS:
            body.pop(name, None)
        if isinstance(body.get("messages"), list):
            body["messages"] = [m for m in body["messages"] if not (isinstance(m, dict) and m.get("role") in ("system", "developer"))]
    return body


def _tool_choice_none_as_auto(body: dict[str, Any]) -> None:
    choice = body.get("tool_choice")
    if choice == "none":
        body["tool_choice"] = "auto"
    elif isinstance(choice, dict) and choice.get("type") == "none":
        body["tool_choice"] = {**choice, "type": "auto"}
    calling = (body.get("toolConfig") or {}).get("functionCallingConfig")
    if isinstance(calling, dict) and calling.get("mode") == "NONE":
        calling["mode"] = "AUTO"


def _drift(body: dict[str, Any]) -> None:
    """The chat JSON schema read with its integer and number properties as strings."""
    form = body.get("response_format")
    schema = form.get("json_schema") if isinstance(form, dict) else None
    schema = schema.get("schema") if isinstance(schema, dict) else None
    if isinstance(schema, dict) and isinstance(schema.get("properties"), dict):
        schema["properties"] = {name: {**value, "type": "string"} if isinstance(value, dict) and value.get("type") in ("integer", "number") else value
                                for name, value in schema["properties"].items()}


def starting_word(body: dict[str, Any]) -> str | None:
    """The WORD of a system prompt's `Start every answer with the word "WORD".`, if it has one."""
    match = DIRECTIVE.search(_system_text(body))
    return match[1] if match else None


def _without_usage(frame: str) -> str | None:
    """The frame with its usage removed; None when nothing else was in it."""
    head, _, data = frame.rpartition("data:")
    try:
        payload = json.loads(data)
    except ValueError:
        return frame
    if not isinstance(payload, dict):
        return frame
    had = False
    for holder in (payload, payload.get("message"), payload.get("response")):
        if isinstance(holder, dict):
            for key in ("usage", "usageMetadata"):
                had = holder.pop(key, None) is not None or had
    if not had:
        return frame
    if payload.get("choices") == [] or not {"candidates", "type", "choices"} & payload.keys():
        return None
    end = "\r\n\r\n" if frame.endswith("\r\n\r\n") else "\n\n"
    return f"{head}data: {json.dumps(payload, separators=(',', ':'))}{end}"


def _payload(frame: str) -> tuple[str, dict[str, Any]] | None:
    """(what comes before `data:`, the JSON object after it) of an SSE frame, or None."""
    head, _, data = frame.rpartition("data:")
    try:
        payload = json.loads(data)
    except ValueError:
        return None
    return (head, payload) if isinstance(payload, dict) else None


def _framed(head: str, payload: dict[str, Any], frame: str) -> str:
    end = "\r\n\r\n" if frame.endswith("\r\n\r\n") else "\n\n"
    return f"{head}data: {json.dumps(payload, separators=(',', ':'))}{end}"


def _more_output(frame: str) -> str:
    """The frame with its usage counting `EXTRA_OUTPUT_TOKENS` more output tokens."""
    parsed = _payload(frame)
    if parsed is None:
        return frame
    head, payload = parsed
    changed = False
    for holder in (payload, payload.get("message"), payload.get("response")):
        usage = holder.get("usage") or holder.get("usageMetadata") if isinstance(holder, dict) else None
        if isinstance(usage, dict):
            for key in OUTPUT_COUNTS:
                if isinstance(usage.get(key), int):
                    usage[key] += EXTRA_OUTPUT_TOKENS
                    changed = True
    return _framed(head, payload, frame) if changed else frame


def _first_arguments_delta(frame: str) -> bool:
    """Whether the frame is a chat chunk carrying a non-empty tool-call arguments piece."""
    parsed = _payload(frame)
    choices = parsed[1].get("choices") if parsed else None
    return isinstance(choices, list) and any(
        isinstance(call, dict) and (call.get("function") or {}).get("arguments")
        for choice in choices if isinstance(choice, dict) for call in (choice.get("delta") or {}).get("tool_calls") or [])


async def _quirky(frames: AsyncIterator[Any], names: set[str], first_token_delay: float) -> AsyncIterator[Any]:
    first = True
    arguments_dropped = False
    async for frame in frames:
        text = frame.decode() if isinstance(frame, bytes) else frame
        if first and "slow-first-token" in names and text.strip() and not text.startswith(":"):
            await asyncio.sleep(first_token_delay)
            first = False
        if "no-done" in names and text.strip() == "data: [DONE]":
            continue
        if "drop-usage" in names and ("usage" in text or "usageMetadata" in text):
            text = _without_usage(text)
            if text is None:
                continue
        if "stream-usage-off" in names and ("usage" in text or "usageMetadata" in text):
            text = _more_output(text)
        if "drop-argument-delta" in names and not arguments_dropped and '"tool_calls"' in text and _first_arguments_delta(text):
            arguments_dropped = True
            continue
        yield text
        if "double-finish" in names and '"finish_reason":"' in text.replace(" ", "") and '"chat.completion.chunk"' in text:
            yield text


def on_answer(quirks: tuple[Quirk, ...], path: str, body: dict[str, Any], answer: Response, first_token_delay: float) -> Response:
    """A streamed answer passed through the stream quirks (whole answers are left alone)."""
    names = active(quirks, path, body) & STREAM_QUIRKS
    if names and isinstance(answer, StreamingResponse):
        answer.body_iterator = _quirky(answer.body_iterator, names, first_token_delay)
    return answer
