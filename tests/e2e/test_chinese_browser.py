"""The interface in Simplified Chinese, in Chromium: chosen by the browser's language, or by the
header's switch (remembered); gateway answers stay as they arrive."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from playground.ui.i18n import ZH

from tests.e2e.conftest import RunningApp

BOT = "#chat-chatbot .message.bot"


@pytest.fixture
def chinese_page(browser: Browser, app_server: RunningApp) -> Iterator[Page]:
    context = browser.new_context(locale="zh-CN", viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.goto(app_server.url)
    page.wait_for_selector("#chat-input textarea")
    yield page
    context.close()


def test_a_chinese_browser_gets_the_chat_tab_in_chinese(chinese_page: Page) -> None:
    page = chinese_page
    expect(page.locator("#tour-steps")).to_contain_text("两分钟导览", timeout=10_000)
    page.click("#tour-close")
    expect(page.get_by_role("tab", name="对话")).to_have_attribute("aria-selected", "true")
    expect(page.locator("#chat-stop")).to_have_text("停止")
    expect(page.locator("#chat-retry")).to_have_text("重试")
    expect(page.locator("#chat-inspector")).to_contain_text("检查器与代码")
    expect(page.locator("#chat-input textarea")).to_have_attribute("placeholder", ZH["conversation.idle"])
    page.click("#chat-example-0")
    page.locator("#chat-input textarea").press("Enter")
    expect(page.locator(BOT).last).to_contain_text("A piano.", timeout=20_000)  # the gateway's answer, as it arrived


def test_the_header_switch_changes_the_language_and_is_remembered(page: Page) -> None:
    page.click("#tour-close")
    expect(page.locator("#chat-stop")).to_have_text("Stop")
    page.locator("#language-switch").get_by_label("中文").check()
    expect(page.locator("#chat-stop")).to_have_text("停止", timeout=10_000)
    page.reload()
    page.wait_for_selector("#chat-input textarea")
    expect(page.locator("#chat-stop")).to_have_text("停止", timeout=10_000)
    page.locator("#language-switch").get_by_label("English").check()
    expect(page.locator("#chat-stop")).to_have_text("Stop", timeout=10_000)
