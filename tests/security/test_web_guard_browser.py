"""Issue 35 in Chromium, on the hosted app: a language cookie naming no language the switch offers
(`__proto__` threw a page error) is ignored and replaced."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect, sync_playwright

from playground.ui.language import LANGUAGE_COOKIE
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.security.page_session import LaunchedApp, launched

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def hosted() -> Iterator[LaunchedApp]:
    with launched(hosted=True) as app:
        yield app


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.mark.parametrize("value", ["__proto__", "constructor", "%E0%A4%A", "zh-TW"])
def test_an_unknown_language_cookie_throws_nothing_and_is_replaced(browser: Browser, hosted: LaunchedApp, value: str) -> None:
    context = browser.new_context(locale="en-US")
    context.add_cookies([{"name": LANGUAGE_COOKIE, "value": value, "url": hosted.url}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(hosted.url)
    page.wait_for_selector("#chat-input textarea")
    page.wait_for_function(f"() => document.cookie.includes('{LANGUAGE_COOKIE}=en')", timeout=10_000)
    expect(page.get_by_role("tab", name="Chat", exact=True).first).to_be_visible()
    page.wait_for_timeout(500)
    assert errors == []
    context.close()

