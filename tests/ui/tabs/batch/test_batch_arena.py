"""Blind votes the leaderboard can trust (issue 38), through the handlers the page runs: a tie is
recorded and counted, and a vote on a pair whose answers name a model is dropped with the reason
said (in the visitor's language), leaving the ratings as they were."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import gradio as gr
import pytest

from playground.client.batch.dataset import Dataset
from playground.client.batch.plan import Plan
from playground.client.batch.store import CellRecord, runs_directory
from playground.client.gateway import GatewayClient
from playground.client.transport import Connection
from playground.settings import Settings
from playground.ui.shared.connection import ServerDefaults
from playground.ui.tabs.batch.handlers import BatchHandlers, BatchState
from playground.ui.tabs.batch.runs import BatchRuns
from playground.ui.tabs.context import TabContext
from tests.ui.i18n.test_i18n_views import chinese


@pytest.fixture
async def handlers(client: GatewayClient, conn: Connection, tmp_path: Path) -> AsyncIterator[BatchHandlers]:
    settings = Settings(data_dir=tmp_path, batch_max_rows=100)
    ctx = TabContext(client, ServerDefaults(conn.base_url, conn.api_key, demo=True), gr.Textbox(), gr.Textbox(), settings)
    yield BatchHandlers(ctx, BatchRuns(runs_directory(tmp_path), 100), 16, 30, 32)


def _run(handlers: BatchHandlers, answers: list[tuple[str, str]]) -> BatchState:
    plan = Plan("{{q}}", dataset=Dataset(["q"], [{"q": f"question {i}"} for i in range(len(answers))]),
                columns=[("chat", "gx-2.5-flash"), ("messages", "cl-sonnet-4-5-20250929")])
    run = handlers.runs.create(plan, "")
    for row, pair in enumerate(answers):
        for column, answer in enumerate(pair):
            run.add_cell(CellRecord(row, 0, column, answer=answer), {})
    return BatchState(run_id=run.run_id)


async def test_a_tie_is_recorded_and_counted(handlers: BatchHandlers) -> None:
    batch = _run(handlers, [("Paris.", "It is Paris.")])
    handlers.on_pair(batch, 0, 1)
    voted = handlers.vote_tie(batch, 0, 1, "all rows", "row")
    assert voted[1].startswith("Vote recorded (1 so far)")
    run, _ = handlers.runs.open(batch.run_id, "")
    assert [v.outcome for v in run.votes] == ["tie"]
    board = voted[-1]
    assert "| 1,000 | 50% |" in board  # Elo unchanged and a 50% win rate for each: a tie is half a win


async def test_a_vote_on_answers_that_name_a_model_is_dropped_with_the_reason(handlers: BatchHandlers) -> None:
    batch = _run(handlers, [("Paris, says gx-2.5-flash.", "Paris.")])
    handlers.on_pair(batch, 0, 1)
    voted = handlers.vote_a(batch, 0, 1, "all rows", "row")
    assert voted[1] == ("Vote dropped: answer {} names the model gx-2.5-flash, so the comparison is not blind. "
                        "It does not count in Elo, win rates or Bradley-Terry.").format("A" if batch.pair and batch.pair["a"] == 0 else "B")
    run, _ = handlers.runs.open(batch.run_id, "")
    assert run.votes == []
    with chinese():
        handlers.on_pair(batch, 0, 1)
        said = handlers.vote_b(batch, 0, 1, "all rows", "row")[1]
    assert said.startswith("投票未计入：回答 ") and "说出了模型名 gx-2.5-flash" in said and run.votes == []
