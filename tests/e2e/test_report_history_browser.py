"""The Report's history and client rows in a real browser: the quick report run twice (the second
time on a gateway with planted deviations), both picked in the history and compared (what broke
shows), the client readiness rows under the matrix (anthropic not ready), and a chat stream
without [DONE] marked failing strictly with its compatible pass beside it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.server import start_in_thread
from playground.settings import Settings
from playground.ui.app import build_app, configure_queue, launch_options
from playground.ui.shared.connection import ServerDefaults
from tests.e2e.conftest import SERVER_KEY, RunningApp
from tests.e2e.pages import compare_kept_reports, open_tab

pytestmark = pytest.mark.browser
APP_PORT, CLEAN_PORT, PLANTED_PORT = 7551, 7552, 7553
"""This test's own app and gateways (a data directory of its own, so the history holds only its reports)."""


@pytest.fixture(scope="module")
def own_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RunningApp, str]]:
    clean = start_in_thread(DemoConfig(api_key=SERVER_KEY, token_delay=0.0), port=CLEAN_PORT)
    planted = start_in_thread(DemoConfig(api_key=SERVER_KEY, token_delay=0.0, quirks=("no-done@gpt-4o-mini", "drop-usage@cl-sonnet-4-5-20250929")),
                              port=PLANTED_PORT)
    settings = Settings(read_timeout=10, data_dir=tmp_path_factory.mktemp("report-history-data"))
    blocks = configure_queue(build_app(settings, ServerDefaults(clean.url, SERVER_KEY, demo=True)))
    blocks.launch(server_name="127.0.0.1", server_port=APP_PORT, prevent_thread_lock=True, quiet=True, **launch_options())
    yield RunningApp(f"http://127.0.0.1:{APP_PORT}", clean), planted.url
    blocks.close()
    clean.stop()
    planted.stop()


@pytest.fixture
def own_page(browser: Browser, own_app: tuple[RunningApp, str]) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    tab = context.new_page()
    tab.goto(own_app[0].url)
    tab.wait_for_selector("#chat-input textarea")
    yield tab
    context.close()


def run_quick_report(page: Page, expected: str) -> None:
    page.click("#report-run")
    expect(page.locator("#report-summary")).to_contain_text(expected, timeout=180_000)
    expect(page.locator("#report-summary")).not_to_contain_text("checks done", timeout=180_000)  # the run's last summary, not a progress line
    expect(page.locator('#report-downloads a[href$="gateway-report.html"]')).to_be_visible(timeout=60_000)


def test_two_quick_reports_compared_in_the_history_and_the_client_rows(own_page: Page, own_app: tuple[RunningApp, str]) -> None:
    page = own_page
    open_tab(page, "Report", "#report-run")
    run_quick_report(page, "Compatible verdicts")
    expect(page.locator("#report-matrix-table td.fail")).to_have_count(0)
    clients = page.locator("#report-clients")
    expect(clients.locator('tr[data-client="openai"] td.ready')).to_be_visible()

    page.click("#connection-panel")
    page.fill("#connection-url textarea", own_app[1])
    page.fill("#connection-key input", SERVER_KEY)
    run_quick_report(page, "carry no usage")
    stream = page.locator('#report-matrix-table td.fail[data-cell="chat|gpt-4o-mini|stream"]')
    expect(stream.locator("sup.compat")).to_have_text("✓")
    assert "the official clients of this format accept it" in (stream.get_attribute("title") or "")
    expect(clients.locator('tr[data-client="anthropic"] td.not_ready')).to_have_text("not ready")
    expect(clients.locator('tr[data-client="anthropic"]')).to_contain_text("messages · cl-sonnet-4-5-20250929 · plain answer")
    expect(clients.locator('tr[data-client="openai"] td.ready')).to_be_visible()  # no [DONE], no usage in chat: openai reads both

    diff = compare_kept_reports(page, own_app[0].gateway.url, own_app[1])
    expect(diff).to_contain_text("Broke", timeout=30_000)
    expect(diff).to_contain_text("chat completions · gpt-4o-mini · stream conformance")
    expect(diff).to_contain_text("messages · cl-sonnet-4-5-20250929 · plain answer")
