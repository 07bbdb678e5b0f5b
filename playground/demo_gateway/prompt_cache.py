"""Prompt caching for the messages format, as the spec's Limits describe, and the automatic
caching the demo does for the responses format (`automatic_units`).

The prompt is a sequence of units (tool definitions, system blocks, message blocks, in that
order). A `cache_control` on a unit is a breakpoint; the prefix up to it is cached when it holds
at least the model's minimum (1024 tokens; 2048 for the small `haiku` model), for 5 minutes
(`ephemeral`) or 1 hour (`persistent`). A later request whose prefix matches exactly reads it
(and refreshes its lifetime). `cache_control` at the top level marks the last unit.

The responses format has no `cache_control`; its usage reports `input_tokens_details.cached_tokens`
(part of `input_tokens`). The demo caches it as the vendors of that format do, without being asked:
every input item ends a cacheable prefix (same minimum, 5 minutes), so the same long input sent
again reads the longest prefix it has seen.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from playground.demo_gateway.common import count_tokens

IMAGE_TOKENS = 1000
TTL_SECONDS = {"ephemeral": 300.0, "persistent": 3600.0}


def cache_minimum(model: str) -> int:
    return 2048 if "haiku" in model else 1024


@dataclass(frozen=True)
class Unit:
    key: str
    tokens: int
    cache: str | None


def _without_cache_control(block: Any) -> Any:
    if isinstance(block, dict):
        return {k: v for k, v in block.items() if k != "cache_control"}
    return block


def _block_tokens(block: dict[str, Any]) -> int:
    kind = block.get("type")
    if kind == "text":
        return count_tokens(str(block.get("text", "")))
    if kind == "image":
        return IMAGE_TOKENS
    if kind == "tool_use":
        return count_tokens(str(block.get("name", ""))) + count_tokens(json.dumps(block.get("input") or {}))
    if kind == "tool_result":
        content = block.get("content")
        if isinstance(content, list):
            return sum(_block_tokens(part) for part in content if isinstance(part, dict))
        return count_tokens(str(content or ""))
    if kind == "thinking":
        return count_tokens(str(block.get("thinking", "")))
    return count_tokens(json.dumps(block))


def _unit(prefix: str, block: Any, tokens: int) -> Unit:
    cache = block.get("cache_control", {}).get("type", "ephemeral") if isinstance(block, dict) and block.get("cache_control") else None
    return Unit(prefix + json.dumps(_without_cache_control(block), sort_keys=True), tokens, cache)


def prompt_units(body: dict[str, Any]) -> list[Unit]:
    """Tools, system and messages as units. Used for count_tokens and usage alike."""
    units = [_unit("tool:", tool, count_tokens(json.dumps(_without_cache_control(tool), sort_keys=True))) for tool in body.get("tools") or []]
    system = body.get("system")
    if isinstance(system, str) and system:
        units.append(Unit("system:" + system, count_tokens(system), None))
    elif isinstance(system, list):
        units += [_unit("system:", block, _block_tokens(block)) for block in system if isinstance(block, dict)]
    for message in body.get("messages") or []:
        role = message.get("role", "")
        content = message.get("content")
        if isinstance(content, str):
            units.append(Unit(f"{role}:{content}", count_tokens(content), None))
        elif isinstance(content, list):
            units += [_unit(f"{role}:", block, _block_tokens(block)) for block in content if isinstance(block, dict)]
    top = body.get("cache_control")
    if isinstance(top, dict) and units:
        last = units[-1]
        units[-1] = Unit(last.key, last.tokens, top.get("type", "ephemeral"))
    return units


def automatic_units(pieces: list[tuple[str, int]]) -> list[Unit]:
    """Units of a prompt cached without breakpoints: (what a piece is, its tokens), each piece a breakpoint."""
    return [Unit(key, tokens, "ephemeral") for key, tokens in pieces]


@dataclass(frozen=True)
class CacheOutcome:
    input_tokens: int
    cache_creation_input_tokens: int
    cache_read_input_tokens: int


class PromptCache:
    def __init__(self, clock: Callable[[], float]) -> None:
        self._clock = clock
        self._expiry: dict[str, float] = {}

    def apply(self, model: str, units: list[Unit]) -> CacheOutcome:
        total = sum(unit.tokens for unit in units)
        now = self._clock()
        prefix_tokens, hashes = [], []
        digest = hashlib.sha256(model.encode())
        running = 0
        for unit in units:
            digest.update(unit.key.encode())
            hashes.append(digest.copy().hexdigest())
            running += unit.tokens
            prefix_tokens.append(running)
        breakpoints = [i for i, unit in enumerate(units) if unit.cache]
        read, hit = 0, -1
        for index in reversed(breakpoints):
            if self._expiry.get(hashes[index], 0.0) > now:
                read, hit = prefix_tokens[index], index
                self._expiry[hashes[index]] = now + TTL_SECONDS[units[index].cache or "ephemeral"]
                break
        written = read
        for index in breakpoints:
            if index > hit and prefix_tokens[index] >= cache_minimum(model):
                self._expiry[hashes[index]] = now + TTL_SECONDS[units[index].cache or "ephemeral"]
                written = prefix_tokens[index]
        creation = written - read
        return CacheOutcome(total - read - creation, creation, read)
