"""The Batch tab's events through `BatchHandlers`, the object the page's events run (its methods
are what `layout` wires, held by tests/ui/test_wired_handlers.py), called here as plain functions
of their inputs: a pasted data set, a run against the demo gateway, its watcher and end views,
blind A/B votes, a session file loaded back into the form, and what each says without a run."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import gradio as gr
import pytest

from playground.client.batch.plan import MAX_COLUMNS
from playground.client.gateway import GatewayClient
from playground.client.transport import Connection
from playground.settings import Settings
from playground.ui.shared.connection import ServerDefaults
from playground.ui.tabs.batch.handlers import BatchHandlers, BatchState
from playground.ui.tabs.batch.columns import PER_COLUMN
from playground.ui.tabs.batch.form import DATA_OUTPUTS, GRADER_SLOTS
from playground.ui.tabs.batch.runs import BatchRuns
from playground.ui.tabs.context import TabContext

COLUMNS = ["chat", "gx-2.5-flash", "chat", "gpt-4.1"] + ["", ""] * (MAX_COLUMNS - 2)
GRADERS = ["contains", "4", 0, 0, "", *["", "", 0, 0, ""] * (GRADER_SLOTS - 1)]
OWN = [""] * PER_COLUMN * MAX_COLUMNS
USER = "Answer: {{question}}"
FORM = ["", USER, *COLUMNS, 1, 2, "", 0, True, False, *GRADERS, *OWN]
"""The form as the page sends it: system, user, column pickers, six run settings, graders, the columns' own boxes."""


@pytest.fixture
async def handlers(client: GatewayClient, conn: Connection, tmp_path: Path) -> AsyncIterator[BatchHandlers]:
    settings = Settings(data_dir=tmp_path, batch_max_rows=100)
    ctx = TabContext(client, ServerDefaults(conn.base_url, conn.api_key, demo=True), gr.Textbox(), gr.Textbox(), settings)
    yield BatchHandlers(ctx, BatchRuns(tmp_path, 100), len(COLUMNS), len(GRADERS), len(OWN))


def skipped(value: Any) -> bool:
    return isinstance(value, dict) and value == {"__type__": "update"}


async def test_a_pasted_data_set_runs_is_watched_and_voted_on(handlers: BatchHandlers) -> None:
    batch = BatchState()
    answer = await handlers.on_paste(batch, "What is 2 plus 2?\nCapital of France?", "", USER)
    assert answer[0] is batch and "**2 rows**" in answer[1] and "`{{question}}`" in answer[3]
    assert "no value for {{city}}; not used by the prompt: question" in handlers.on_template(batch, "", "Answer: {{city}}")
    started = await handlers.on_run(batch, "", "", *FORM)
    assert batch.run_id and started[3] == {"run_id": batch.run_id} and started[1]["value"] == ""
    progress = [html async for html in handlers.on_watch(batch)]
    assert 'data-done="4" data-total="4" data-status="finished"' in progress[-1]
    ended = await handlers.on_end(batch, "all rows", "row")
    assert "Leaderboard" in ended[1] and "What is 2 plus 2?" in str(ended[2]) and skipped(ended[-1])
    assert handlers.on_view(batch, "all rows", "row") == ended[2:4]
    pair = handlers.on_pair(batch, 0, 1)
    assert pair[1].startswith("**Row ") and batch.pair is not None and pair[2] != pair[3]  # the two models answer differently
    assert all("4" in answer for answer in pair[2:4]) or all("Paris" in answer for answer in pair[2:4])
    assert not any(model in pair[2] + pair[3] for model in ("gx-2.5-flash", "gpt-4.1")), "a blind vote names no model"
    voted = handlers.vote_a(batch, 0, 1, "all rows", "row")
    assert voted[0] is batch and voted[1].startswith("Vote recorded (1 so far)") and "Leaderboard" in voted[-1]
    assert handlers.vote_tie(batch, 0, 1, "all rows", "row")[1].startswith("Vote recorded (2 so far)")  # a vote shows the next pair
    assert len(handlers.runs.open(batch.run_id, "")[0].votes) == 2


async def test_without_a_run_each_handler_says_so_and_touches_nothing(handlers: BatchHandlers) -> None:
    batch = BatchState(run_id="0" * 32)
    assert handlers.on_pair(batch, 0, 1)[1:] == ("Run a batch first.", "", "") == handlers.on_pair(BatchState(), 0, 1)[1:]
    assert "Run a batch first" in handlers.vote_b(batch, 0, 1, "all rows", "row")[1]
    assert "Nothing to resume" in str((await handlers.on_resume(batch, False, "", ""))[1])
    restored = handlers.on_restore(BatchState(), {"run_id": "../not-an-id"})
    assert restored[0].run_id == "" and all(skipped(value) for value in restored[1:])
    stopped = await handlers.on_stop(batch, "all rows", "row")
    assert len(stopped) == 8 and all(skipped(value) for value in (stopped[2], stopped[4], stopped[7]))


async def test_a_session_file_fills_every_box_of_the_form_in_the_pages_order(handlers: BatchHandlers, tmp_path: Path) -> None:
    batch = BatchState()
    await handlers.on_paste(batch, "What is 2 plus 2?", "", USER)
    plan, _ = handlers.plan_of(batch, tuple(FORM))
    path = tmp_path / "batch-session.json"
    path.write_text(json.dumps(plan.to_dict()), encoding="utf-8")
    loaded = handlers.on_load(BatchState(), str(path))
    assert len(loaded) == 2 + handlers.form_size + DATA_OUTPUTS == 2 + len(FORM) + DATA_OUTPUTS
    form = list(loaded[2:2 + len(FORM)])
    assert form[:2 + len(COLUMNS)] == FORM[:2 + len(COLUMNS)] and form[-len(OWN):] == OWN
    assert "**1 row**" in loaded[-DATA_OUTPUTS] and loaded[0].dataset is not None
    refused = handlers.on_load(BatchState(), None)
    assert len(refused) == len(loaded) and all(skipped(value) for value in refused[2:])
