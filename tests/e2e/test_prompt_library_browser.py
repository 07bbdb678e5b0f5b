"""The prompt library in a real browser, on Chat: save the form as v1, edit the system prompt,
save v2, diff the two (shown as text), open v1 back into the tab (its system prompt and message
return, and the next send carries them), point the label production at it; then the one-click
example on Messages keeps "Explain like I'm five" v1 and v2 and opens v2 with its partial, and
Batch's example runs v1 and v2 in two columns whose leaderboard labels name them."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.server import start_in_thread
from playground.settings import Settings
from playground.ui.shared.connection import ServerDefaults
from tests.e2e.pages import open_accordion, open_tab
from tests.e2e.conftest import fresh_page, running_app

pytestmark = pytest.mark.browser
KEY = "sk-prompt-library-2024"


@pytest.fixture(scope="module")
def app_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    gateway = start_in_thread(DemoConfig(api_key=KEY, token_delay=0.0))
    with running_app(ServerDefaults(gateway.url, KEY, demo=True), Settings(read_timeout=10, data_dir=Path(tmp_path_factory.mktemp("library")))) as url:
        yield url
    gateway.stop()


@pytest.fixture
def page(browser: Browser, app_url: str) -> Iterator[Page]:
    yield from fresh_page(browser, app_url)


def open_library(page: Page, prefix: str) -> None:
    """Open the tab's Prompt library section (each text tab has one of that name)."""
    open_accordion(page, "Prompt library", f"#{prefix}-plib-example", within=f"#{prefix}-plib")


def pick_version(page: Page, dropdown: str, version: str) -> None:
    page.click(f"{dropdown} input")
    page.get_by_role("option", name=re.compile(rf"^{version}\b")).first.click()


def save(page: Page, prefix: str, number: int) -> None:
    page.click(f"#{prefix}-plib-save")
    expect(page.locator(f"#{prefix}-plib-status")).to_contain_text(f"v{number}", timeout=30_000)


def test_save_two_versions_diff_open_the_first_and_label_it(page: Page) -> None:
    open_library(page, "chat")
    page.fill("#chat-system textarea", "Explain like I'm five.")
    page.fill("#chat-input textarea", "Why is the sky blue?")
    page.fill("#chat-plib-name textarea", "Sky")
    save(page, "chat", 1)
    page.fill("#chat-system textarea", "Explain like I'm five.\nBe warm and brief.")
    page.fill("#chat-input textarea", "Why is the sea blue?")
    save(page, "chat", 2)
    page.click("#chat-plib-diff-button")
    expect(page.locator("#chat-plib-status")).to_contain_text("differ from v1 to v2", timeout=30_000)
    diff = page.locator("#chat-plib-diff")
    expect(diff).to_contain_text("+Be warm and brief.")
    expect(diff).to_contain_text("-Why is the sky blue?")
    expect(diff).to_contain_text("+Why is the sea blue?")
    pick_version(page, "#chat-plib-version", "v1")
    page.click("#chat-plib-open")
    expect(page.locator("#chat-plib-status")).to_contain_text("Opened “Sky” v1", timeout=30_000)
    expect(page.locator("#chat-system textarea")).to_have_value("Explain like I'm five.")
    expect(page.locator("#chat-input textarea")).to_have_value("Why is the sky blue?")
    page.fill("#chat-plib-label textarea", "production")
    page.click("#chat-plib-set-label")
    expect(page.locator("#chat-plib-status")).to_contain_text("production of “Sky” points at v1", timeout=30_000)
    page.locator("#chat-input textarea").press("Enter")
    expect(page.locator("#chat-chatbot .message.bot")).to_have_count(1, timeout=30_000)
    expect(page.locator("#chat-metrics")).to_contain_text("finish", timeout=30_000)
    page.click("#chat-inspector")
    request = page.locator("#chat-inspector-request")
    expect(request).to_contain_text("Explain like I'm five.")
    expect(request).to_contain_text("Why is the sky blue?")
    expect(request).not_to_contain_text("Be warm")


def test_the_example_keeps_two_versions_and_opens_the_second(page: Page) -> None:
    open_tab(page, "Messages", "#messages-input textarea")
    open_library(page, "messages")
    page.click("#messages-plib-example")
    expect(page.locator("#messages-plib-status")).to_contain_text("v2", timeout=30_000)
    expect(page.locator("#messages-system textarea")).to_have_value(re.compile("Be warm and use one everyday comparison"))
    expect(page.locator("#messages-input textarea")).to_have_value("What is {{topic}}? Answer in three sentences.")
    expect(page.locator("#messages-variables-table")).to_contain_text("topic", timeout=30_000)  # a loaded prompt's placeholders, found by the page
    expect(page.locator("#messages-plib-diff")).to_contain_text("+{{> friendly-tone}}")


def test_batch_runs_two_versions_of_a_library_prompt_in_two_columns(page: Page) -> None:
    open_tab(page, "Batch", "#batch-user textarea")
    page.click("#batch-prompt-example")
    expect(page.locator("#batch-data-status")).to_contain_text("3 rows", timeout=30_000)
    expect(page.locator("#batch-col-prompt-1 input")).to_have_value("Explain like I'm five (chat) @ v2")
    expect(page.locator("#batch-columns-used")).to_contain_text("Explain like I'm five (chat) @ v1", timeout=30_000)
    page.click("#batch-run")
    board = page.locator("#batch-leaderboard")
    expect(board).to_contain_text("prompt “Explain like I'm five (chat)” v1", timeout=60_000)
    expect(board).to_contain_text("prompt “Explain like I'm five (chat)” v2")
