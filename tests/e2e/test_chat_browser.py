"""The Chat tab in a real browser: streamed text appears, Stop halts a long reply, no key leaks."""

from __future__ import annotations

import urllib.request
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from playground.ui.shared.connection_panel import BROWSER_STORAGE_KEY
from tests.e2e.conftest import SERVER_KEY, RunningApp
from tests.e2e.pages import click_during_stream, settle

pytestmark = pytest.mark.browser
BOT = "#chat-chatbot .message.bot"


def last_bot_text(page: Page) -> str:
    bots = page.locator(BOT)
    return bots.nth(bots.count() - 1).inner_text() if bots.count() else ""


def send(page: Page, text: str) -> None:
    page.fill("#chat-input textarea", text)
    page.keyboard.press("Enter")


def test_typed_message_streams_into_the_chat(page: Page) -> None:
    send(page, "Hello from the browser, a long reply please")  # long: a reply that streams for seconds, so its growth is seen under load
    expect(page.locator("#chat-chatbot")).to_contain_text("Hello from the browser")
    lengths = []
    for _ in range(40):
        lengths.append(len(last_bot_text(page)))
        page.wait_for_timeout(40)
    expect(page.locator(BOT).last).to_contain_text("offline demo gateway", timeout=30_000)
    partial = [n for n in lengths if 0 < n < len(last_bot_text(page))]
    assert len(set(partial)) >= 2, f"expected to see the reply grow, saw lengths {lengths}"
    expect(page.locator("#chat-metrics")).to_contain_text("tokens/s", timeout=60_000)
    expect(page.locator("#chat-input textarea")).to_have_value("")


def test_stop_halts_a_long_reply_and_keeps_the_partial_text(page: Page) -> None:
    send(page, "tell me a long story")
    expect(page.locator(BOT).last).to_contain_text("demo gateway streams", timeout=30_000)
    click_during_stream(page, "#chat-stop")
    page.wait_for_timeout(800)
    stopped = last_bot_text(page)
    page.wait_for_timeout(1200)
    assert last_bot_text(page) == stopped, "text kept growing after Stop"
    assert "offline demo gateway" in stopped and len(stopped) < 4000
    send(page, "What is 5 + 6?")
    expect(page.locator(BOT).last).to_contain_text("5 + 6 = 11", timeout=30_000)
    assert stopped[:200] in page.locator("#chat-chatbot").inner_text()


def test_gateway_error_shows_a_banner_and_keeps_the_conversation(page: Page) -> None:
    send(page, "first message")
    expect(page.locator("#chat-metrics")).to_contain_text("finish: stop", timeout=30_000)
    send(page, "break it [[fault:stream_error]]")
    expect(page.locator("#chat-error")).to_contain_text("The gateway reported an error during the reply", timeout=30_000)
    expect(page.locator("#chat-chatbot")).to_contain_text("first message")
    expect(page.locator("#chat-chatbot")).to_contain_text("break it")


def test_server_key_is_never_sent_to_the_browser(page: Page, app_server: RunningApp) -> None:
    with urllib.request.urlopen(app_server.url + "/config") as response:
        config = response.read().decode()
    assert SERVER_KEY not in config and SERVER_KEY not in page.content()
    typed = "sk-typed-by-user-123"
    set_key(page, typed, remember=False)
    assert reloaded_key(page) == "", "without opting in the key is not kept in the browser"
    set_key(page, typed, remember=True)
    assert reloaded_key(page) == typed, "opting in keeps the key across reloads"
    open_connection(page)
    stored(page, lambda: page.locator("#connection-remember input").uncheck())
    assert reloaded_key(page) == ""


def open_connection(page: Page) -> None:
    if not page.locator("#connection-key input").is_visible():
        page.get_by_text("Connection", exact=True).click()


def set_key(page: Page, key: str, remember: bool) -> None:
    open_connection(page)

    def type_key() -> None:
        page.fill("#connection-key input", key)
        page.locator("#connection-remember input").set_checked(remember)

    stored(page, type_key)


def stored(page: Page, action: Callable[[], object]) -> None:
    """Do `action` and wait until the browser has rewritten the kept connection: the page writes
    it once the change's answer is applied, which under load can be after the request finished
    (each write is encrypted afresh, so a write always changes the stored text)."""
    before = page.evaluate("key => localStorage.getItem(key)", BROWSER_STORAGE_KEY)
    settle(page, action)
    page.wait_for_function("([key, before]) => localStorage.getItem(key) !== before", arg=[BROWSER_STORAGE_KEY, before])


def reloaded_key(page: Page) -> str:
    """Reload, wait for the page-load chain (restore, then the connection check), read the key box."""
    page.reload()
    page.wait_for_selector("#chat-input textarea")
    open_connection(page)
    expect(page.locator("#connection-status")).not_to_be_empty(timeout=30_000)
    return page.locator("#connection-key input").input_value()
