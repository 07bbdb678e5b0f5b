"""The connection panel and the curl import in a real browser: what the panel says is what is sent."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import RunningApp

pytestmark = pytest.mark.browser


def test_a_base_url_ending_in_v1_is_explained_and_calls_still_work(page: Page, app_server: RunningApp) -> None:
    page.click("#connection-panel")
    page.fill("#connection-url textarea", f"{app_server.gateway.url}/v1")
    expect(page.locator("#gateway-badge")).to_contain_text("Drop the trailing /v1", timeout=10_000)
    page.click("#connection-test")
    expect(page.locator("#connection-status")).to_contain_text("✅", timeout=15_000)
    expect(page.locator("#connection-status")).to_contain_text("Drop the trailing /v1")
    page.fill("#chat-input textarea", "hello through a /v1 base URL")
    page.keyboard.press("Enter")
    expect(page.locator("#chat-metrics")).to_contain_text("finish", timeout=15_000)
    page.click("#chat-inspector")
    expect(page.locator("#chat-inspector-request")).to_contain_text(f"{app_server.gateway.url}/v1/chat/completions")
    expect(page.locator("#chat-inspector-request")).not_to_contain_text("/v1/v1/")
