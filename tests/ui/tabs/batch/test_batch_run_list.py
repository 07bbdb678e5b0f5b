"""The Batch tab's kept runs: two real runs against the demo gateway found by data set, model and
date, a line clicked opens its run (views and the browser's last run), a date that is not a date
is named, and the list reads in Chinese. (Hosted mode, where a visitor lists only their own runs:
tests/security/test_batch_ownership.py.)"""

from __future__ import annotations

import datetime as dt
from typing import Any

import gradio as gr

from playground.store import runs as stored
from playground.ui.tabs.batch.handlers import BatchHandlers, BatchState
from playground.ui.tabs.batch.run_list import ID_SHOWN
from tests.ui.i18n.test_i18n_views import chinese
from tests.ui.tabs.batch.test_batch_events import COLUMNS, FORM, USER, handlers  # noqa: F401 - the fixture


def _today() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%d")


async def _run(handlers: BatchHandlers, rows: str, models: tuple[str, str]) -> str:  # noqa: F811
    batch = BatchState()
    await handlers.on_paste(batch, rows, "", USER)
    form = list(FORM)
    form[3], form[5] = models
    await handlers.on_run(batch, "", "", *form)
    async for _ in handlers.on_watch(batch):
        pass
    return batch.run_id


def _clicked(line: list[Any]) -> gr.SelectData:
    return gr.SelectData(None, {"index": [0, 0], "value": line[0], "row_value": line, "col_value": None, "selected": True})


async def test_kept_runs_are_found_by_data_set_model_and_date_and_open(handlers: BatchHandlers) -> None:  # noqa: F811
    started = _today()  # the runs' day in UTC (two days when they are made across midnight)
    first = await _run(handlers, "What is 2 plus 2?\nCapital of France?", ("gx-2.5-flash", "gpt-4.1"))
    second = await _run(handlers, "Name a colour", ("gx-2.5-flash", "gx-2.5-pro"))
    ended = _today()
    batch = BatchState()
    found, value, note = handlers.on_find(batch, "", "", "", "")
    assert found is batch and batch.listed == [second, first] and "2 runs" in note
    assert value["headers"][-1] == "run" and [line[-1] for line in value["data"]] == [second[:ID_SHOWN], first[:ID_SHOWN]]
    assert value["data"][1][1:7] == ["pasted", "gx-2.5-flash, gpt-4.1", "2 × 1", "4 / 4", 0, "50%"]  # the grader: contains "4"
    assert handlers.on_find(batch, "", "GPT-4.1", "", "")[0].listed == [first]
    assert handlers.on_find(batch, "", "pro", started, ended)[0].listed == [second]
    assert handlers.on_find(batch, "", "", "2000-01-01", "2000-12-31")[0].listed == []
    assert handlers.on_find(batch, "no such data set", "", "", "")[2] == "No kept run matches."
    _, value, _ = handlers.on_find(batch, "", "", "", "")

    opened = handlers.on_open_listed(batch, _clicked(value["data"][1]))
    assert batch.run_id == first and opened[-2] == {"run_id": first} and "Capital of France?" in str(opened[3])
    assert handlers.on_open_listed(BatchState(listed=[]), _clicked(value["data"][1]))[-1] == "That run cannot be opened any more."

    refused = handlers.on_find(batch, "", "", "27/11/2026", "")
    assert refused[0].listed == [] and "From (YYYY-MM-DD, UTC): write a date as YYYY-MM-DD" in refused[2]
    with chinese():
        words = handlers.on_find(batch, "", "", "", "")
        assert "最新的在前" in words[2] and words[1]["headers"][0] == "开始时间（UTC）"
        assert "请按 YYYY-MM-DD 写日期" in handlers.on_find(batch, "", "", "", "tomorrow")[2]


async def test_a_run_file_the_store_refused_is_named_under_the_list(handlers: BatchHandlers) -> None:  # noqa: F811
    handlers.runs.database.call(stored.record_import, "f" * 32 + ".jsonl", 10, 1.0, "", "not a run file that can be read: an empty run file", 1.0)
    note = handlers.on_find(BatchState(), "", "", "", "")[2]
    assert "Run files not imported: " + "f" * 32 + ".jsonl (not a run file that can be read: an empty run file)" in note


def test_the_empty_grid_and_runs_list_have_headings_in_the_pages_language_and_a_shown_run_is_kept(handlers: BatchHandlers) -> None:  # noqa: F811
    """They showed Gradio's "1 | 2 | 3" until a run filled them."""
    _, _, grid, runs = handlers.on_language(BatchState(), 0.7, 0, True)
    assert grid["headers"] == ["row", "repeat", "answers"] and grid["data"] == [["", "", "The answers appear here after Run."]]
    assert runs["headers"][0] == "started (UTC)" and runs["headers"][-1] == "run" and runs["data"] == [[""] * len(runs["headers"])]
    with chinese():
        _, _, grid, runs = handlers.on_language(BatchState(), 0.7, 0, True)
    assert grid["headers"][2] == "回答" and runs["headers"][0] == "开始时间（UTC）"
    shown = handlers.on_language(BatchState(run_id="0" * 32, listed=["0" * 32]), 0.7, 0, True)
    assert shown[2] == gr.skip() and shown[3] == gr.skip(), "the switch leaves a run's grid and a found list as they are"
