"""The page-load script that words an editable default (Compare's message, Batch's template) in the
page's language, run in Chromium on a bare page: it writes the visitor's language's text only while the
box holds the first locale's, so what was typed before it ran, or written by a link, is kept."""

from __future__ import annotations


import pytest
from playwright.sync_api import Page

from playground.ui.i18n import CATALOGUE, EN
from playground.ui.i18n.language import LANGUAGE_COOKIE
from playground.ui.shared.worded_defaults import first_default_js
from tests.ui.shared.conftest import ORIGIN

pytestmark = pytest.mark.browser
KEYS = ("compare.default_message", "batch.default_template")


def worded(page: Page, key: str, current: str, cookie: str | None) -> str:
    page.context.clear_cookies()
    if cookie is not None:
        page.context.add_cookies([{"name": LANGUAGE_COOKIE, "value": cookie, "url": ORIGIN}])
    page.goto(f"{ORIGIN}/")
    return str(page.evaluate(f"(current) => ({first_default_js(key)})(current)", current))


@pytest.mark.parametrize("key", KEYS)
def test_the_default_is_worded_in_the_pages_language_only_while_untouched(bare: Page, key: str) -> None:
    chinese = CATALOGUE.texts["zh-CN"][key]
    assert chinese != EN[key]
    assert worded(bare, key, EN[key], "zh-CN") == chinese
    assert worded(bare, key, EN[key], "zh-Hans") == chinese  # an alias of the language
    assert worded(bare, key, EN[key] + " typed", "zh-CN") == EN[key] + " typed"  # typed before the script ran: kept
    assert worded(bare, key, "from a link", "zh-CN") == "from a link"
    assert worded(bare, key, EN[key], "en") == EN[key]
    assert worded(bare, key, EN[key], None) == EN[key]
    assert worded(bare, key, EN[key], "fr") == EN[key]
