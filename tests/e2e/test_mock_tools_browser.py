"""Mocked tools in a real browser, on Chat: the one-click example declares get_weather with a
template answer and offers it; the model's call is answered by the mock (no tool panel waits for the
person), the final answer uses the mock's values, and the panel's log shows the call and its answer."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.server import start_in_thread
from playground.settings import Settings
from playground.ui.app import build_app, configure_queue, launch_options
from playground.ui.shared.connection import ServerDefaults

pytestmark = pytest.mark.browser
KEY = "sk-mock-browser-4711"
PORT = 7501


@pytest.fixture(scope="module")
def app_url() -> Iterator[str]:
    gateway = start_in_thread(DemoConfig(api_key=KEY, token_delay=0.0))
    blocks = configure_queue(build_app(Settings(read_timeout=10), ServerDefaults(gateway.url, KEY, demo=True)))
    blocks.launch(server_name="127.0.0.1", server_port=PORT, prevent_thread_lock=True, quiet=True, **launch_options())
    yield f"http://127.0.0.1:{PORT}"
    blocks.close()
    gateway.stop()


@pytest.fixture
def page(browser: Browser, app_url: str) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    tab = context.new_page()
    tab.goto(app_url)
    tab.wait_for_selector("#chat-input textarea")
    yield tab
    context.close()


def open_mock_panel(page: Page) -> None:
    deadline = time.monotonic() + 60
    while True:
        page.locator("#chat-mock").get_by_text("Mocked tools", exact=True).first.click()
        try:
            page.locator("#chat-mock-example").wait_for(state="visible", timeout=10_000)
            return
        except PlaywrightTimeoutError:
            if time.monotonic() > deadline:
                raise


def test_the_example_mock_answers_the_call_and_the_answer_uses_it(page: Page) -> None:
    open_mock_panel(page)
    page.click("#chat-mock-example")
    expect(page.locator("#chat-mock-status")).to_contain_text("get_weather is declared", timeout=20_000)
    expect(page.locator("#chat-input textarea")).to_have_value("What is the weather in Paris?")
    expect(page.locator("#chat-mock-json")).to_contain_text('"kind": "template"')  # the list Compare and Batch take
    page.locator("#chat-input textarea").press("Enter")
    bot = page.locator("#chat-chatbot .message.bot")
    expect(bot.last).to_contain_text("18 °C", timeout=30_000)
    expect(bot.last).to_contain_text("Paris")
    expect(page.locator("#chat-chatbot")).to_contain_text("Tool result of")
    expect(page.locator("#chat-mock-log")).to_contain_text('"temperature_c": 18', timeout=10_000)
    expect(page.locator("#chat-mock-status")).to_contain_text("answered by its mock")
    expect(page.locator("#chat-tool-panel").first).to_be_hidden()
