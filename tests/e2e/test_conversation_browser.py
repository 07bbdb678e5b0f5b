"""The shared conversation in a real browser: Stop/Retry races, Esc, a sign while a reply runs,
the trash icon, and editing an earlier message."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from playground.ui.i18n import english

pytestmark = pytest.mark.browser
BOT = "#chat-chatbot .message.bot"


def send(page: Page, text: str) -> None:
    page.fill("#chat-input textarea", text)
    page.keyboard.press("Enter")


def error_badges(page: Page) -> int:
    return page.locator("#chat-chatbot .error, #chat-input .error, #chat-metrics .error").count()


def test_stop_and_retry_in_quick_succession_never_breaks_the_chat(page: Page) -> None:
    send(page, "tell me a long story")
    expect(page.locator(BOT).last).to_contain_text("demo gateway streams", timeout=30_000)
    for _ in range(10):
        page.wait_for_timeout(300)
        page.click("#chat-stop")
        page.click("#chat-retry")
        page.wait_for_timeout(250)
        page.click("#chat-stop")
        page.click("#chat-retry")
        assert error_badges(page) == 0
    expect(page.locator("#chat-input textarea")).to_have_attribute("placeholder", english("conversation.idle"), timeout=60_000)
    if "stopped" in page.locator("#chat-metrics").inner_text():
        # The last Retry came while the stopped reply was still settling and got the calm "a reply
        # is still on its way" note instead of a reply, as a person would see; they press it again.
        page.click("#chat-retry")
    expect(page.locator("#chat-metrics")).to_contain_text("finish: stop", timeout=60_000)
    assert error_badges(page) == 0
    expect(page.locator("#chat-chatbot")).to_contain_text("tell me a long story")
    assert page.locator("#chat-chatbot .message.user").count() == 1


def test_escape_stops_and_a_second_enter_says_a_reply_is_running(page: Page) -> None:
    send(page, "tell me a long story")
    expect(page.locator(BOT).last).to_contain_text("demo gateway streams", timeout=30_000)
    expect(page.locator("#chat-input textarea")).to_have_attribute("placeholder", english("conversation.replying"))
    send(page, "What is 8 + 8?")
    expect(page.locator("#chat-notice")).to_contain_text("A reply is still on its way")
    expect(page.locator("#chat-input textarea")).to_have_value("What is 8 + 8?")
    page.keyboard.press("Escape")
    page.wait_for_timeout(700)
    stopped = page.locator(BOT).last.inner_text()
    page.wait_for_timeout(1000)
    assert page.locator(BOT).last.inner_text() == stopped, "text kept growing after Esc"
    expect(page.locator("#chat-metrics")).to_contain_text("stopped")
    page.locator("#chat-input textarea").press("Enter")
    expect(page.locator(BOT).last).to_contain_text("8 + 8 = 16", timeout=30_000)


def test_trash_icon_clears_what_is_sent_too(page: Page) -> None:
    send(page, "remember the word banana")
    expect(page.locator("#chat-metrics")).to_contain_text("finish", timeout=30_000)
    page.locator("#chat-chatbot button[aria-label='Clear']").first.click()
    send(page, "what did I say?")
    expect(page.locator("#chat-metrics")).to_contain_text("finish", timeout=30_000)
    page.click("#chat-inspector")
    expect(page.locator("#chat-inspector-request")).not_to_contain_text("banana")


def test_editing_an_earlier_message_resends_from_there(page: Page) -> None:
    send(page, "What is 1 + 1?")
    expect(page.locator("#chat-metrics")).to_contain_text("finish", timeout=30_000)
    send(page, "What is 2 + 2?")
    expect(page.locator(BOT).last).to_contain_text("2 + 2 = 4", timeout=30_000)
    expect(page.locator("#chat-metrics")).to_contain_text("finish", timeout=30_000)
    first = page.locator("#chat-chatbot .message.user").first
    first.hover()
    page.locator("#chat-chatbot button[aria-label='Edit']").first.click()
    page.locator("#chat-chatbot textarea").first.fill("What is 3 + 3?")
    page.locator("#chat-chatbot button[aria-label='Submit']").first.click()
    expect(page.locator(BOT).last).to_contain_text("3 + 3 = 6", timeout=30_000)
    expect(page.locator("#chat-chatbot")).not_to_contain_text("What is 2 + 2?")
    page.click("#chat-inspector")
    expect(page.locator("#chat-inspector-request")).not_to_contain_text("What is 2 + 2?")
