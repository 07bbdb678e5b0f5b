"""The report runner: every cell of a scope through its probe, several at once (a per-run cap),
each probe on its own (one failing or crashing never stops the others), progress as it goes,
and what finished kept when the run is stopped."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field

from playground.client.errors import GatewayError
from playground.client.gateway import GatewayClient
from playground.client.limits import LimitError
from playground.client.report import clients, error_probes, media_probes, text_probes, tool_probes, video_probe
from playground.client.report import rate_limit_probe, usage_probes
from playground.client.report.model import (
    CHECKS_BY_ID,
    FAIL,
    FORMAT_LABELS,
    PASS,
    SKIPPED,
    UNSUPPORTED,
    CheckResult,
    Report,
    Scope,
)
from playground.client.report.probe import Fail, Probe, Skip, excerpt, one_attempt
from playground.client.transport import Connection
from playground.client.texts import Text

PROBES: dict[str, Callable[[Probe], Awaitable[str]]] = {**text_probes.PROBES, **tool_probes.PROBES, **error_probes.PROBES, **media_probes.PROBES,
                                                              **video_probe.PROBES, **rate_limit_probe.PROBES, **usage_probes.PROBES}
UPDATE_INTERVAL = 0.1
MAX_CONCURRENCY = 16


def register(check_id: str, probe: Callable[[Probe], Awaitable[str]]) -> None:
    PROBES[check_id] = probe


@dataclass
class RunState:
    report: Report
    total: int
    running: dict[tuple[str, str, str], float] = field(default_factory=dict)

    @property
    def done(self) -> int:
        return len(self.report.results)

    def current(self) -> str:
        """The probe running longest, named ("chat completions · gpt-4o-mini · tool round trip")."""
        if not self.running:
            return ""
        fmt, model, check = min(self.running, key=self.running.__getitem__)
        return f"{FORMAT_LABELS.get(fmt, fmt)} · {model} · {CHECKS_BY_ID[check].label}"


def unsupported(fmt: str, model: str, check_id: str) -> CheckResult:
    check = CHECKS_BY_ID[check_id]
    return clients.judge(CheckResult(fmt, model, check_id, UNSUPPORTED, Text("report.runner.unsupported", format=FORMAT_LABELS.get(fmt, fmt), check=check.label)))


async def run_cell(client: GatewayClient, conn: Connection, scope: Scope, fmt: str, model: str, check_id: str) -> CheckResult:
    """One probe, judged: never raises (except cancellation)."""
    if fmt not in CHECKS_BY_ID[check_id].formats:
        return unsupported(fmt, model, check_id)
    probe = Probe(client, conn, fmt, model, scope.ttft_budget_s)
    result = CheckResult(fmt, model, check_id, PASS)
    started = time.perf_counter()
    try:
        result.reason = await PROBES[check_id](probe)
    except Fail as failure:
        result.status, result.reason, result.expected, result.arrived, result.tag = FAIL, failure.reason, failure.expected, failure.arrived, failure.tag
    except Skip as skip:
        result.status, result.reason = SKIPPED, skip.reason
    except LimitError as error:
        result.status, result.reason = SKIPPED, Text("report.runner.not_run", reason=error.message)
    except GatewayError as error:
        result.status, result.reason = FAIL, excerpt(error.message)
        result.arrived = excerpt(getattr(error.exchange, "response_body", None) or error.message) if error.exchange is not None else ""
        probe.keep(error.exchange)
    except Exception as error:
        result.status, result.reason = FAIL, Text("report.runner.probe_failed", error_type=type(error).__name__, error=excerpt(str(error), 120))
    result.seconds = time.perf_counter() - started
    result.exchanges, result.timings = probe.exchanges, probe.timings
    return clients.judge(result)


def effective_concurrency(conn: Connection, wanted: int) -> int:
    """The run's cap: what was asked, at most `MAX_CONCURRENCY` and the session's calls at once."""
    cap = max(1, min(int(wanted), MAX_CONCURRENCY))
    if conn.quota is not None and conn.quota.concurrent_calls:
        cap = min(cap, conn.quota.concurrent_calls)
    return cap


async def run_report(client: GatewayClient, conn: Connection, scope: Scope, *, concurrency: int = 4,
                     report: Report | None = None) -> AsyncIterator[RunState]:
    """Run every cell; yield the state at a bounded rate. Cancelling stops the run: the report
    keeps what finished, the rest is marked skipped ("the run was stopped")."""
    report = report or Report(conn.base_url, scope)
    cells = scope.cells()
    state = RunState(report, len(cells))
    client = one_attempt(client)
    queue: list[tuple[str, str, str]] = []
    for fmt, model, check_id in cells:
        if fmt in CHECKS_BY_ID[check_id].formats:
            queue.append((fmt, model, check_id))
        else:
            report.results.append(unsupported(fmt, model, check_id))
    queue.reverse()
    started = time.perf_counter()

    async def worker() -> None:
        while queue:
            cell = queue.pop()
            state.running[cell] = time.perf_counter()
            try:
                result = await run_cell(client, conn, scope, *cell)
                if not report.stopped:
                    report.results.append(result)
            finally:
                state.running.pop(cell, None)

    workers = [asyncio.create_task(worker()) for _ in range(min(effective_concurrency(conn, concurrency), len(queue)) or 0)]
    try:
        while workers and not all(task.done() for task in workers):
            yield state
            await asyncio.wait(workers, timeout=UPDATE_INTERVAL)
        report.finished = True
    finally:
        for task in workers:
            task.cancel()
        report.wall_s = time.perf_counter() - started
        if not report.finished:
            mark_stopped(report)
        order = {cell: index for index, cell in enumerate(cells)}
        report.results.sort(key=lambda result: order.get(result.key, len(cells)))
    yield state


def mark_stopped(report: Report) -> None:
    """After Stop: the cells that did not finish are skipped, saying so (idempotent)."""
    if report.finished or report.stopped:
        return
    report.stopped = True
    finished = {result.key for result in report.results}
    report.results += [clients.judge(CheckResult(*cell, SKIPPED, Text("report.runner.stopped"))) for cell in report.scope.cells() if cell not in finished]
