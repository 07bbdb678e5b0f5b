"""The metrics line under a reply: time to first token (or total), tokens per second, token
counts, the finish reason in words, its cost from the session's price table, retries, and whether
the reply is incomplete."""

from __future__ import annotations

from playground.client.batch.cost import Price
from playground.client.results import TextResult
from playground.client.transport import Exchange
from playground.ui.i18n import say
from playground.ui.shared.prices import cost_text

FINISH_WORDS = {"SAFETY": "finish.SAFETY", "MAX_TOKENS": "finish.MAX_TOKENS", "length": "finish.MAX_TOKENS",
                "max_output_tokens": "finish.MAX_TOKENS", "RECITATION": "finish.RECITATION", "PROHIBITED_CONTENT": "finish.PROHIBITED_CONTENT",
                "stop": "finish.complete", "STOP": "finish.complete", "end_turn": "finish.complete", "completed": "finish.complete",
                "stop_sequence": "finish.stop_sequence", "tool_calls": "finish.tool", "tool_use": "finish.tool"}
"""Finish reasons explained in words: the catalogue key of each."""


def metrics_text(result: TextResult, exchange: Exchange | None, prices: dict[str, Price] | None = None) -> str:
    """The line under a reply; its cost from `prices` (the session's table; none: no cost)."""
    parts = []
    if not result.streamed:
        total = result.finished_at if result.finished_at is not None else (exchange.finished_at if exchange else None)
        parts.append(say("metrics.total", ms=f"{total * 1000:.0f}") if total is not None else say("metrics.not_streamed"))
    elif result.first_token_at is not None:
        parts.append(say("metrics.first_token", ms=f"{result.first_token_at * 1000:.0f}"))
    rate = result.tokens_per_second()
    if rate is not None:
        parts.append(say("metrics.rate", rate=f"{rate:.1f}"))
    usage = result.usage
    if usage:
        known = {name: "?" if value is None else value for name, value in (("input", usage.input_tokens), ("output", usage.output_tokens))}
        tokens = say("metrics.tokens", **known)
        if usage.reasoning_tokens:
            tokens += say("metrics.reasoning", count=usage.reasoning_tokens)
        if usage.cache_creation_tokens:
            tokens += say("metrics.cache_write", count=usage.cache_creation_tokens)
        if usage.cached_tokens:
            tokens += say("metrics.cache_read", count=usage.cached_tokens)
        parts.append(tokens)
    if result.finish_reason:
        explained = say(FINISH_WORDS[result.finish_reason]) if result.finish_reason in FINISH_WORDS else ""
        parts.append(say("metrics.finish", reason=result.finish_reason) + (f" ({explained})" if explained else ""))
    if usage and usage.reasoning_tokens and not result.reasoning and result.streamed:
        parts.append(say("metrics.reasoning_hidden"))
    if cost := cost_text(result, exchange, prices or {}):
        parts.append(cost)
    if exchange is not None and exchange.attempts > 1:
        parts.append(say("metrics.attempts", count=exchange.attempts))
    if not result.complete:
        parts.append(say("metrics.incomplete"))
    return " · ".join(parts)
