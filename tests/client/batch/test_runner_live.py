"""The batch runner against the demo gateway over real sockets: the concurrency cap, Stop, resume
after a restart of the app with nothing lost or repeated, cache hits, a failing column."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from playground.client.batch import runner as runner_module
from playground.client.batch.dataset import Dataset
from playground.client.batch.graders import GraderSpec
from playground.client.batch.plan import Plan
from playground.client.batch.report import grid_keys, leaderboard, leaderboard_rows
from playground.client.batch.runner import STOPPED, Runner
from playground.client.batch.store import INTERRUPTED, RunFile
from playground.client.gateway import GatewayClient
from playground.client.transport import Connection, Transport
from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.server import start_in_thread
from tests.conftest import DEMO_KEY


def _plan(rows: int, **changes: Any) -> Plan:
    dataset = Dataset(["q"], [{"q": f"{n} + 100"} for n in range(rows)])
    fields: dict[str, Any] = {"user": "Answer: what is {{q}}?", "dataset": dataset, "columns": [("chat", "gx-2.5-flash"), ("messages", "cl-sonnet-4-5-20250929")],
                              "graders": [GraderSpec("contains", "{{q}}")], "concurrency": 3}
    fields.update(changes)
    return Plan(**fields)


def _sent_lines(run: RunFile) -> list[str]:
    return [json.loads(line)["key"] for line in run.path.read_text().splitlines() if '"type":"sent"' in line]


class InFlight:
    """Counts calls in flight through the runner's one entry to the client."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.now = self.peak = self.calls = 0
        real = runner_module.run_request

        async def counted(*args: Any, **kwargs: Any) -> Any:
            self.now += 1
            self.calls += 1
            self.peak = max(self.peak, self.now)
            try:
                return await real(*args, **kwargs)
            finally:
                self.now -= 1

        monkeypatch.setattr(runner_module, "run_request", counted)


@pytest.fixture
def slow_gateway() -> Any:
    running = start_in_thread(DemoConfig(api_key=DEMO_KEY, token_delay=0.01))
    yield running
    running.stop()


async def test_every_cell_answered_graded_and_the_cap_honoured(client: GatewayClient, conn: Connection, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    counter = InFlight(monkeypatch)
    plan = _plan(12, concurrency=3)
    run = RunFile.create(tmp_path, plan.to_dict())
    progress = await Runner(client, conn, plan, run).run()
    assert (progress.done, progress.errors, progress.total) == (24, 0, 24)
    assert counter.peak == 3 and counter.calls == 24
    cell = run.cells["5.0.1"]
    assert "5 + 100 = 105" in cell.answer and cell.marks == [{"passed": True, "detail": "found '5 + 100'", "score": None}]
    assert cell.ttft is not None and cell.usage["output"]
    detail = run.detail("5.0.1")
    assert detail["exchange"]["url"].endswith("/v1/messages") and detail["exchange"]["request_body"]["messages"][0]["content"][0]["text"] == "Answer: what is 5 + 100?"
    headers, rows = leaderboard_rows(plan, leaderboard(plan, run, {}))
    assert headers[3] == "pass: contains '{{q}}'" and [row[3] for row in rows] == ["100%", "100%"]


async def test_stop_keeps_what_finished_and_a_restart_resumes_with_nothing_lost_or_repeated(slow_gateway: Any, tmp_path: Path) -> None:
    plan = _plan(10, concurrency=2)
    first_client = GatewayClient(Transport(2.0, 5.0))
    conn = Connection(slow_gateway.url, DEMO_KEY)
    run = RunFile.create(tmp_path, plan.to_dict())
    task = asyncio.create_task(Runner(first_client, conn, plan, run).run())
    while len(run.cells) < 5:
        await asyncio.sleep(0.01)
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    finished = {key: cell.answer for key, cell in run.cells.items() if not cell.error}
    stopped = [key for key, cell in run.cells.items() if cell.error == STOPPED]
    assert len(finished) >= 5 and len(stopped) <= 2
    run.close()
    await first_client.aclose()
    # the app stopped mid-call once more: a request went out and its outcome never arrived, and the last line is torn
    pending = sorted(set(f"{r}.0.{c}" for r in range(10) for c in range(2)) - set(run.cells))[0]
    with run.path.open("ab") as handle:
        handle.write(json.dumps({"type": "sent", "key": pending}).encode() + b'\n{"type": "cell", "cel')

    restarted_client = GatewayClient(Transport(2.0, 5.0))
    reopened = RunFile.open(tmp_path, run.run_id)
    assert reopened.cells[pending].error == INTERRUPTED
    assert {key: cell.answer for key, cell in reopened.cells.items() if not cell.error} == finished
    progress = await Runner(restarted_client, conn, Plan.from_dict(reopened.header["plan"], 100), reopened).run()
    await restarted_client.aclose()
    assert progress.done == 20 and len(reopened.cells) == 20
    sent = _sent_lines(reopened)
    assert len(sent) == len(set(sent))  # no request sent twice
    assert all(reopened.cells[key].answer == answer for key, answer in finished.items())
    assert reopened.cells[pending].error == INTERRUPTED and all(reopened.cells[key].error == STOPPED for key in stopped)
    again = RunFile.open(tmp_path, run.run_id)
    assert len(again.cells) == 20 and _sent_lines(again) == sent


async def test_resume_can_resend_errors_when_asked(client: GatewayClient, conn: Connection, tmp_path: Path) -> None:
    plan = _plan(2, columns=[("chat", "gx-2.5-flash")])
    run = RunFile.create(tmp_path, plan.to_dict())
    run.mark_sent("1.0.0")
    run.settle_interrupted()
    progress = await Runner(client, conn, plan, run).run()
    assert progress.done == 2 and run.cells["1.0.0"].error == INTERRUPTED
    progress = await Runner(client, conn, plan, run, rerun_errors=True).run()
    assert progress.errors == 0 and "1 + 100 = 101" in run.cells["1.0.0"].answer


async def test_identical_requests_come_from_the_cache(client: GatewayClient, conn: Connection, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    counter = InFlight(monkeypatch)
    plan = _plan(3, repeats=3, cache=True, columns=[("chat", "gx-2.5-flash")], concurrency=4)
    run = RunFile.create(tmp_path, plan.to_dict())
    await Runner(client, conn, plan, run).run()
    assert counter.calls == 3 and len(_sent_lines(run)) == 3
    cached = [cell for cell in run.cells.values() if cell.cached]
    assert len(cached) == 6 and all(cell.answer == run.cells[f"{cell.row}.0.0"].answer for cell in cached)
    assert run.detail(cached[0].key)["exchange"] is None
    # resumed with the cache: the finished answers are reused, nothing is sent
    fresh = RunFile.create(tmp_path, plan.to_dict())
    for cell in run.cells.values():
        if not cell.cached and cell.repeat == 0:
            fresh.add_cell(cell, {})
    await Runner(client, conn, plan, fresh).run()
    assert counter.calls == 3 and all(fresh.cells[f"{r}.{k}.0"].cached for r in range(3) for k in (1, 2))


async def test_a_failing_column_keeps_its_errors_in_its_cells(client: GatewayClient, conn: Connection, tmp_path: Path) -> None:
    plan = _plan(4, columns=[("chat", "gx-2.5-flash"), ("chat", "no-such-model"), ("messages", "cl-sonnet-4-5-20250929")], temperature=1.5)
    run = RunFile.create(tmp_path, plan.to_dict())
    progress = await Runner(client, conn, plan, run).run()
    assert progress.done == 12 and progress.errors == 4
    assert all("404" in run.cells[f"{r}.0.1"].error and run.cells[f"{r}.0.1"].marks == [{"passed": None, "detail": "no answer", "score": None}]
               for r in range(4))
    assert all(not run.cells[f"{r}.0.{c}"].error for r in range(4) for c in (0, 2))
    assert run.detail("0.0.1")["exchange"]["status"] == 404
    assert grid_keys(plan, run, "only errors") == [(r, 0) for r in range(4)]
    stats = leaderboard(plan, run, {})
    assert [s.errors for s in stats] == [0, 4, 0] and stats[1].pass_rates == [None]


async def test_a_template_problem_is_a_cell_error_and_nothing_is_sent(client: GatewayClient, conn: Connection, tmp_path: Path) -> None:
    plan = _plan(1, user="{{missing}}", columns=[("chat", "gx-2.5-flash")])
    run = RunFile.create(tmp_path, plan.to_dict())
    await Runner(client, conn, plan, run).run()
    assert run.cells["0.0.0"].error.startswith("not sent: no value for the variable {{missing}}") and not _sent_lines(run)
