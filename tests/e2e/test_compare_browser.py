"""The Compare tab in a real browser: the four-format preset streams four answers, then the table."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.pages import open_tab

pytestmark = pytest.mark.browser


def test_four_formats_stream_side_by_side_then_the_metrics_table(page: Page) -> None:
    open_tab(page, "Compare", "#compare-message textarea")
    page.fill("#compare-message textarea", "What is the capital of Spain?")
    page.click("#compare-send")
    for index in range(4):
        expect(page.locator(f"#compare-chat-{index} .message.bot").last).to_contain_text("Madrid", timeout=30_000)
    table = page.locator("#compare-table")
    expect(table).to_contain_text("time to first token", timeout=30_000)
    expect(table).to_contain_text("★")
    for label in ("chat completions", "responses", "messages", "native"):
        expect(table).to_contain_text(label)
    page.click("#compare-requests-panel")
    expect(page.locator("#compare-mapping")).to_contain_text("max_tokens = 1024")
