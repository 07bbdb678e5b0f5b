"""Hosted mode in a real browser: a visitor's loopback base URL is refused and nothing reaches it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.server import free_port, start_in_thread
from playground.settings import Settings
from playground.ui.app import build_app, configure_queue, launch_options
from playground.ui.shared.connection import ServerDefaults
from tests.e2e.pages import open_accordion, open_tab
from tests.recorder import Recorder

pytestmark = pytest.mark.browser
KEY = "sk-hosted-server-key-42"


@pytest.fixture(scope="module")
def hosted_url() -> Iterator[str]:
    gateway = start_in_thread(DemoConfig(api_key=KEY, token_delay=0.0))
    settings = Settings(hosted=True, read_timeout=10)
    blocks = configure_queue(build_app(settings, ServerDefaults(gateway.url, KEY, demo=True, hosted=True)))
    port = free_port()
    blocks.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, quiet=True, **launch_options(settings))
    yield f"http://127.0.0.1:{port}"
    blocks.close()
    gateway.stop()


@pytest.fixture
def hosted_page(browser: Browser, hosted_url: str) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.goto(hosted_url)
    page.wait_for_selector("#chat-input textarea")
    yield page
    context.close()


def test_a_loopback_base_url_is_refused_and_never_reached(hosted_page: Page) -> None:
    page = hosted_page
    expect(page.locator("#gateway-badge")).to_contain_text("Public app")
    with Recorder().running() as recorder:
        page.click("#connection-panel")
        page.fill("#connection-url textarea", f"{recorder.url}")
        page.click("#connection-test")
        expect(page.locator("#connection-status")).to_contain_text("does not connect there", timeout=30_000)
        page.fill("#chat-input textarea", "hello")
        page.keyboard.press("Enter")
        expect(page.locator("#chat-error")).to_contain_text("This address is not allowed here", timeout=30_000)
        page.fill("#connection-url textarea", f"{recorder.url}/internal/admin?")
        page.click("#connection-test")
        expect(page.locator("#connection-status")).to_contain_text("remove the ? or # part", timeout=30_000)
        assert recorder.requests == []
        assert "internal admin page" not in page.locator("body").inner_text()
    page.fill("#connection-url textarea", "")
    page.fill("#chat-input textarea", "What is the capital of Chile?")  # the server's own gateway still works
    page.keyboard.press("Enter")
    expect(page.locator("#chat-chatbot")).to_contain_text("Santiago", timeout=30_000)


def test_the_report_load_run_settings_are_shown_disabled(browser: Browser, hosted_url: str) -> None:
    """Hosted, the load run is off: its settings and its button are shown disabled (at 1280x720), with why."""
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        page = context.new_page()
        page.goto(hosted_url)
        page.wait_for_selector("#chat-input textarea")
        open_tab(page, "Report", "#report-run")
        open_accordion(page, "Load run (local mode only)", "#report-load-refused")
        expect(page.locator("#report-load-refused")).to_contain_text("The load run is off in hosted mode")
        for control in ("#report-load-format input", "#report-load-model textarea", "#report-load-max input[type=number]",
                        "#report-load-max input[type=range]", "#report-load-stop-rate input", "#report-load-run"):
            expect(page.locator(control)).to_be_disabled()
        expect(page.locator("#report-run")).to_be_enabled()
    finally:
        context.close()
