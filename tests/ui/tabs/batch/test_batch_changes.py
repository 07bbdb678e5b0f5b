"""What changed, through the handlers the page runs, on two real runs of one suite against the demo
gateway: the second run (temperature 0.5, which the demo's generic answer states) passes a row the
first failed; the baseline picker lists the visitor's other runs; the comparison says per column
and per row what got better, draws the suite's trend with a link to each run, and a page link
(`?run=`) opens a run's view, the owner's only."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import gradio as gr
import pytest
from gradio.context import LocalContext

from playground.client.batch.plan import MAX_COLUMNS
from playground.client.batch.store import runs_directory
from playground.client.gateway import GatewayClient
from playground.client.transport import Connection
from playground.settings import Settings
from playground.ui.shared.connection import ServerDefaults
from playground.ui.tabs.batch.changes import ChangesHandlers, linked_run, run_link
from playground.ui.tabs.batch.handlers import BatchHandlers, BatchState
from playground.ui.tabs.batch.columns import PER_COLUMN
from playground.ui.tabs.batch.form import GRADER_SLOTS
from playground.ui.tabs.batch.runs import BatchRuns
from playground.ui.tabs.context import TabContext
from tests.ui.i18n.test_i18n_views import chinese

COLUMNS = ["chat", "gx-2.5-flash", "chat", "gpt-4.1"] + ["", ""] * (MAX_COLUMNS - 2)
GRADERS = ["regex", r"whiskers|lock|offline", 0, 0, "", *["", "", 0, 0, ""] * (GRADER_SLOTS - 1)]
OWN = [""] * PER_COLUMN * MAX_COLUMNS
ROWS = "Describe a cat.\nWhat has keys but can't open locks? Answer in one sentence.\nSay hi"


def form(max_tokens: int) -> list[Any]:
    """The form with `max_tokens` (4 cuts the demo's answers before the words the grader looks for)."""
    return ["", "{{question}}", *COLUMNS, 1, 2, "", max_tokens, True, False, *GRADERS, *OWN]


class LinkRequest:
    def __init__(self, query: dict[str, str]) -> None:
        self.headers: dict[str, str] = {}
        self.query_params = query


@pytest.fixture
async def pages(client: GatewayClient, conn: Connection, tmp_path: Path) -> AsyncIterator[tuple[BatchHandlers, ChangesHandlers]]:
    settings = Settings(data_dir=tmp_path, batch_max_rows=100)
    ctx = TabContext(client, ServerDefaults(conn.base_url, conn.api_key, demo=True), gr.Textbox(), gr.Textbox(), settings)
    runs = BatchRuns(runs_directory(tmp_path), 100)
    yield BatchHandlers(ctx, runs, len(COLUMNS), len(GRADERS), len(OWN)), ChangesHandlers(ctx, runs)


async def _run(handlers: BatchHandlers, max_tokens: int) -> str:
    batch = BatchState()
    await handlers.on_paste(batch, ROWS, "", "{{question}}")
    await handlers.on_run(batch, "", "", *form(max_tokens))
    [_ async for _ in handlers.on_watch(batch)]
    return batch.run_id


async def test_a_second_run_compared_with_the_first(pages: tuple[BatchHandlers, ChangesHandlers]) -> None:
    handlers, changes = pages
    first = await _run(handlers, 4)
    second = await _run(handlers, 0)
    shown = BatchState(run_id=second)
    choices = changes.on_list(shown)
    assert [value for _, value in choices["choices"]] == [first] and choices["value"] == first
    said = changes.on_diff(shown, first)
    assert "### What changed" in said and f"]({run_link(first)})" in said and f"]({run_link(second)})" in said
    assert "| chat completions · gx-2.5-flash | 100% | +100 pts |" in said and "| 3 | 0 |" in said  # three rows better, none worse
    assert "| chat completions · gpt-4.1 | 100% | +67 pts |" in said and "| 2 | 0 |" in said  # its cut answer to row 3 passed already
    assert "| 3 | question: Say hi | chat completions · gx-2.5-flash | ▲ better | 0% | 100% |" in said
    assert "| 3 | question: Say hi | chat completions · gpt-4.1 |" not in said  # unchanged rows are not listed
    assert "#### Trend of this suite" in said and said.count("?tab=batch&run=") >= 4 and "- chat completions · gpt-4.1: 33% 100%" in said
    with chinese():
        assert "变好" in changes.on_diff(shown, first) and "这套测试的趋势" in changes.on_diff(shown, first)
    assert changes.on_diff(shown, "") == "Pick a baseline run first (List my runs fills the choices)."
    assert "Run a batch first" in changes.on_diff(BatchState(), first)


async def test_a_page_link_opens_the_runs_view(pages: tuple[BatchHandlers, ChangesHandlers]) -> None:
    handlers, _ = pages
    run_id = await _run(handlers, 0)
    token = LocalContext.request.set(LinkRequest({"tab": "batch", "run": run_id}))  # type: ignore[arg-type]
    try:
        assert linked_run() == run_id
        restored = handlers.on_restore(BatchState(), {"run_id": ""})
    finally:
        LocalContext.request.reset(token)
    assert restored[0].run_id == run_id and "Leaderboard" in restored[2]
    token = LocalContext.request.set(LinkRequest({"run": "../../etc/passwd"}))  # type: ignore[arg-type]
    try:
        assert linked_run() == ""
    finally:
        LocalContext.request.reset(token)
