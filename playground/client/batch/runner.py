"""The batch runner: every (row, repeat, column) cell through the shared client, at most
`plan.concurrency` at once, each outcome graded and written to its run record (a run in the local store, or a run file)
as it arrives; a cell's `sent` mark is committed before its request goes out.

Stop (cancelling `run`) keeps what finished; a cell stopped after its request went out is
recorded as stopped and not resent. `Runner` over an existing run file resumes it: only cells
never sent are sent (errors too when the user asks). With the cache on, identical requests (same
format and body) are sent once and their answer reused, also across a resume.
"""

from __future__ import annotations

from playground.client.texts import Text

import asyncio
import hashlib
import json
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from playground.client.batch.call import exchange_dict, run_request
from playground.client.batch.graders import Mark
from playground.client.batch.grading import CellFacts, grade_cell
from playground.client.batch.plan import Plan
from playground.client.batch.store import CellRecord, RunRecord, cell_key
from playground.client.batch.template import TemplateError, fill
from playground.client.errors import GatewayError
from playground.client.gateway import GatewayClient
from playground.client.intent import Intent, to_request
from playground.client.results import TextResult
from playground.client.transport import Connection, Exchange
from playground.client.tools.loop import ToolRun, run_with_mocks, with_tools
from playground.client.tools.mock import MockTool

STOPPED = Text("batch.runner.stopped_after_request_sent_not")
USER_PROMPT = Text("batch.runner.user_prompt")
SYSTEM_PROMPT = Text("batch.runner.system_prompt")


@dataclass
class Progress:
    total: int
    done: int = 0
    errors: int = 0
    started: float = field(default_factory=time.monotonic)
    done_at_start: int = 0
    running: bool = True

    def eta(self) -> float | None:
        """Seconds left at this session's pace (None until a cell finished here)."""
        finished_here = self.done - self.done_at_start
        if finished_here <= 0 or self.done >= self.total:
            return None
        return (time.monotonic() - self.started) / finished_here * (self.total - self.done)


@dataclass
class _Outcome:
    result: TextResult
    exchange: Exchange | None
    error: str
    tools: ToolRun | None = None
    """A column with mocked tools: the calls the model made and every request of the cell."""


_KEY_ENCODER = json.JSONEncoder(sort_keys=True, ensure_ascii=False)
"""`json.dumps(body, sort_keys=True, ensure_ascii=False)` without building an encoder per cell (the same text, so the same keys)."""


def request_key(fmt: str, body: object) -> str:
    return hashlib.sha256((fmt + _KEY_ENCODER.encode(body)).encode()).hexdigest()[:32]


def error_words(error: GatewayError) -> str:
    return f"{error.title} — {error.user_message}"


class Runner:
    def __init__(self, client: GatewayClient, conn: Connection, plan: Plan, run_file: RunRecord, *, rerun_errors: bool = False) -> None:
        self.client, self.conn, self.plan, self.file = client, conn, plan, run_file
        self.rerun_errors = rerun_errors
        run_file.settle_interrupted()
        cells = run_file.cells.values()
        self.progress = Progress(plan.total, sum(1 for c in cells if not (rerun_errors and c.error)),
                                 sum(1 for c in cells if c.error and not rerun_errors))
        self.progress.done_at_start = self.progress.done
        self._cache: dict[str, asyncio.Future[_Outcome]] = {}
        self._cached_records = {c.request_key: c for c in cells if c.request_key and not c.error and not c.cached}

    def pending(self) -> Iterator[tuple[int, int, int]]:
        """Cells still to do, row by row."""
        for row in range(len(self.plan.dataset.rows)):
            for repeat in range(self.plan.repeats):
                for column in range(len(self.plan.columns)):
                    done = self.file.cells.get(cell_key(row, repeat, column))
                    if done is None or (self.rerun_errors and done.error):
                        yield row, repeat, column

    async def run(self) -> Progress:
        """Run every pending cell; cancel to stop (what finished stays in the run file)."""
        jobs = self.pending()
        workers = [asyncio.create_task(self._worker(jobs)) for _ in range(self.plan.concurrency)]
        try:
            await asyncio.gather(*workers)
        finally:
            for worker in workers:
                worker.cancel()
            await asyncio.gather(*workers, return_exceptions=True)
            try:
                await self.file.settled()  # every outcome on disk before the run counts as ended
            finally:
                self.progress.running = False
        return self.progress

    async def _worker(self, jobs: Iterator[tuple[int, int, int]]) -> None:
        for row, repeat, column in jobs:
            await self._cell(row, repeat, column)
        await self.file.settled()  # no cell left for this worker: its last outcome goes to disk now, not when the slowest cell ends

    async def _record(self, record: CellRecord, detail: dict[str, Any]) -> None:
        previous = self.file.cells.get(record.key)
        if previous is None or (self.rerun_errors and previous.error):
            self.progress.done += 1
        if record.error:
            self.progress.errors += 1
        await self.file.record_cell(record, detail)  # kept in memory at once; on disk before the next request's `sent` mark

    async def _cell(self, row: int, repeat: int, column: int) -> None:
        fmt, model = self.plan.columns[column]
        values = self.plan.dataset.rows[row]
        record = CellRecord(row, repeat, column)
        try:
            system_template, user_template = self.plan.templates_for(column)
            user = fill(user_template, values, USER_PROMPT)
            temperature, max_tokens, stream = self.plan.settings_for(column)
            intent = Intent(user, fill(system_template, values, SYSTEM_PROMPT), temperature=temperature,
                            max_tokens=max_tokens, stream=stream)
            tools = self.plan.tools_for(column)
            request = with_tools(to_request(intent, fmt, model.strip()).request, fmt, model.strip(), tools)
        except (TemplateError, GatewayError, ValueError) as error:
            record.error = Text("batch.runner.not_sent", value=error_words(error) if isinstance(error, GatewayError) else error)
            await self._record(record, {})
            return
        record.request_key = request_key(fmt, request.to_body())
        key = record.key
        outcome = await self._answer(key, fmt, request, record, tools)
        result, exchange = outcome.result, outcome.exchange
        record.answer, record.error = result.text, outcome.error
        if not record.cached:
            record.ttft = result.first_token_at
            record.total = result.finished_at if result.finished_at is not None else (exchange.finished_at if exchange else None)
            record.tokens_per_s = result.tokens_per_second()
        if result.usage is not None and not record.cached:
            usage = result.usage
            record.usage = {"input": usage.input_tokens, "output": usage.output_tokens, "reasoning": usage.reasoning_tokens,
                            "cached": usage.cached_tokens, "cache_write": usage.cache_creation_tokens, "cache_write_1h": usage.cache_creation_1h_tokens}
        grader_exchanges: list[dict[str, Any] | None] = []
        detail: dict[str, Any] = {"exchange": exchange_dict(exchange) if not record.cached else None, "reasoning": result.reasoning,
                                     "finish": result.finish_reason, "grader_exchanges": grader_exchanges}
        calls: tuple[tuple[str, Any], ...] = ()
        if outcome.tools is not None:
            detail["tool_calls"] = [call.to_dict() for call in outcome.tools.calls]
            detail["tool_exchanges"] = [exchange_dict(item) for item in outcome.tools.exchanges[:-1]]
            detail["tool_step_limit"] = outcome.tools.stopped_at_limit
            calls = tuple((call.name, call.parsed_arguments()) for call in outcome.tools.calls)
        facts = CellFacts(fmt, model.strip(), record.total, result.usage if not record.cached else None, calls)
        try:
            for spec in self.plan.graders:
                if record.error and not record.answer:
                    mark = Mark(None, Text("batch.runner.no_answer"))
                else:
                    mark = await grade_cell(self.client, self.conn, spec, user, record.answer, values, facts)
                record.marks.append({"passed": mark.passed, "detail": mark.detail, "score": mark.score})
                grader_exchanges.append(mark.exchange)
        except asyncio.CancelledError:
            record.error = record.error or Text("batch.runner.stopped_while_grading_answer_kept")
            await self._record(record, detail)
            raise
        await self._record(record, detail)

    async def _answer(self, key: str, fmt: str, request: Any, record: CellRecord, tools: tuple[MockTool, ...] = ()) -> _Outcome:
        if tools:  # several requests, answered by the mocks: never from the cache (its calls are graded)
            return await self._answer_with_tools(key, fmt, request, record, tools)
        if self.plan.cache:
            earlier = self._cached_records.get(record.request_key)
            if earlier is not None:
                record.cached = True
                return _Outcome(_replayed(earlier), None, "")
            pending = self._cache.get(record.request_key)
            if pending is not None:
                outcome = await asyncio.shield(pending)
                if not outcome.error:
                    record.cached = True
                    return outcome
            future: asyncio.Future[_Outcome] = asyncio.get_running_loop().create_future()
            self._cache[record.request_key] = future
        await self.file.record_sent(key)  # committed before the request goes out
        partial = TextResult()
        live: list[Exchange] = []
        try:
            result, exchange = await run_request(self.client, self.conn, fmt, request,
                                                 lambda result, exchange: live.append(exchange))
            outcome = _Outcome(result, exchange, "")
        except GatewayError as error:
            got = getattr(error, "partial", None)
            outcome = _Outcome(got if isinstance(got, TextResult) else partial, error.exchange or (live[0] if live else None), error_words(error))
        except asyncio.CancelledError:
            record.error = STOPPED
            await self._record(record, {"exchange": exchange_dict(live[0]) if live else None})
            if self.plan.cache and not future.done():
                future.set_result(_Outcome(partial, None, STOPPED))
            raise
        if self.plan.cache and not future.done():
            future.set_result(outcome)
        return outcome


    async def _answer_with_tools(self, key: str, fmt: str, request: Any, record: CellRecord, tools: tuple[MockTool, ...]) -> _Outcome:
        """The cell's requests until the model answers, its calls of the column's mocked tools answered by them."""
        await self.file.record_sent(key)  # committed before the first request goes out
        model = getattr(request, "model", "") or self.plan.columns[record.column][1].strip()
        try:
            run = await run_with_mocks(lambda sent: run_request(self.client, self.conn, fmt, sent), request, fmt, model, tools)
        except GatewayError as error:
            got = getattr(error, "partial", None)
            made = ToolRun(got if isinstance(got, TextResult) else TextResult(), list(getattr(error, "tool_exchanges", [])),
                           list(getattr(error, "tool_calls", [])))
            return _Outcome(made.result, error.exchange, error_words(error), made)
        except asyncio.CancelledError:
            record.error = STOPPED
            await self._record(record, {})
            raise
        return _Outcome(run.result, run.exchanges[-1] if run.exchanges else None, "", run)


def _replayed(record: CellRecord) -> TextResult:
    """A cached cell's answer as a result (timing is not copied: nothing was sent)."""
    return TextResult(text=record.answer, complete=True, streamed=False)
