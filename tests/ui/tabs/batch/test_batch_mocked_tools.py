"""Mocked tools on the Batch tab through `BatchHandlers`: the example fills the mocked tools box, a
column whose "offer the mocked tools" box is ticked offers them, the "called the tool" grader's box
takes the tool's name and the expected arguments, the run on the demo gateway answers the calls by
itself and the leaderboard grades the arguments; a saved session fills the boxes back; problems are
named before anything runs."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import gradio as gr
import pytest

from playground.client.batch.plan import MAX_COLUMNS, PlanError
from playground.client.gateway import GatewayClient
from playground.client.tools.mock import EXAMPLE
from playground.client.transport import Connection
from playground.settings import Settings
from playground.ui.shared.connection import ServerDefaults
from playground.ui.tabs.batch.columns import PER_COLUMN
from playground.ui.tabs.batch.form import GRADER_SLOTS
from playground.ui.tabs.batch.handlers import BatchHandlers, BatchState
from playground.ui.tabs.batch.runs import BatchRuns
from playground.ui.tabs.batch.views import tool_calls_markdown
from playground.ui.tabs.context import TabContext

COLUMNS = ["chat", "gx-2.5-flash", "messages", "cl-sonnet-4-5-20250929"] + ["", ""] * (MAX_COLUMNS - 2)
GRADERS = ["tool_called", 'get_weather {"city": "{{city}}"}', 0, 0, "", *["", "", 0, 0, ""] * (GRADER_SLOTS - 1)]
OWN = [""] * PER_COLUMN * MAX_COLUMNS
OFFERS = [True, False] + [False] * (MAX_COLUMNS - 2)
USER = "What is the weather in {{city}}?"


def form(mocked: str, offers: list[bool] = OFFERS, graders: list[object] = GRADERS) -> list[object]:
    return ["", USER, *COLUMNS, 1, 2, "", 0, True, False, *graders, *OWN, *offers, mocked]


@pytest.fixture
async def handlers(client: GatewayClient, conn: Connection, tmp_path: Path) -> AsyncIterator[BatchHandlers]:
    settings = Settings(data_dir=tmp_path, batch_max_rows=100)
    ctx = TabContext(client, ServerDefaults(conn.base_url, conn.api_key, demo=True), gr.Textbox(), gr.Textbox(), settings)
    yield BatchHandlers(ctx, BatchRuns(tmp_path, 100), len(COLUMNS), len(GRADERS), len(OWN), len(OFFERS))


async def test_a_column_offering_the_mocks_is_graded_on_the_tools_arguments(handlers: BatchHandlers, tmp_path: Path) -> None:
    batch = BatchState()
    await handlers.on_paste(batch, "Paris\nOslo", "", USER)
    mocked = handlers.on_mock_example()
    assert json.loads(mocked) == [EXAMPLE.to_dict()]
    started = await handlers.on_run(batch, "", "", *form(mocked))
    assert started[1]["value"] == "", started[1]
    progress = [html async for html in handlers.on_watch(batch)]
    assert 'data-done="4" data-total="4" data-status="finished"' in progress[-1]
    run, plan = handlers.runs.open(batch.run_id, "")
    assert plan.tools_for(0) == (EXAMPLE,) and plan.tools_for(1) == ()
    assert "18 °C" in run.cells["1.0.0"].answer and run.cells["1.0.0"].marks[0]["passed"] is True
    assert run.cells["1.0.1"].marks[0]["passed"] is False and "not called" in run.cells["1.0.1"].marks[0]["detail"]
    shown = tool_calls_markdown(run.detail("1.0.0"))
    assert "Tool calls" in shown and "`get_weather` with" in shown and "Oslo" in shown and "temperature_c" in shown
    assert tool_calls_markdown(run.detail("1.0.1")) == "" and tool_calls_markdown({"tool_calls": "junk"}) == ""
    ended = await handlers.on_end(batch, "all rows", "row")
    assert "pass: called the tool" in ended[1] and "(mocked tools get_weather) | 2 | 0 | ★ 100% |" in ended[1] and "| 0% |" in ended[1], ended[1]
    saved = tmp_path / "session.json"
    saved.write_text(json.dumps(plan.to_dict()))
    loaded = handlers.on_load(BatchState(), str(saved))
    boxes = loaded[2:2 + handlers.form_size]
    assert boxes[-1] == mocked.strip() or json.loads(boxes[-1]) == json.loads(mocked)
    assert list(boxes[-1 - len(OFFERS):-1]) == OFFERS and 'get_weather {"city": "{{city}}"}' in boxes


async def test_problems_with_the_mocks_or_the_grader_are_named_before_anything_runs(handlers: BatchHandlers) -> None:
    batch = BatchState()
    await handlers.on_paste(batch, "Paris", "", USER)
    refused = await handlers.on_run(batch, "", "", *form(""))
    assert "none are declared" in refused[1]["value"] and not batch.run_id
    refused = await handlers.on_run(batch, "", "", *form('[{"name": "x", "mock": {"kind": "soon"}}]'))
    assert "Mocked tools: tool 1: mock.kind" in refused[1]["value"]
    bad_grader = ["tool_called", "get_weather {not json", 0, 0, "", *["", "", 0, 0, ""] * (GRADER_SLOTS - 1)]
    refused = await handlers.on_run(batch, "", "", *form(handlers.on_mock_example(), graders=bad_grader))
    assert "grader 1" in refused[1]["value"] and "not JSON" in refused[1]["value"] and not batch.run_id
    with pytest.raises(PlanError):
        handlers.plan_of(batch, tuple(form("[")))
