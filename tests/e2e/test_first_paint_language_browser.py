"""The page's first paint in the browser's language (issue 40): a browser asking for Chinese by a tag Gradio does not
know (`zh-SG`, `zh-Hans`, `zh`) was shown English for about a second before the page's load script applied Chinese.
The tab bar's first non-empty text, recorded from the page's first mutation by an init script, is now Chinese for
those tags; `zh-CN`, `zh-TW` and `en` are painted as before, and a visitor who chose English keeps English."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from playground.ui.i18n import CATALOGUE
from playground.ui.i18n.language import LANGUAGE_COOKIE
from tests.e2e.conftest import RunningApp

FIRST_TABS = """(() => {
  window.__firstTabs = "";
  new MutationObserver(() => {
    if (window.__firstTabs) return;
    const bar = document.querySelector(".tab-wrapper");
    const text = bar ? bar.innerText.trim() : "";
    if (text) window.__firstTabs = text;
  }).observe(document, {childList: true, subtree: true, characterData: true});
})();"""
"""Records the tab bar's text the first time it is not empty (before any load event of the page has answered)."""
NAMES = ("tab.chat", "tab.compare", "tab.batch", "tab.report")
ZH, EN = CATALOGUE.texts["zh-CN"], CATALOGUE.texts["en"]


def first_tabs(browser: Browser, url: str, locale: str, cookie: str | None = None) -> str:
    context = browser.new_context(locale=locale, viewport={"width": 1400, "height": 1000})
    if cookie is not None:
        context.add_cookies([{"name": LANGUAGE_COOKIE, "value": cookie, "url": url}])
    context.add_init_script(FIRST_TABS)
    page = context.new_page()
    try:
        page.goto(url)
        page.wait_for_function("() => window.__firstTabs", timeout=60_000)
        return str(page.evaluate("() => window.__firstTabs"))
    finally:
        context.close()


def in_language(text: str, words: dict[str, str], other: dict[str, str]) -> bool:
    return all(words[key] in text for key in NAMES) and not any(other[key] in text for key in NAMES)


@pytest.mark.parametrize("locale", ["zh-SG", "zh-Hans", "zh", "zh-CN", "zh-TW"])
def test_a_chinese_browser_is_painted_in_chinese_from_the_first_frame(browser: Browser, app_server: RunningApp, locale: str) -> None:
    text = first_tabs(browser, app_server.url, locale)
    assert in_language(text, ZH, EN), (locale, text)


def test_an_english_browser_and_a_visitor_who_chose_english_are_painted_in_english(browser: Browser, app_server: RunningApp) -> None:
    text = first_tabs(browser, app_server.url, "en-US")
    assert in_language(text, EN, ZH), text
    text = first_tabs(browser, app_server.url, "zh-SG", cookie="en")
    assert in_language(text, EN, ZH), text
