"""Parallel tool calls in the demo: a prompt that asks for a tool "for each of A, B and C" gets one
call per item (at most `MAX_CALLS`), unless the request turned parallel calls off (responses
`parallel_tool_calls` false, messages `tool_choice.disable_parallel_tool_use` true): then one."""

from __future__ import annotations

import re

EACH = re.compile(r"\bfor each of ([^.?!]+)", re.IGNORECASE)
MAX_CALLS = 4


def call_prompts(prompt: str, parallel: bool = True) -> list[str]:
    """The prompt each call's arguments are read from: one per item of "for each of ...", else the prompt."""
    match = EACH.search(prompt)
    items = [item.strip() for item in re.split(r",|\band\b", match[1]) if item.strip()] if match else []
    if len(items) < 2:
        return [prompt]
    return items[:MAX_CALLS] if parallel else items[:1]
