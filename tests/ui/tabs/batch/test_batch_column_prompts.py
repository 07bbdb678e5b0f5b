"""A Batch column can send a prompt library version instead of the run's prompt: its picker lists
the owner's versions and labels, a run reads the picked one (partials included) into the plan, so
that column's requests carry it while the others send the run's prompt, the run file keeps the
templates (a resume sends the same), and a version that cannot be read refuses the run with the
column named before anything is sent."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import gradio as gr
import pytest

from playground.client.batch.plan import MAX_COLUMNS, ColumnPrompt, Plan, PlanError
from playground.client.gateway import GatewayClient
from playground.client.prompts.model import PromptContent
from playground.client.transport import Connection
from playground.settings import Settings
from playground.store import runs as stored_runs
from playground.ui.conversation.prompt_library import PromptLibrary
from playground.ui.shared.connection import ServerDefaults
from playground.ui.tabs.batch.column_prompts import ColumnPrompts, PromptVersionsExample
from playground.ui.tabs.batch.columns import PER_COLUMN, PROMPT_AT
from playground.ui.tabs.batch.form import DATA_OUTPUTS, GRADER_SLOTS
from playground.ui.tabs.batch.handlers import BatchHandlers, BatchState
from playground.ui.tabs.batch.runs import BatchRuns
from playground.ui.tabs.context import TabContext

COLUMNS = ["chat", "gx-2.5-flash", "chat", "gx-2.5-flash"] + ["", ""] * (MAX_COLUMNS - 2)
GRADERS = ["", "", 0, 0, ""] * GRADER_SLOTS
USER = "Answer: {{topic}}"


def form(second_column_prompt: str) -> list[object]:
    own = [""] * PER_COLUMN * MAX_COLUMNS
    own[PER_COLUMN + PROMPT_AT] = second_column_prompt
    return ["", USER, *COLUMNS, 1, 2, "", 0, True, False, *GRADERS, *own]


@pytest.fixture
async def handlers(client: GatewayClient, conn: Connection, tmp_path: Path) -> AsyncIterator[BatchHandlers]:
    settings = Settings(data_dir=tmp_path, batch_max_rows=100)
    ctx = TabContext(client, ServerDefaults(conn.base_url, conn.api_key, demo=True), gr.Textbox(), gr.Textbox(), settings)
    library = PromptLibrary(tmp_path)
    await library.save_partial("tone", "Be warm.")
    for system in ("Explain {{topic}} simply.", "Explain {{topic}} like I'm five. {{> tone}}"):
        await library.save("ELI5", PromptContent("chat", system, [{"role": "user", "content": "Tell me about {{topic}}."}]))
    await library.label("ELI5", "v2", "production")
    yield BatchHandlers(ctx, BatchRuns(tmp_path, 100), len(COLUMNS), len(GRADERS), PER_COLUMN * MAX_COLUMNS)


async def test_the_picker_lists_every_version_and_label(handlers: BatchHandlers) -> None:
    choices = (await ColumnPrompts(PromptLibrary(handlers.ctx.settings.data_dir)).choices(""))["choices"]
    assert [value for _, value in choices] == ["", "ELI5 @ v2", "ELI5 @ v1", "ELI5 @ production"]


async def test_a_column_sends_the_labelled_version_and_the_other_the_runs_prompt(handlers: BatchHandlers) -> None:
    batch = BatchState()
    await handlers.on_paste(batch, "rain", "", USER)
    started = await handlers.on_run(batch, "", "", *form("ELI5 @ production"))
    assert batch.run_id and started[1]["value"] == "", started[1]
    [_ async for _ in handlers.on_watch(batch)]
    run, plan = handlers.runs.open(batch.run_id, "")
    assert len(run.cells) == 2 and not any(cell.error for cell in run.cells.values())
    assert plan.column_settings[1].prompt == ColumnPrompt("ELI5", 2, "Explain {{topic}} like I'm five. Be warm.", "Tell me about {{topic}}.")
    own = json.dumps(handlers.runs.database.call(stored_runs.cell_detail, batch.run_id, 0, 0, 1))
    shared = json.dumps(handlers.runs.database.call(stored_runs.cell_detail, batch.run_id, 0, 0, 0))
    assert "Explain rain like I'm five. Be warm." in own and "Tell me about rain." in own and "Answer: rain" not in own
    assert "Answer: rain" in shared and "like I'm five" not in shared
    assert "prompt “ELI5” v2" in plan.own_settings_text(1)
    assert Plan.from_dict(json.loads(json.dumps(plan.to_dict())), 100) == plan, "the run file keeps the templates a resume sends"


async def test_a_version_that_cannot_be_read_refuses_the_run_naming_the_column(handlers: BatchHandlers) -> None:
    batch = BatchState()
    await handlers.on_paste(batch, "rain", "", USER)
    started = await handlers.on_run(batch, "", "", *form("ELI5 @ staging"))
    assert not batch.run_id and "column 2: “ELI5” has no version or label staging" in started[1]["value"]


def test_a_column_prompt_in_a_file_is_checked() -> None:
    plan = Plan(USER, columns=[("chat", "gx-2.5-flash")])
    data = plan.to_dict()
    data["dataset"] = {"columns": ["topic"], "rows": [{"topic": "rain"}], "source": "t"}
    data["column_settings"] = [{"prompt": {"name": "ELI5", "version": 0, "system": "", "user": "x"}}]
    with pytest.raises(PlanError, match="column 1 prompt must be a library version"):
        Plan.from_dict(data, 100)
    assert replace(plan, column_settings=[]).uses_run_prompt()


async def test_the_example_runs_two_versions_of_one_prompt_side_by_side(handlers: BatchHandlers) -> None:
    library = PromptLibrary(handlers.ctx.settings.data_dir)
    example = PromptVersionsExample(library, handlers.on_paste, len(COLUMNS), DATA_OUTPUTS)
    batch = BatchState()
    filled = await example.fill(batch)
    state, status = filled[:2]
    pasted, system, user = filled[1 + DATA_OUTPUTS:4 + DATA_OUTPUTS]
    pickers, prompts = filled[4 + DATA_OUTPUTS:4 + DATA_OUTPUTS + len(COLUMNS)], filled[4 + DATA_OUTPUTS + len(COLUMNS):]
    assert state is batch and "3 rows" in status and pasted.count("\n") == 2 and system == ""
    assert list(pickers[:4]) == ["chat", "gx-2.5-flash", "chat", "gx-2.5-flash"] and len(prompts) == MAX_COLUMNS
    assert prompts[:2] == ("Explain like I'm five (chat) @ v1", "Explain like I'm five (chat) @ v2")
    own = [""] * PER_COLUMN * MAX_COLUMNS
    own[PROMPT_AT::PER_COLUMN] = prompts
    started = await handlers.on_run(batch, "", "", system, user, *pickers, 1, 2, "", 0, True, False, *GRADERS, *own)
    assert batch.run_id, started[1]
    [_ async for _ in handlers.on_watch(batch)]
    _, plan = handlers.runs.open(batch.run_id, "")
    assert [(own.prompt.version if own.prompt else None) for own in plan.column_settings] == [1, 2]
    second = json.dumps(handlers.runs.database.call(stored_runs.cell_detail, batch.run_id, 0, 0, 1))
    assert "Explain rain like I'm five" in second and "Be warm and use one everyday comparison" in second, "v2 with its partial"
