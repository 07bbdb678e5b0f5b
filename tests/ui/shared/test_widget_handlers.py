"""The shared widgets' named handlers, taken from the built page (the functions its events run)
and called with the values a browser sends: presets, prices, the guide, Copy link, branches,
the Variables panel and moving a prompt between Chat and Batch."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import gradio as gr
import pytest

from playground.client.batch.dataset import Dataset
from playground.settings import Settings
from playground.ui.app import build_app
from playground.ui.conversation.branches import picked_message
from playground.ui.conversation.prompt_move import BatchSend, open_in_chat
from playground.ui.conversation.template_vars import variables_changed
from playground.ui.conversation.turns import Session
from playground.ui.shared.connection import ServerDefaults
from playground.ui.shared.guide import first_visit, toggle
from playground.ui.shared.links import show_link
from playground.ui.shared.prices import MAX_CSV_BYTES


@pytest.fixture(scope="module")
def page() -> Iterator[Any]:
    yield build_app(Settings(), ServerDefaults("http://127.0.0.1:9", "sk-unused", demo=True))


def wired(page: Any, elem_id: str, event: str) -> Any:
    component = next(block for block in page.blocks.values() if getattr(block, "elem_id", None) == elem_id)
    return next(fn.fn for fn in page.fns.values() if (component._id, event) in fn.targets)


def skipped(value: Any) -> bool:
    return isinstance(value, dict) and value.get("__type__") == "update" and set(value) == {"__type__"}


def test_a_tabs_preset_bar_saves_picks_and_deletes_its_fields(page: Any) -> None:
    save = wired(page, "chat-preset-save", "click")
    bar = save.__self__
    values = [None] * len(bar.fields)
    values[bar.fields.index("model")] = "gx-2.5-pro"
    store, message, picker = save({"tabs": {}}, " terse ", *values)
    assert "terse" in message and picker["value"] == "terse" and picker["choices"] == ["terse"]
    assert bar.on_focus(store)["choices"] == ["terse"] and wired(page, "responses-preset-pick", "focus")(store)["choices"] == []
    picked = bar.on_pick(store, "terse")
    assert len(picked) == len(bar.fields) and picked[bar.fields.index("model")] == "gx-2.5-pro"
    assert all(skipped(value) for value in bar.on_pick(store, "not saved"))
    store, message, picker = bar.on_delete(store, "terse")
    assert store == {"tabs": {"chat": {}}} and picker["value"] is None and "terse" in message


def test_the_price_editor_applies_a_whole_table_and_refuses_a_broken_one(page: Any, tmp_path: Path) -> None:
    editor = wired(page, "batch-prices-table", "input").__self__
    status, saved = editor.edited([["gx-2.5-flash", 0.3, 2.5, None]])
    assert "1" in status and saved["rows"][0][0] == "gx-2.5-flash"
    status, saved = editor.edited([["gx-2.5-flash", "cheap", 2.5, None]])
    assert "⚠" in status and skipped(saved)
    assert editor.restore({"rows": "garbage"}) == {"data": [["", None, None, None]], "headers": ["model", "input $/1M", "output $/1M", "cached input $/1M"]}
    csv = tmp_path / "prices.csv"
    csv.write_text("model,input,output,cached_input\ngx-2.5-pro,1.25,10,0.3\n")
    shown, status, saved = editor.imported(str(csv))
    assert shown["data"][0][0] == "gx-2.5-pro" and "1" in status and saved == {"rows": shown["data"]}
    csv.write_bytes(b"x" * (MAX_CSV_BYTES + 1))
    rows, status, saved = editor.imported(str(csv))
    assert skipped(rows) and skipped(saved) and f"{MAX_CSV_BYTES:,}" in status
    assert all(skipped(value) for value in editor.imported(None))


def test_the_guide_opens_the_tour_once_and_toggles_the_shortcuts() -> None:
    assert first_visit(False).open is True and first_visit(True).open is False
    panel, shown = toggle(False)
    assert panel["visible"] is True and shown is True
    panel, shown = toggle(True)
    assert panel["visible"] is False and shown is False


def test_copy_link_shows_the_link_its_script_wrote() -> None:
    shown = show_link("images", "gx-image", "a red fox", "", "http://page/?tab=images")
    assert shown["value"] == "http://page/?tab=images" and shown["visible"] is True


def test_the_branch_bar_branches_and_switches_through_its_handlers(page: Any) -> None:
    bar = wired(page, "chat-branch", "click").__self__
    assert picked_message(gr.SelectData(None, {"index": [2, 0], "value": "x"})) == 2
    history = [{"role": "user", "content": "one"}, {"role": "assistant", "content": "1"},
               {"role": "user", "content": "two"}, {"role": "assistant", "content": "2"}]
    session = Session(messages=[{"role": "user", "content": "one"}, {"role": "assistant", "content": "1"},
                                {"role": "user", "content": "two"}, {"role": "assistant", "content": "2"}])
    session.shown = list(history)
    shown, state, picker, _, _ = bar.branch(session, 1)
    assert [m["content"] for m in shown] == ["one", "1"] and state.branch == 1 and picker["visible"] is True
    shown, state, picker, _, _ = bar.switch(state, 0)
    assert [m["content"] for m in shown] == ["one", "1", "two", "2"] and state.branch == 0 and picker["value"] == 0
    chat, state, _, notice, _ = bar.branch(Session(), None)
    assert skipped(chat) and notice["visible"] is True, "a note leaves the chat alone"


def test_the_variables_panel_follows_the_placeholders_typed() -> None:
    panel, rows = variables_changed([["city", "Paris"]], None, {"text": "Weather in {{city}} on {{day}}?", "files": []}, "")
    assert panel["visible"] is True and rows == {"headers": ["variable", "value"], "data": [["city", "Paris"], ["day", ""]]}
    panel, rows = variables_changed([], None, {"text": "No placeholders", "files": []})
    assert panel["visible"] is False and skipped(rows)
    typed = Session()
    typed.typed = "Again {{city}}"
    panel, rows = variables_changed([["city", "Rome"]], typed, {"text": "", "files": []})
    assert panel["visible"] is True and rows["data"] == [["city", "Rome"]], "after a send the message as typed counts"


def test_a_prompt_moves_to_batch_and_back(page: Any) -> None:
    send = wired(page, "messages-to-batch", "click")
    assert isinstance(send.__self__, BatchSend) and send.__self__.tab == "messages"
    received: list[Any] = []
    mover = BatchSend("messages", lambda state, *prompt: (received.append(prompt) or ("batch",)))
    *_, opened = mover.send(None, {"text": "Capital of {{country}}?", "files": []}, "Be brief", [["country", "France"]], None)
    system, user, dataset = received[0]
    assert (system, user, dataset.rows) == ("Be brief", "Capital of {{country}}?", [{"country": "France"}]) and opened["selected"] == "batch"
    state = type("BatchState", (), {"dataset": Dataset(["country"], [{"country": "Peru"}], "pasted")})()
    system, draft, rows, panel, opened = open_in_chat(state, "Be brief", "Capital of {{country}}?")
    assert draft == {"text": "Capital of {{country}}?", "files": []} and rows["data"] == [["country", "Peru"]]
    assert panel["visible"] is True and opened["selected"] == "chat"
