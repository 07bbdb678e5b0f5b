"""What the conversation shows is what the next request sends, in a real browser: deleting a
turn by emptying it, Enter in an empty box, Retry at a moment it cannot do anything (issue 21)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.pages import click_during_stream, open_tab

pytestmark = pytest.mark.browser
CHAT = "#chat-chatbot"
BOT = f"{CHAT} .message.bot"
USER = f"{CHAT} .message.user"


def send(page: Page, text: str) -> None:
    page.fill("#chat-input textarea", text)
    expect(page.locator("#chat-input textarea")).to_have_value(text)
    page.keyboard.press("Enter")


def converse(page: Page, *texts: str) -> None:
    for text in texts:
        replies = page.locator(BOT).count()
        send(page, text)
        expect(page.locator(BOT)).to_have_count(replies + 1, timeout=30_000)  # a new reply: the demo's answer, which quotes no prompt
        expect(page.locator(BOT).last).to_contain_text("offline demo gateway", timeout=30_000)
        expect(page.locator("#chat-metrics")).to_contain_text("finish", timeout=30_000)


def sent_request(page: Page) -> str:
    if not page.locator("#chat-inspector-request").is_visible():
        page.click("#chat-inspector")
    return page.locator("#chat-inspector-request").inner_text()


def edit_user_message(page: Page, index: int, text: str) -> None:
    page.locator(USER).nth(index).hover()
    page.locator(f"{CHAT} button[aria-label='Edit']").nth(index).click()
    page.locator(f"{CHAT} textarea").first.fill(text)
    page.locator(f"{CHAT} button[aria-label='Submit']").first.click()


def test_deleting_a_turn_by_emptying_it_keeps_the_other_turns_on_screen_and_in_the_request(page: Page) -> None:
    converse(page, "alpha question", "beta question")
    edit_user_message(page, 0, "")
    expect(page.locator("#chat-notice")).to_contain_text("Deleted that turn")
    page.wait_for_timeout(1000)  # the streaming step that follows the edit must not blank the chatbot
    expect(page.locator(USER)).to_have_count(1)
    expect(page.locator(CHAT)).to_contain_text("beta question")
    expect(page.locator(CHAT)).not_to_contain_text("alpha question")
    converse(page, "gamma question")
    request = sent_request(page)
    assert "beta question" in request and "gamma question" in request and "alpha question" not in request
    expect(page.locator(USER)).to_have_count(2)


def test_enter_in_an_empty_box_is_a_calm_note_and_the_conversation_stays(page: Page) -> None:
    converse(page, "remember the word banana")
    page.locator("#chat-input textarea").press("Enter")
    expect(page.locator("#chat-notice")).to_contain_text("Type a message")
    page.wait_for_timeout(1000)
    expect(page.locator("#chat-error")).to_be_hidden()
    expect(page.locator(CHAT)).to_contain_text("remember the word banana")
    expect(page.locator("#chat-metrics")).to_contain_text("finish")
    converse(page, "and now?")
    expect(page.locator(USER)).to_have_count(2)
    assert "banana" in sent_request(page)


def test_responses_enter_in_an_empty_box_keeps_the_chain_and_the_screen(page: Page) -> None:
    open_tab(page, "Responses", "#responses-input textarea")
    page.wait_for_selector("#responses-input textarea")
    page.locator("#responses-chain input").check()
    page.fill("#responses-input textarea", "first link")
    page.locator("#responses-input textarea").press("Enter")
    expect(page.locator("#responses-chain-status")).to_contain_text("continues from response", timeout=30_000)
    page.locator("#responses-input textarea").press("Enter")
    expect(page.locator("#responses-notice")).to_contain_text("Type a message")
    page.wait_for_timeout(1000)
    expect(page.locator("#responses-chatbot")).to_contain_text("first link")
    expect(page.locator("#responses-error")).to_be_hidden()
    expect(page.locator("#responses-chain-status")).to_contain_text("continues from response")


def test_retry_with_nothing_to_retry_or_during_a_reply_is_a_calm_note(page: Page) -> None:
    page.click("#chat-retry")
    expect(page.locator("#chat-notice")).to_contain_text("no message to retry")
    expect(page.locator("#chat-error")).to_be_hidden()
    send(page, "tell me a long story [[fault:stall]]")  # a reply that stops arriving after a few words: still running at Stop
    arrived = page.locator(f"{BOT}:not(.pending)").last
    expect(arrived).to_have_text(re.compile(r"\w"), timeout=30_000)
    first_words = arrived.inner_text()
    page.click("#chat-retry")
    expect(page.locator("#chat-notice")).to_contain_text("still on its way")
    expect(page.locator("#chat-error")).to_be_hidden()
    expect(page.locator(BOT).last).to_contain_text(first_words)
    click_during_stream(page, "#chat-stop")
    expect(page.locator("#chat-metrics")).to_contain_text("stopped")
    expect(page.locator("#chat-notice")).to_be_hidden()
    expect(page.locator("#chat-error")).to_be_hidden()
    expect(page.locator(USER)).to_have_count(1)
