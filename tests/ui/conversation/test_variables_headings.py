"""The Variables table's headings (issue 40) in the visitor's language: a table's headings are part of its value
(Gradio cannot translate them), so every writer of the table (the panel, a prompt opened from the library, "Open in
Chat") writes them in the visitor's language, and the header's language switch writes them again, its rows kept."""

from __future__ import annotations

from typing import Any

import gradio as gr
import pytest

from playground.client.batch.dataset import Dataset
from playground.settings import Settings
from playground.ui.app import build_app
from playground.ui.conversation.prompt_move import open_in_chat
from playground.ui.conversation.template_vars import variables_changed, variables_reworded
from playground.ui.i18n import CATALOGUE
from playground.ui.shared.connection import ServerDefaults
from playground.ui.tabs.batch.handlers import BatchState
from tests.ui.i18n.visitor import visitor

ZH = ["变量", "值"]
EN = ["variable", "value"]
TABS = ("chat", "responses", "messages", "native")


def test_the_headings_are_the_catalogues() -> None:
    assert [CATALOGUE.texts["zh-CN"][key] for key in ("batch_vars.heading_variable", "batch_vars.heading_value")] == ZH


def test_the_panel_writes_its_rows_under_headings_in_the_visitors_language() -> None:
    for language, headings in (("zh-CN", ZH), ("en", EN)):
        with visitor(language):
            shown, table = variables_changed([["name", "Ada"]], None, {"text": "Hi {{name}} from {{city}}", "files": []})
        assert shown["visible"] is True and table == {"headers": headings, "data": [["name", "Ada"], ["city", ""]]}
    with visitor("zh-CN"):
        _, table = variables_changed([], None, {"text": "no placeholders", "files": []})
    assert table == gr.skip(), "a hidden panel's table is left as it is"


def test_the_switch_rewrites_the_headings_and_keeps_the_rows() -> None:
    with visitor("zh-CN"):
        assert variables_reworded([["name", "Ada"], ["city", "Lima"]]) == {"headers": ZH, "data": [["name", "Ada"], ["city", "Lima"]]}
        assert variables_reworded([]) == gr.skip()


def test_open_in_chat_writes_the_headings_in_the_visitors_language() -> None:
    state = BatchState(dataset=Dataset(["name"], [{"name": "Lin"}]))
    with visitor("zh-CN"):
        _, _, table, shown, _ = open_in_chat(state, "", "Hello {{name}}")
    assert table == {"headers": ZH, "data": [["name", "Lin"]]} and shown["visible"] is True


@pytest.fixture(scope="module")
def app() -> gr.Blocks:
    return build_app(Settings(), ServerDefaults("http://127.0.0.1:9", "k", demo=True))


def _after(app: gr.Blocks, dependency: Any) -> set[int]:
    chained, grew = {dependency._id}, True
    while grew:
        following = {fn._id for fn in app.fns.values() if fn.trigger_after in chained} - chained
        chained |= following
        grew = bool(following)
    return chained


def test_every_conversation_tabs_table_is_reworded_after_the_language_switch(app: gr.Blocks) -> None:
    switch = next(block for block in app.blocks.values() if getattr(block, "elem_id", None) == "language-switch")
    switched = next(fn for fn in app.fns.values() if (switch._id, "input") in fn.targets)
    after = _after(app, switched)
    reworded = {block.elem_id for fn in app.fns.values() if fn._id in after and fn.fn is variables_reworded for block in fn.outputs}
    assert reworded == {f"{tab}-variables-table" for tab in TABS}
