"""The connection panel and the curl import in a real browser: what the panel says is what is sent."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import SERVER_KEY, RunningApp
from tests.e2e.pages import import_curl

pytestmark = pytest.mark.browser


def test_a_base_url_ending_in_v1_is_explained_and_calls_still_work(page: Page, app_server: RunningApp) -> None:
    page.click("#connection-panel")
    expect(page.locator("#connection-status")).to_contain_text("✓", timeout=30_000)  # the check the page runs on load
    page.fill("#connection-url textarea", f"{app_server.gateway.url}/v1")
    expect(page.locator("#gateway-badge")).to_contain_text("Drop the trailing /v1", timeout=30_000)
    page.click("#connection-test")
    expect(page.locator("#connection-status")).to_contain_text("Drop the trailing /v1", timeout=30_000)
    expect(page.locator("#connection-status")).to_contain_text(f"Connected to {app_server.gateway.url} in")
    page.fill("#chat-input textarea", "hello through a /v1 base URL")
    page.keyboard.press("Enter")
    expect(page.locator("#chat-metrics")).to_contain_text("finish", timeout=30_000)
    page.click("#chat-inspector")
    expect(page.locator("#chat-inspector-request")).to_contain_text(f"{app_server.gateway.url}/v1/chat/completions")
    expect(page.locator("#chat-inspector-request")).not_to_contain_text("/v1/v1/")


def chat_command(base_url: str, key: str) -> str:
    return (f"curl {base_url}/v1/chat/completions -H 'Authorization: Bearer {key}' "
            """-d '{"model": "gx-2.5-flash", "messages": [{"role": "user", "content": "Hello from an imported command"}]}'""")


def test_a_curl_import_names_the_switch_and_can_keep_the_base_url(page: Page, app_server: RunningApp) -> None:
    here = app_server.gateway.url
    there = here.replace("127.0.0.1", "localhost")
    import_curl(page, chat_command(there, SERVER_KEY), keep_base_url=True)
    expect(page.locator("#curl-status")).to_contain_text(f"Kept your base URL {here}", timeout=30_000)
    expect(page.locator("#curl-status")).to_contain_text("The command's key was not used")
    page.click("#connection-panel")
    expect(page.locator("#connection-url textarea")).to_have_value("")
    expect(page.locator("#connection-key input")).to_have_value("")

    import_curl(page, chat_command(there, SERVER_KEY))
    expect(page.locator("#curl-status")).to_contain_text(f"Switched the base URL from {here} to {there}", timeout=30_000)
    expect(page.locator("#connection-url textarea")).to_have_value(there)
    expect(page.locator("#chat-input textarea")).to_have_value("Hello from an imported command")
    page.locator("#chat-input textarea").press("Enter")
    expect(page.locator("#chat-metrics")).to_contain_text("finish", timeout=30_000)
    assert SERVER_KEY not in page.locator("#curl-status").inner_text()


def test_a_curl_import_for_a_host_that_does_not_resolve_keeps_the_base_url(page: Page) -> None:
    import_curl(page, chat_command("https://gateway.does-not-exist.invalid", "sk-pasted-3131"))
    expect(page.locator("#curl-status")).to_contain_text("does not resolve", timeout=30_000)
    expect(page.locator("#curl-status")).to_contain_text("Kept the base URL")
    page.click("#connection-panel")
    expect(page.locator("#connection-url textarea")).to_have_value("")
    expect(page.locator("#connection-key input")).to_have_value("")
