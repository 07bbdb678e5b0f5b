"""MCP tools in a real browser, against the shipped demo MCP server: on Chat, Messages and Native,
the one-click example connects it and offers its tools; the model's first call is approved, the
second's arguments are edited before approving, the third is refused, and the model's answers use
the results (the refusal included). The MCP exchanges show in the panel's inspector box."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.server import start_in_thread
from playground.demo_mcp.server import start_in_thread as start_mcp
from playground.ui.shared.connection import ServerDefaults
from tests.e2e.pages import open_accordion, open_tab
from tests.e2e.conftest import fresh_page, running_app

pytestmark = pytest.mark.browser
KEY = "sk-mcp-browser-4711"
TABS = [("chat", "Chat"), ("messages", "Messages"), ("native", "Native")]


@pytest.fixture(scope="module")
def app_url() -> Iterator[str]:
    gateway = start_in_thread(DemoConfig(api_key=KEY, token_delay=0.0))
    mcp = start_mcp()
    with running_app(replace(ServerDefaults(gateway.url, KEY, demo=True), mcp_url=mcp.url, mcp_demo=True)) as url:
        yield url
    mcp.stop()
    gateway.stop()


@pytest.fixture
def page(browser: Browser, app_url: str) -> Iterator[Page]:
    yield from fresh_page(browser, app_url)


def open_mcp_panel(page: Page, prefix: str) -> None:
    open_accordion(page, "MCP tools", f"#{prefix}-mcp-example", within=f"#{prefix}-mcp")


def review(page: Page, prefix: str) -> Locator:
    """The review of a call (Gradio gives a group's id to its outer and inner element)."""
    return page.locator(f"#{prefix}-mcp-review").first


def ask(page: Page, prefix: str, text: str | None, tool: str) -> None:
    """Send `text` (None: the message the example put in the box) and wait for the model's call of `tool`."""
    if text is not None:
        page.fill(f"#{prefix}-input textarea", text)
    page.locator(f"#{prefix}-input textarea").press("Enter")
    expect(review(page, prefix)).to_be_visible(timeout=30_000)
    expect(page.locator(f"#{prefix}-mcp-call")).to_contain_text(tool, timeout=30_000)


@pytest.mark.parametrize(("prefix", "name"), TABS)
def test_approve_edit_and_refuse_against_the_demo_mcp_server(page: Page, prefix: str, name: str) -> None:
    if prefix != "chat":
        open_tab(page, name, f"#{prefix}-input textarea")
    open_mcp_panel(page, prefix)
    page.click(f"#{prefix}-mcp-example")
    expect(page.locator(f"#{prefix}-mcp-status")).to_contain_text("3 tools", timeout=30_000)
    expect(page.locator(f"#{prefix}-mcp-schemas")).to_contain_text("convert_units")
    expect(page.locator(f"#{prefix}-input textarea")).to_have_value("What is 17*23 with the calculator?")
    bot = page.locator(f"#{prefix}-chatbot .message.bot")

    ask(page, prefix, None, "calculator")
    expect(page.locator(f"#{prefix}-mcp-arguments")).to_contain_text("17*23")
    page.click(f"#{prefix}-mcp-approve")
    expect(bot.last).to_contain_text("391", timeout=30_000)
    expect(review(page, prefix)).to_be_hidden()
    expect(page.locator(f"#{prefix}-mcp-exchanges")).to_contain_text("tools/call")

    ask(page, prefix, "Convert 10 km to mi with convert_units", "convert_units")
    editor = page.locator(f"#{prefix}-mcp-arguments .cm-content")
    editor.click()
    page.keyboard.press("Control+A")
    page.keyboard.type('{"value": 20, "from_unit": "km", "to_unit": "mi"}')
    page.click(f"#{prefix}-mcp-approve")
    expect(bot.last).to_contain_text("12.42", timeout=30_000)

    ask(page, prefix, "Look up the element sodium with lookup_element", "lookup_element")
    page.click(f"#{prefix}-mcp-refuse")
    expect(bot.last).to_contain_text("refused", timeout=30_000)
    expect(page.locator(f"#{prefix}-mcp-status")).to_contain_text("lookup_element was refused")
    expect(page.locator(f"#{prefix}-chatbot")).not_to_contain_text("alkali metal")
