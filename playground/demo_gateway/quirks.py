"""Quirks: the demo gateway misbehaving on purpose, the way real gateways do, so the Report tab
has failing cells to show (`DEMO_QUIRKS=no-done,drop-usage,...`, `DemoConfig.quirks`).

A quirk is `NAME` (every model) or `NAME@MODEL` (that model only):

| name             | effect                                                                 |
|------------------|------------------------------------------------------------------------|
| no-done          | chat completion streams end without `data: [DONE]`                    |
| drop-usage       | streams carry no usage (chat usage chunk, response.usage, message usage, usageMetadata) |
| slow-first-token | a stream waits `DemoConfig.slow_first_token_s` before its first event |
| ignore-schema    | `response_format` (JSON schema output) is ignored: a plain text answer |
| ignore-system    | the system prompt is ignored                                           |

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

QUIRKS = ("no-done", "drop-usage", "slow-first-token", "ignore-schema", "ignore-system")
DIRECTIVE = re.compile(r'Start every answer with the word "([^"]{1,40})"')
SYSTEM_FIELDS = ("instructions", "system", "systemInstruction", "system_instruction")


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
    if "ignore-schema" in names:
        body.pop("response_format", None)
    if "ignore-system" in names:
        for name in SYSTEM_FIELDS:
            body.pop(name, None)
        if isinstance(body.get("messages"), list):
            body["messages"] = [m for m in body["messages"] if not (isinstance(m, dict) and m.get("role") in ("system", "developer"))]
    return body


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


async def _quirky(frames: AsyncIterator[Any], names: set[str], first_token_delay: float) -> AsyncIterator[Any]:
    first = True
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
        yield text


def on_answer(quirks: tuple[Quirk, ...], path: str, body: dict[str, Any], answer: Response, first_token_delay: float) -> Response:
    """A streamed answer passed through the stream quirks (whole answers are left alone)."""
    names = active(quirks, path, body) & {"no-done", "drop-usage", "slow-first-token"}
    if names and isinstance(answer, StreamingResponse):
        answer.body_iterator = _quirky(answer.body_iterator, names, first_token_delay)
    return answer
