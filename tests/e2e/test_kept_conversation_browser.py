"""A conversation survives a reload in a real browser: the chat shows it again, the next request carries
it, Clear empties what the browser keeps, and no key is in the browser's storage."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from playground.ui.session_files.kept import STORAGE_KEY
from tests.e2e.conftest import SERVER_KEY
from tests.e2e.test_chat_browser import BOT, send

pytestmark = pytest.mark.browser
KEPT = STORAGE_KEY.format(tab="chat")


def _written(page: Page, before: str | None) -> None:
    """Wait until the page has rewritten the kept conversation (it writes once an action's answer is applied)."""
    page.wait_for_function("([key, before]) => localStorage.getItem(key) !== before", arg=[KEPT, before], timeout=30_000)


def _reloaded(page: Page) -> None:
    page.reload()
    page.wait_for_selector("#chat-input textarea")


def test_a_reload_brings_the_conversation_back_and_the_next_request_carries_it(page: Page) -> None:
    before = page.evaluate("key => localStorage.getItem(key)", KEPT)
    send(page, "What is 5 + 6?")
    expect(page.locator(BOT).last).to_contain_text("5 + 6 = 11", timeout=30_000)
    _written(page, before)
    stored = page.evaluate("() => JSON.stringify(Object.assign({}, localStorage))")
    assert SERVER_KEY not in stored and "What is 5 + 6?" not in stored, "kept encrypted, and never the key"

    _reloaded(page)
    expect(page.locator("#chat-chatbot")).to_contain_text("5 + 6 = 11", timeout=30_000)
    one_turn = page.evaluate("key => localStorage.getItem(key)", KEPT)
    send(page, "What is 2 + 2?")
    expect(page.locator(BOT).last).to_contain_text("2 + 2 = 4", timeout=30_000)
    _written(page, one_turn)
    page.click("#chat-inspector")
    request = page.locator("#chat-inspector-request")
    expect(request).to_contain_text("What is 5 + 6?", timeout=30_000)  # the kept turn went out with the new one
    expect(request).to_contain_text("What is 2 + 2?")

    kept = page.evaluate("key => localStorage.getItem(key)", KEPT)
    page.click("#chat-clear")
    _written(page, kept)
    _reloaded(page)
    page.wait_for_timeout(1500)  # the load's restore has run by now, and would have drawn the chat
    assert page.locator("#chat-chatbot .message").count() == 0
