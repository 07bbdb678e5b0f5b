"""Mocked tools in a real browser, on Chat: the one-click example declares get_weather with a
template answer and offers it; the model's call is answered by the mock (no tool panel waits for the
person), the final answer uses the mock's values, and the panel's log shows the call and its answer."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.pages import open_accordion

pytestmark = pytest.mark.browser


def open_mock_panel(page: Page) -> None:
    open_accordion(page, "Mocked tools", "#chat-mock-example", within="#chat-mock")


def test_the_example_mock_answers_the_call_and_the_answer_uses_it(page: Page) -> None:
    open_mock_panel(page)
    page.click("#chat-mock-example")
    expect(page.locator("#chat-mock-status")).to_contain_text("get_weather is declared", timeout=30_000)
    expect(page.locator("#chat-input textarea")).to_have_value("What is the weather in Paris?")
    expect(page.locator("#chat-mock-json")).to_contain_text('"kind": "template"')  # the list Compare and Batch take
    page.locator("#chat-input textarea").press("Enter")
    bot = page.locator("#chat-chatbot .message.bot")
    expect(bot.last).to_contain_text("18 °C", timeout=30_000)
    expect(bot.last).to_contain_text("Paris")
    expect(page.locator("#chat-chatbot")).to_contain_text("Tool result of")
    expect(page.locator("#chat-mock-log")).to_contain_text('"temperature_c": 18', timeout=30_000)
    expect(page.locator("#chat-mock-status")).to_contain_text("answered by its mock")
    expect(page.locator("#chat-tool-panel").first).to_be_hidden()
