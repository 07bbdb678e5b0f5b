"""The language cookie is read as one of the known locales or ignored, in the page as in the
handlers: a value no locale answers to (left by an older version, or typed by hand) falls back to
the browser's language and is replaced by it."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from playground.ui.i18n import CATALOGUE
from playground.ui.i18n.language import LANGUAGE_COOKIE
from tests.e2e.conftest import RunningApp

ZH = CATALOGUE.texts["zh-CN"]


@pytest.mark.parametrize("kept", ["__proto__", "fr", "%E0%A4%A"])
def test_an_unknown_language_cookie_is_ignored(browser: Browser, app_server: RunningApp, kept: str) -> None:
    context = browser.new_context(locale="zh-CN", viewport={"width": 1400, "height": 1000})
    context.add_cookies([{"name": LANGUAGE_COOKIE, "value": kept, "url": app_server.url}])
    page = context.new_page()
    try:
        page.goto(app_server.url)
        expect(page.locator("#tour-steps")).to_contain_text("两分钟导览", timeout=30_000)
        page.click("#tour-close")
        page.click("#chat-retry")  # a note built by the handler, in the browser's language
        expect(page.locator("#chat-notice")).to_have_text(ZH["note.nothing_to_retry"], timeout=30_000)
        cookie = next(c for c in context.cookies() if c["name"] == LANGUAGE_COOKIE)
        assert cookie["value"] == "zh-CN", "the unknown value is replaced by the language in use"
    finally:
        context.close()
