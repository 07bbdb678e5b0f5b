"""The page's scripts for a link's language, run in Chromium on a bare page: Copy link writes `lang`
only when the page is not in the first language; the load script takes a link's known `lang` ahead
of the cookie and the browser (and keeps it in the cookie), ignores any other value; the header
switch takes `lang` off the address, so the handlers then follow the person's choice."""

from __future__ import annotations

import json
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Page

from playground.ui.i18n import languages
from playground.ui.i18n.language import LANGUAGE_COOKIE, remembered_js, switch_js
from playground.ui.shared.links import COPY_JS
from tests.ui.shared.conftest import ORIGIN

pytestmark = pytest.mark.browser
COPY = COPY_JS.replace("NAMES", json.dumps(["q"]))


def at(page: Page, query: str, cookie: str | None = None) -> None:
    page.context.clear_cookies()
    if cookie is not None:
        page.context.add_cookies([{"name": LANGUAGE_COOKIE, "value": cookie, "url": ORIGIN}])
    page.goto(f"{ORIGIN}/{query}")


def kept(page: Page) -> str | None:
    return next((c["value"] for c in page.context.cookies() if c["name"] == LANGUAGE_COOKIE), None)


def kept_as(page: Page, value: str) -> bool:
    """Whether the browser's cookie store holds `value` within 5 s: the page's `document.cookie` write reaches
    the store the test reads (`context.cookies()`) a moment later, later still on a loaded machine."""
    for _ in range(50):
        if kept(page) == value:
            return True
        page.wait_for_timeout(100)
    return False


@pytest.mark.parametrize(("cookie", "lang"), [("en", None), (None, None), ("zh-CN", "zh-CN"), ("zh-Hans", "zh-CN"), ("fr", None),
                                              ("__proto__", None), ("%E0%A4%A", None)])
def test_copy_link_carries_the_pages_language_only_when_it_is_not_the_first(bare: Page, cookie: str | None, lang: str | None) -> None:
    at(bare, "?tab=chat", cookie)
    link = bare.evaluate(f"(values) => ({COPY})(...values)", ["chat", {"text": "Hello & 你好", "files": []}, None])[-1]
    query = parse_qs(urlsplit(link).query)
    assert query.get("lang") == ([lang] if lang else None)
    assert query["tab"] == ["chat"] and query["q"] == ["Hello & 你好"], "the tab's own parameters as before"


@pytest.mark.parametrize(("query", "cookie", "chosen"), [
    ("?tab=chat&lang=zh-CN", "en", "zh-CN"),  # the link wins over the saved choice
    ("?lang=zh-cn", None, "zh-CN"),
    ("?lang=zh-Hans&tab=images", "en", "zh-CN"),
    ("?lang=en", "zh-CN", "en"),
    ("?lang=fr", "zh-CN", "zh-CN"),  # an unknown value: the cookie decides
    ("?lang=fr", None, "en"),  # then the browser
    ("?lang=__proto__", None, "en"),
    ("?lang=zh-TW", None, "en"),
    ("?lang=zh-CN" + "x" * 40, None, "en"),
    ("?lang=" + "zh-CN" * 2000, "zh-CN", "zh-CN"),
    ("?lang=en&lang=zh-CN", "en", "zh-CN"),  # the last, as the server reads a repeated parameter
    ("?lang=zh-CN&lang=fr", "en", "en"),
])
def test_the_load_script_takes_a_known_link_language_ahead_of_the_cookie(bare: Page, query: str, cookie: str | None, chosen: str) -> None:
    at(bare, query, cookie)
    assert bare.evaluate(remembered_js(languages(), {})) == chosen
    assert kept_as(bare, chosen), f"kept in the cookie like a header choice: {kept(bare)!r}, not {chosen!r}"


def test_the_switch_takes_the_links_language_off_the_address(bare: Page) -> None:
    at(bare, "?tab=images&ratio=16%3A9&lang=zh-CN", "en")
    assert bare.evaluate(remembered_js(languages(), {})) == "zh-CN"
    assert bare.evaluate(switch_js({})) is None  # no choice made: the address stays
    assert "lang=zh-CN" in bare.url
    bare.evaluate(f"(language) => ({switch_js({})})(language)", "en")
    assert parse_qs(urlsplit(bare.url).query) == {"tab": ["images"], "ratio": ["16:9"]} and kept_as(bare, "en")
