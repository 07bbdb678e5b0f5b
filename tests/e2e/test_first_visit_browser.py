"""What a first visit fetches, in Chromium (issue 41, a first page as light as a minimal app): no web
font (the page is drawn in the system's fonts, in English and in Chinese)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from tests.e2e.conftest import RunningApp
from tests.e2e.pages import settle

pytestmark = pytest.mark.browser
FONT_FILES = (".woff2", ".woff", ".ttf", ".otf")


def first_visit(browser: Browser, url: str, locale: str) -> list[str]:
    """The URLs a fresh browser (nothing cached) requests until the chat's input is on screen and
    the page's load events have answered."""
    context = browser.new_context(locale=locale, viewport={"width": 1280, "height": 720})
    requested: list[str] = []
    try:
        page = context.new_page()
        page.on("request", lambda request: requested.append(request.url))
        settle(page, lambda: page.goto(url))
        page.wait_for_selector("#chat-input textarea")
        return requested
    finally:
        context.close()


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_a_first_visit_fetches_no_web_font(browser: Browser, app_server: RunningApp, locale: str) -> None:
    requested = first_visit(browser, app_server.url, locale)
    assert any("/assets/" in url for url in requested)  # the page's scripts were watched
    assert [url for url in requested if url.split("?")[0].endswith(FONT_FILES)] == []
