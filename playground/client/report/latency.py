"""Latency: p50/p95 of time to first token and tokens/s per (format, model) over the streamed
probes, and the load run: streamed requests at rising concurrency (1, 2, 4, ... N), each step's
TTFT percentiles, rate and errors (429 / 5xx / cut streams / timeouts / other), stopping at
the first step above the error rate the user set. Local mode only."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from playground.client.errors import APIStatusError, APITimeoutError, GatewayError, StreamError
from playground.client.gateway import GatewayClient
from playground.client.intent import Intent, to_request
from playground.client.report.model import TEXT_FORMATS, LoadRun, LoadStep, Report
from playground.client.report.probe import one_attempt
from playground.client.stats import percentile
from playground.client.transport import Connection
from playground.client.texts import Text

ERROR_KINDS = ("429", "5xx", "cut stream", "timeout", "other")
HOSTED_REFUSAL = Text("report.load.off_when_hosted")
LOAD_PROMPT = "Write three sentences about lighthouses."


class LoadRunRefused(GatewayError):
    title = Text("report.load.not_available")
    hint = ""


def latency_rows(report: Report) -> list[dict[str, Any]]:
    """Per (format, model) with streamed probes: count, TTFT p50/p95 (s), tokens/s p50/p95."""
    grouped: dict[tuple[str, str], list[Any]] = {}
    for result in report.results:
        grouped.setdefault((result.format, result.model), []).extend(result.timings)
    rows = []
    for (fmt, model), timings in grouped.items():
        if not timings:
            continue
        ttfts = [t.ttft_s for t in timings if t.ttft_s is not None]
        rates = [t.tokens_per_s for t in timings if t.tokens_per_s is not None]
        rows.append({"format": fmt, "model": model, "streams": len(timings), "ttft_p50_s": percentile(ttfts, 0.5), "ttft_p95_s": percentile(ttfts, 0.95),
                     "tokens_per_s_p50": percentile(rates, 0.5), "tokens_per_s_p95": percentile(rates, 0.95)})
    return rows


MOVE_SHARE, MOVE_MIN_S = 0.2, 0.05
"""A median time to first token "moved" when it changed by at least 20% and at least 50 ms."""


@dataclass(frozen=True)
class LatencyMove:
    format: str
    model: str
    before_s: float
    after_s: float


def latency_moves(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> list[LatencyMove]:
    """The (format, model) rows of two reports' latency whose TTFT p50 moved (`MOVE_SHARE`, `MOVE_MIN_S`)."""
    old = {(row["format"], row["model"]): row["ttft_p50_s"] for row in before}
    moves = []
    for row in after:
        then, now = old.get((row["format"], row["model"])), row["ttft_p50_s"]
        if then is not None and now is not None and abs(now - then) >= max(MOVE_MIN_S, MOVE_SHARE * then):
            moves.append(LatencyMove(row["format"], row["model"], then, now))
    return moves


def concurrency_steps(maximum: int) -> list[int]:
    """1, 2, 4, ... up to `maximum`, which is always the last step."""
    steps, value = [], 1
    while value < maximum:
        steps.append(value)
        value *= 2
    return steps + [max(1, maximum)]


def error_kind(error: BaseException) -> str:
    if isinstance(error, APIStatusError):
        return "429" if error.status == 429 else "5xx" if error.status >= 500 else "other"
    if isinstance(error, APITimeoutError):
        return "timeout"
    if isinstance(error, StreamError) or "cut" in str(error).lower():
        return "cut stream"
    return "other"


async def _one(client: GatewayClient, conn: Connection, request: Any, fmt: str) -> tuple[float | None, float | None, str | None]:
    stream = getattr(client, fmt).stream(conn, request)
    try:
        async with stream:
            async for _ in stream:
                pass
    except GatewayError as error:
        return None, None, error_kind(error)
    return stream.result.first_token_at, stream.result.tokens_per_second(), None


async def load_run(client: GatewayClient, conn: Connection, fmt: str, model: str, *, max_concurrency: int = 8, rounds: int = 2,
                   stop_error_rate: float = 0.5, hosted: bool = False, prompt: str = LOAD_PROMPT) -> AsyncIterator[LoadRun]:
    """Yield the run after each step. Each step sends `rounds` x concurrency identical streamed requests,
    concurrency at once; no retries. Refused in hosted mode (`LoadRunRefused`, saying why)."""
    if hosted:
        raise LoadRunRefused(HOSTED_REFUSAL)
    if fmt not in TEXT_FORMATS:
        raise LoadRunRefused(Text("report.load.text_formats_only", format=fmt))
    request = to_request(Intent(prompt), fmt, model).request
    client = one_attempt(client)
    run = LoadRun(fmt, model)
    for concurrency in concurrency_steps(max(1, int(max_concurrency))):
        started = time.perf_counter()
        gate = asyncio.Semaphore(concurrency)

        async def limited(gate: asyncio.Semaphore) -> tuple[float | None, float | None, str | None]:
            async with gate:
                return await _one(client, conn, request, fmt)

        outcomes = await asyncio.gather(*(limited(gate) for _ in range(concurrency * max(1, rounds))))
        errors = dict.fromkeys(ERROR_KINDS, 0)
        for _, _, kind in outcomes:
            if kind:
                errors[kind] += 1
        ttfts = [t for t, _, k in outcomes if t is not None and not k]
        rates = [r for _, r, k in outcomes if r is not None and not k]
        step = LoadStep(concurrency, len(outcomes), percentile(ttfts, 0.5), percentile(ttfts, 0.95),
                        percentile(rates, 0.5), errors, time.perf_counter() - started)
        run.steps.append(step)
        if step.error_rate > stop_error_rate:
            run.stopped_because = Text("report.load.stopped", concurrency=concurrency, error_rate=step.error_rate, limit=stop_error_rate)
            yield run
            return
        yield run
