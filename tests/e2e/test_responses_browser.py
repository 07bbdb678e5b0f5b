"""The Responses tab in a real browser: a streamed reply with a reasoning summary, then a chained
follow-up that shows which response it continued from."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.pages import open_tab

pytestmark = pytest.mark.browser


def test_reasoning_summary_then_a_chained_follow_up(page: Page) -> None:
    open_tab(page, "Responses", "#responses-input textarea")
    page.fill("#responses-input textarea", "why is the sky blue?")
    page.locator("#responses-input textarea").press("Enter")
    expect(page.locator("#responses-chatbot")).to_contain_text("Thinking", timeout=30_000)
    expect(page.locator("#responses-metrics")).to_contain_text("finish: completed", timeout=30_000)
    expect(page.locator("#responses-metrics")).to_contain_text("reasoning")
    page.locator("#responses-chain input").check()
    status = page.locator("#responses-chain-status")
    expect(status).to_contain_text("continues from response resp_")
    first_id = status.inner_text().split("response ")[1].split()[0]
    page.fill("#responses-input textarea", "and at sunset?")
    page.locator("#responses-input textarea").press("Enter")
    expect(page.locator("#responses-metrics")).to_contain_text("finish: completed", timeout=30_000)
    page.click("#responses-inspector")
    # the metrics line may still be the first reply's: the second's request shows once it has ended
    expect(page.locator("#responses-inspector-request")).to_contain_text(f'"previous_response_id": "{first_id}"', timeout=30_000)
    expect(status).not_to_contain_text(first_id)
    expect(status).to_contain_text("continues from response resp_")
