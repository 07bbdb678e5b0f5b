"""What a probe works with: `Probe` (the client, the connection, the cell, and the exchanges it
recorded), the verdicts it raises (`Fail`, `Skip`), and call helpers over the existing client.

Probes never retry: the report uses the shared client through a view whose transport makes one
attempt per call (a report measures the gateway; a paid request is never sent twice).
"""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from playground.client.errors import APIStatusError, GatewayError, IncompleteStreamError
from playground.client.exchange import Exchange
from playground.client.gateway import GatewayClient
from playground.client.intent import Intent, to_request
from playground.client.limits import LimitError
from playground.client.report.model import Timing
from playground.client.results import TextResult
from playground.client.transport import Connection
from playground.client.texts import Text

EXCERPT = 300
EMPTY = Text("report.empty")
"""What arrived when an answer had no text."""
NONE = Text("report.none")
"""What arrived when nothing of the kind did."""


class Fail(Exception):
    """The cell fails: `reason` in one line, what was expected and what arrived."""

    def __init__(self, reason: str, expected: str = "", arrived: str = "", tag: str = "") -> None:
        super().__init__(reason)
        self.reason, self.expected, self.arrived, self.tag = reason, expected, arrived, tag


class Skip(Exception):
    """The cell is not run (the model cannot do it), with why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def excerpt(value: Any, limit: int = EXCERPT) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[:limit] + "…"


def one_attempt(client: GatewayClient) -> GatewayClient:
    """The shared client's pool, guard and limits, with no retries (see the module docstring)."""
    client.transport.http  # noqa: B018 - the pool exists before the copy, so the copy shares it
    transport = copy.copy(client.transport)
    transport.max_retries = 0
    return GatewayClient(transport, video=client.video)


@dataclass
class Probe:
    client: GatewayClient
    conn: Connection
    format: str
    model: str
    ttft_budget_s: float = 2.0
    nonce: str = field(default_factory=lambda: f"{time.time_ns() % 10**9:09d}")
    exchanges: list[Exchange] = field(default_factory=list)
    timings: list[Timing] = field(default_factory=list)

    def keep(self, exchange: Exchange | None) -> None:
        if exchange is not None and exchange not in self.exchanges:
            self.exchanges.append(exchange)

    @property
    def api(self) -> Any:
        return getattr(self.client, self.format)

    def request(self, intent: Intent, **extra: Any) -> Any:
        """The intent written in this cell's format, with format fields added (`extra`)."""
        mapped = to_request(intent, self.format, self.model)
        if not extra:
            return mapped.request
        body = mapped.request.to_body()
        body.update(extra)
        if self.format == "native":
            body["model"], body["stream"] = self.model, intent.stream
        elif "stream" in body:
            body["stream"] = intent.stream
        return type(mapped.request).build(**body)

    async def stream(self, request: Any) -> TextResult:
        """Stream a request to its end; an answer without its end marker is returned (marked
        incomplete), other errors raise. The exchange and the timing are kept."""
        stream = self.api.stream(self.conn, request)
        try:
            async with stream:
                self.keep(stream.exchange)
                async for _ in stream:
                    pass
        except IncompleteStreamError as error:
            self.keep(error.exchange)
            result = getattr(error, "partial", None) or stream.result
            result.complete = False
            self._time(result)
            return result
        except GatewayError as error:
            self.keep(error.exchange)
            raise
        self._time(stream.result)
        return stream.result

    def _time(self, result: TextResult) -> None:
        self.timings.append(Timing(result.first_token_at, result.tokens_per_second()))

    async def create(self, request: Any) -> TextResult:
        try:
            result, exchange = await self.api.create(self.conn, request)
        except GatewayError as error:
            self.keep(error.exchange)
            raise
        self.keep(exchange)
        return result

    async def call(self, action: Callable[[], Awaitable[Any]]) -> Any:
        """Run any client call, keeping the exchange of a failure."""
        try:
            return await action()
        except GatewayError as error:
            self.keep(error.exchange)
            raise

    async def expect_error(self, conn: Connection, method: str, path: str, body: Any, params: dict[str, str] | None = None) -> APIStatusError:
        """Send a raw body that must be refused; return the error (Fail when it was accepted)."""
        try:
            _, exchange = await conn_call(self.client, conn, method, path, body, params)
        except APIStatusError as error:
            self.keep(error.exchange)
            return error
        except LimitError:
            raise  # this app's own limit, not the gateway's answer: the cell is not run
        except GatewayError as error:
            self.keep(error.exchange)
            raise Fail(Text("report.errors.no_error_status", error=error.message), Text("report.errors.expected_error_status"), excerpt(error.message)) from None
        self.keep(exchange)
        raise Fail(Text("report.errors.accepted", status=exchange.status), Text("report.errors.expected_error_status"),
                   f"HTTP {exchange.status}: {excerpt(exchange.response_body)}")


async def conn_call(client: GatewayClient, conn: Connection, method: str, path: str, body: Any,
                    params: dict[str, str] | None = None) -> tuple[Any, Exchange]:
    return await client.transport.request_json(conn, method, path, body, params=params, retry_after_accept=False)


def usage_problem(result: TextResult) -> str | None:
    """Why the usage of an answer is missing or inconsistent (None: fine)."""
    usage = result.usage
    if usage is None:
        return Text("report.usage.none")
    if not usage.input_tokens or not usage.output_tokens:
        return Text("report.usage.zero_or_missing", input=usage.input_tokens, output=usage.output_tokens)
    low = usage.input_tokens + usage.output_tokens
    high = low + (usage.reasoning_tokens or 0) + (usage.cache_creation_tokens or 0) + (usage.cached_tokens or 0)
    if usage.total_tokens is not None and not low <= usage.total_tokens <= high:
        return Text("report.usage.total_differs", total=usage.total_tokens, input=usage.input_tokens, output=usage.output_tokens)
    return None
