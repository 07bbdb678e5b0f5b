"""Batch's sample and the slots on screen, through the handlers the page runs: the sample's prompt and
rows load as the data set in the visitor's language and, run against the demo gateway with the
example's columns and graders, rank three models differently; only the column and grader slots in
use (or asked for with "Add") are shown; the model grader's box only when a cell has a model grader's
exchange; a reloaded page shows the last run together with the form it ran, or nothing."""

from __future__ import annotations

from typing import Any

import gradio as gr
from gradio.context import LocalContext

from playground.client.batch.plan import MAX_COLUMNS
from playground.client.batch.report import leaderboard
from playground.ui.shared.column_picker import ColumnPicker
from playground.ui.shared.examples import example_values
from playground.ui.tabs.batch.form import DATA_OUTPUTS, GRADER_SLOTS
from playground.ui.tabs.batch.handlers import BatchHandlers, BatchState
from playground.ui.tabs.batch.layout import PRESETS
from playground.ui.tabs.batch.sample import EXAMPLES, SAMPLE_COLUMNS, SAMPLE_GRADERS
from tests.ui.i18n.test_i18n_views import chinese
from tests.ui.tabs.batch.test_batch_changes import LinkRequest
from tests.ui.tabs.batch.test_batch_events import FORM, OWN, handlers, skipped  # noqa: F401 - the fixture

SAMPLE = EXAMPLES[0].values


def _sample_form(prompt: str) -> list[Any]:
    """The form as the page sends it once the sample is filled (the example's values, the rest the defaults)."""
    columns = [SAMPLE[f"{kind}_{index}"] for index in range(MAX_COLUMNS) for kind in ("format", "model")]
    graders = [value for slot in range(GRADER_SLOTS)
               for value in (SAMPLE[f"grader_kind_{slot}"], SAMPLE[f"grader_value_{slot}"], SAMPLE[f"grader_min_{slot}"],
                             SAMPLE[f"grader_max_{slot}"], "gx-2.5-flash")]
    return ["", prompt, *columns, SAMPLE["repeats"], 4, "", 0, True, False, *graders, *OWN]


def _visible(updates: tuple[Any, ...]) -> list[bool]:
    return [update["visible"] for update in updates]


async def _run_sample(handlers: BatchHandlers) -> tuple[BatchState, list[Any]]:  # noqa: F811
    batch = BatchState()
    loaded = await handlers.on_sample(batch)
    form = _sample_form(loaded[1])
    started = await handlers.on_run(batch, "", "", *form)
    assert started[1]["value"] == "", started[1]
    async for _ in handlers.on_watch(batch):
        pass
    return batch, form


async def test_the_sample_ranks_three_models_with_real_differences(handlers: BatchHandlers) -> None:  # noqa: F811
    batch, _ = await _run_sample(handlers)
    assert batch.dataset is not None and len(batch.dataset.rows) == 8 and batch.dataset.columns == ["question", "expected"]
    run, plan = handlers.runs.open(batch.run_id, "")
    assert [model for _, model in plan.columns] == [model for _, model in SAMPLE_COLUMNS] and len(plan.graders) == len(SAMPLE_GRADERS)
    assert not any(cell.error for cell in run.cells.values()) and len(run.cells) == 24
    expected, short = zip(*(stats.pass_rates for stats in leaderboard(plan, run, {})))
    assert expected[0] == 1.0 and expected[2] == 1.0 and expected[1] is not None and expected[1] < 1.0, expected  # the small model slips
    assert short[0] == 1.0 and short[2] is not None and short[2] < 0.5, short  # the thorough model says more than 40 characters
    ended = await handlers.on_end(batch, "all rows", "row")
    assert "Leaderboard" in ended[1] and "gpt-4o-mini" in ended[1] and "Canberra" in str(ended[2])


async def test_the_sample_is_in_the_visitors_language(handlers: BatchHandlers) -> None:  # noqa: F811
    english = await handlers.on_sample(BatchState())
    assert english[1] == "Answer briefly: {{question}}" and "capital of Australia" in english[2]
    assert "**8 rows**" in english[3] and "press **Run**" in english[3] and "`{{question}}`" in english[5]
    with chinese():
        batch = BatchState()
        answer = await handlers.on_sample(batch)
        assert answer[1] == "简短回答：{{question}}" and "澳大利亚的首都是哪里？" in answer[2] and "点击**运行**" in answer[3]
        assert batch.dataset is not None and batch.dataset.rows[0] == {"question": "澳大利亚的首都是哪里？", "expected": "堪培拉"}


def test_the_example_fills_the_sample_and_resets_every_other_slot() -> None:
    names = list(SAMPLE)
    values = dict(zip(names, example_values(EXAMPLES[0], {}, names)))
    assert [values[f"model_{index}"] for index in range(MAX_COLUMNS)] == [m for _, m in SAMPLE_COLUMNS] + [""] * (MAX_COLUMNS - 3)
    assert [values[f"grader_kind_{slot}"] for slot in range(GRADER_SLOTS)] == ["contains", "length"] + [""] * (GRADER_SLOTS - 2)


def test_only_the_slots_in_use_and_those_asked_for_are_shown(handlers: BatchHandlers) -> None:  # noqa: F811
    with gr.Blocks():
        picker = ColumnPicker.build("batch", PRESETS, MAX_COLUMNS)
    two = ["chat", "gx-2.5-flash", "chat", "gpt-4.1"] + ["", ""] * (MAX_COLUMNS - 2)
    assert _visible(picker.slots_shown(0, *two)) == [True, True] + [False] * 6 + [True]  # eight slots, then "Add a column"
    added = picker.slot_added(0, *two)
    assert added[0] == 3 and _visible(added[1:]) == [True] * 3 + [False] * 5 + [True]
    fifth = list(two)
    fifth[8:10] = ["messages", "cl-haiku-4-5-20251001"]
    assert _visible(picker.slots_shown(0, *fifth))[:MAX_COLUMNS] == [True] * 5 + [False] * 3, "up to the last column in use"
    assert _visible(picker.slots_shown(0, *[""] * 2 * MAX_COLUMNS))[:MAX_COLUMNS] == [True] + [False] * 7, "always one"
    full = picker.slot_added(MAX_COLUMNS - 1, *two)
    assert full[0] == MAX_COLUMNS and _visible(full[1:]) == [True] * MAX_COLUMNS + [False], "no Add once all are shown"
    assert _visible(handlers.on_graders_shown(0, *[""] * GRADER_SLOTS)) == [True] + [False] * 5 + [True]
    assert _visible(handlers.on_graders_shown(0, "contains", "length", "", "", "", "")) == [True, True] + [False] * 4 + [True]
    more = handlers.on_add_grader(0, "contains", "", "", "", "", "")
    assert more[0] == 2 and _visible(more[1:]) == [True, True] + [False] * 4 + [True]


async def test_the_model_graders_box_shows_only_with_a_model_graders_exchange(handlers: BatchHandlers) -> None:  # noqa: F811
    batch, _ = await _run_sample(handlers)
    click = gr.SelectData(None, {"index": [0, 3], "value": "", "row_value": [1, 1], "col_value": None, "selected": True})
    opened = handlers.on_select(batch, click)
    assert "Canberra" in opened[0] and opened[-1]["visible"] is False
    assert handlers.on_select(BatchState(), click)[-1]["visible"] is False


async def test_a_reloaded_page_shows_the_last_run_with_the_form_it_ran_or_nothing(handlers: BatchHandlers) -> None:  # noqa: F811
    ran, form = await _run_sample(handlers)
    restored = handlers.on_restore(BatchState(), {"run_id": ran.run_id})
    batch, views, boxes = restored[0], restored[1:8], restored[8:]
    assert batch.run_id == ran.run_id and batch.dataset == ran.dataset and "Leaderboard" in views[1]
    assert len(boxes) == handlers.form_size + DATA_OUTPUTS and list(boxes[:2]) == form[:2], "the prompt it ran"
    assert list(boxes[2:2 + 2 * MAX_COLUMNS]) == form[2:2 + 2 * MAX_COLUMNS], "its columns"
    graders = boxes[8 + 2 * MAX_COLUMNS:8 + 2 * MAX_COLUMNS + 5 * GRADER_SLOTS]
    assert graders[0:2] == ("contains", "{{expected}}") and graders[5] == "length" and graders[10] == ""
    status, preview, _, suite_line, suite_model = boxes[-DATA_OUTPUTS:]
    assert "**8 rows**" in status and preview["headers"] == ["question", "expected"] and "(no data set)" not in str(preview)
    assert suite_line == "" and suite_model["visible"] is False, "the sample's graders are all in the boxes"
    nothing = handlers.on_restore(BatchState(), {"run_id": "0" * 32})
    assert nothing[0].run_id == "" and len(nothing) == 1 + 7 + handlers.form_size + DATA_OUTPUTS and all(skipped(value) for value in nothing[1:])
    assert FORM[1] != form[1]


async def test_a_link_to_the_tab_with_its_own_settings_keeps_them_and_restores_no_run(handlers: BatchHandlers) -> None:  # noqa: F811
    ran, _ = await _run_sample(handlers)
    token = LocalContext.request.set(LinkRequest({"tab": "batch", "user": "Say {{x}}"}))  # type: ignore[arg-type]
    try:
        linked = handlers.on_restore(BatchState(), {"run_id": ran.run_id})
    finally:
        LocalContext.request.reset(token)
    assert linked[0].run_id == "" and all(skipped(value) for value in linked[1:]), "the link's form, and no run beside it"


async def test_a_chinese_visitor_reads_the_format_names_in_chinese(handlers: BatchHandlers) -> None:  # noqa: F811
    """The leaderboard's and the grid's column labels name each format in Chinese (the client's label is a message)."""
    with chinese():
        batch, _ = await _run_sample(handlers)
        ended = await handlers.on_end(batch, "all rows", "row")
    board, grid = ended[1], ended[2]
    assert "C1 对话补全接口 · gx-2.5-flash" in board and "C3 Messages 接口 · cl-sonnet-4-5-20250929" in board
    assert "chat completions" not in board and "chat completions" not in str(grid) and "对话补全接口" in str(grid)
