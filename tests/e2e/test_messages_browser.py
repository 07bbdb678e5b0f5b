"""The Messages tab in a real browser: thinking section and answer, and the prompt-cache lab."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from playground.ui.i18n import english
from tests.e2e.pages import click_during_stream, open_tab, settled

pytestmark = pytest.mark.browser
BOT = "#messages-chatbot .message.bot"


def open_messages_tab(page: Page) -> None:
    open_tab(page, "Messages", "#messages-input textarea")


def send(page: Page, text: str) -> None:
    page.fill("#messages-input textarea", text)
    page.locator("#messages-input textarea").press("Enter")


def test_thinking_section_and_answer(page: Page) -> None:
    open_messages_tab(page)
    page.locator("#messages-thinking input").check()
    send(page, "What is 15% of 240?")
    expect(page.locator("#messages-chatbot")).to_contain_text("Thinking", timeout=30_000)
    expect(page.locator(BOT).last).to_contain_text("36", timeout=30_000)
    expect(page.locator("#messages-metrics")).to_contain_text("finish: end_turn", timeout=30_000)
    page.locator("#messages-chatbot").get_by_text("Thinking").first.click()
    expect(page.locator("#messages-chatbot")).to_contain_text("This is arithmetic, so it can be worked out exactly.")
    expect(page.locator("#messages-token-count")).to_contain_text("input tokens", timeout=30_000)


def test_cache_lab_shows_a_read_on_the_second_send(page: Page) -> None:
    open_messages_tab(page)
    page.get_by_role("button", name="Prompt-cache lab").click()
    page.click("#messages-fill-document")
    expect(page.locator("#messages-cache-system input")).to_be_checked()
    send(page, "first question")
    expect(page.locator("#messages-cache-report")).to_contain_text("Cache written", timeout=30_000)
    send(page, "second question")
    expect(page.locator("#messages-chatbot")).to_contain_text("second question")
    expect(page.locator("#messages-cache-report")).to_contain_text("Cache hit", timeout=60_000)  # a reply of seconds, longer on a busy machine
    expect(page.locator("#messages-cache-report")).to_contain_text("% cheaper")


def test_stop_during_thinking_keeps_it_and_stops_the_spinner(page: Page) -> None:
    open_messages_tab(page)
    page.locator("#messages-thinking input").check()
    send(page, "think about a long story")
    expect(page.locator("#messages-chatbot")).to_contain_text("Thinking", timeout=30_000)
    click_during_stream(page, "#messages-stop")
    expect(page.locator("#messages-input textarea")).to_have_attribute("placeholder", english("conversation.idle"), timeout=60_000)  # the turn ended
    shown = settled(page, "#messages-chatbot", quiet_ms=800, tries=5)  # the reply would go on for many seconds had Stop not stopped it
    assert "think about a long story" in shown and "Thinking" in shown
    expect(page.locator("#messages-metrics")).to_contain_text(english("metrics.stopped"))  # stopped, not finished
