"""A prompt tried by hand moves to Batch unchanged, and back: "Send to Batch" carries a tab's system
prompt and message templates and the Variables panel's values (as a one-row data set), and the
Batch run sends them filled, over a real socket to the demo gateway; "Open in Chat" brings Batch's
templates and first row back to the Chat tab."""

from __future__ import annotations

import json
from typing import Any

import pytest

from playground.client.batch.dataset import Dataset
from playground.demo_gateway.server import RunningGateway
from playground.settings import Settings
from playground.ui.app import build_app
from playground.ui.shared.connection import ServerDefaults
from tests.conftest import DEMO_KEY
from tests.ui.page_model import PageModel

SYSTEM_BOX = {"chat": "chat-system", "responses": "responses-instructions", "messages": "messages-system", "native": "native-system"}


def _page(gateway: RunningGateway, tmp: Any) -> PageModel:
    return PageModel(build_app(Settings(read_timeout=10, data_dir=tmp), ServerDefaults(gateway.url, DEMO_KEY, demo=True)))


@pytest.mark.parametrize("tab", ["chat", "messages"])
async def test_send_to_batch_moves_the_templates_and_values_unchanged_and_the_run_sends_them(tab: str, gateway: RunningGateway,
                                                                                             tmp_path: Any) -> None:
    page = _page(gateway, tmp_path)
    page.set(page.component(SYSTEM_BOX[tab]), "You are {{persona}}.")
    page.set(page.component(f"{tab}-input"), {"text": "What is the capital of {{name}}?", "files": []})
    page.set(page.component(f"{tab}-variables-table"), [["name", "Peru"], ["persona", "a pirate"]])
    await page.click(f"{tab}-to-batch")
    assert page.get(page.component("batch-system")) == "You are {{persona}}."
    assert page.get(page.component("batch-user")) == "What is the capital of {{name}}?"
    state = page.get(page.dependency(page.component("batch-run"), "click").inputs[0])
    assert state.dataset.columns == ["persona", "name"] and state.dataset.rows == [{"persona": "a pirate", "name": "Peru"}]
    assert "**1 row**" in page.get(page.component("batch-data-status")) and f"the {tab.capitalize()} tab" in page.get(page.component("batch-data-status"))

    format_box, model_box = page.component("batch-format-0"), page.component("batch-model-0")
    page.set(format_box, tab)
    page.set(model_box, "cl-sonnet-4-5-20250929" if tab == "messages" else "gx-2.5-flash")
    page.set(page.component("batch-format-1"), "")
    await page.click("batch-run")
    grid = page.get(page.component("batch-grid"))
    answer = json.dumps(grid, ensure_ascii=False)
    assert "The capital of Peru is Lima." in answer, answer[:400]  # the filled prompt reached the gateway
    assert "{{" not in answer


async def test_open_in_chat_brings_the_templates_and_the_first_row_back(gateway: RunningGateway, tmp_path: Any) -> None:
    page = _page(gateway, tmp_path)
    page.set(page.component("batch-system"), "You are {{persona}}.")
    page.set(page.component("batch-user"), "Hi, I am {{name}}")
    state = page.get(page.dependency(page.component("batch-run"), "click").inputs[0])
    state.dataset = Dataset(["name", "persona"], [{"name": "Lin", "persona": "a poet"}, {"name": "Bo", "persona": "a cook"}])
    await page.click("batch-to-chat")
    assert page.get(page.component("chat-system")) == "You are {{persona}}."
    assert page.get(page.component("chat-input")) == {"text": "Hi, I am {{name}}", "files": []}
    assert page.get(page.component("chat-variables-table")) == [["name", "Lin"], ["persona", "a poet"]]
    await page.run(page.dependency(page.component("chat-input"), "submit"))  # and it sends, filled
    assert "You are a poet." in page.get(page.component("chat-inspector-request"))
    assert "Hi, I am Lin" in page.get(page.component("chat-inspector-request"))


async def test_after_sending_the_prompt_as_typed_moves_not_the_filled_text(gateway: RunningGateway, tmp_path: Any) -> None:
    page = _page(gateway, tmp_path)
    page.set(page.component("chat-input"), {"text": "Hi, I am {{name}}", "files": []})
    page.set(page.component("chat-variables-table"), [["name", "Ada"]])
    await page.run(page.dependency(page.component("chat-input"), "submit"))
    assert page.get(page.component("chat-input"))["text"] == ""  # the box was cleared by the send
    page.set(page.component("chat-system"), "Be {{mood}}.")
    table = page.component("chat-variables-table")
    await page.run(page.dependency(page.component("chat-variables-key"), "change"))  # the page's key of the placeholders changed
    assert page.get(table) == [["name", "Ada"], ["mood", ""]]  # the message as typed still counts: its value stays
    await page.click("chat-to-batch")
    assert page.get(page.component("batch-user")) == "Hi, I am {{name}}"
    state = page.get(page.dependency(page.component("batch-run"), "click").inputs[0])
    assert state.dataset.rows == [{"mood": "", "name": "Ada"}]
