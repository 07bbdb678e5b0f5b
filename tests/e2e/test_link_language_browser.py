"""A link from a Chinese page opens Chinese wherever it goes (issue 40: a teacher's link opened English
in every English browser of the class). Copy link after the header's switch carries `lang=zh-CN`; the
link opened in a new, English browser shows every tab's name, the badge, the tour and a handler's
note in Chinese, with the tab's settings kept; a `lang` no language answers to opens the browser's
language, without a word about it."""

from __future__ import annotations

from urllib.parse import parse_qs, urlencode, urlsplit

from playwright.sync_api import Browser, Page, expect

from playground.ui.i18n import CATALOGUE, EN
from playground.ui.i18n.language import LANGUAGE_COOKIE
from playground.ui.tabs.registry import TABS

ZH = CATALOGUE.texts["zh-CN"]
ASKED = "Explain tides to a class"


def english_browser(browser: Browser, link: str) -> Page:
    """`link` opened in a browser of its own whose language is English."""
    page = browser.new_context(locale="en-US", viewport={"width": 1400, "height": 1000}).new_page()
    page.goto(link)
    page.wait_for_selector("#chat-input textarea", state="attached")  # built: the link's tab may be shown before the chat's box ever is
    return page


def chinese_link(page: Page) -> str:
    """Switch the page to Chinese with the header's switch, set Chat up and copy its link."""
    page.click("#tour-close")
    page.locator("#language-switch label", has_text="中文").click()
    expect(page.locator("#tab-chat-button")).to_have_text(ZH["tab.chat"], timeout=30_000)
    page.locator("#chat-model input").fill("gx-2.5-pro")
    page.keyboard.press("Enter")
    page.fill("#chat-input textarea", ASKED)
    page.click("#chat-copy-link")
    box = page.locator("#chat-link textarea")
    expect(box).not_to_have_value("", timeout=30_000)
    return box.input_value()


def test_a_link_from_the_chinese_page_opens_chinese_in_an_english_browser(page: Page, browser: Browser) -> None:
    link = chinese_link(page)
    query = parse_qs(urlsplit(link).query)
    assert query == {"tab": ["chat"], "model": ["gx-2.5-pro"], "q": [ASKED], "lang": ["zh-CN"]}
    other = english_browser(browser, link)
    try:
        for tab in TABS:  # none of them visited
            expect(other.locator(f"#tab-{tab.id}-button")).to_have_text(ZH[tab.label_key], timeout=30_000)
        expect(other.locator("#gateway-badge")).to_contain_text("本地模式", timeout=30_000)
        expect(other.locator("#tour-steps")).to_contain_text("两分钟导览")
        expect(other.locator("#chat-input textarea")).to_have_value(ASKED)
        expect(other.locator("#chat-model input")).to_have_value("gx-2.5-pro")
        expect(other.locator("#link-notice")).not_to_be_visible()
        other.click("#tour-close")
        other.click("#chat-retry")  # a note the handler builds, in the link's language
        expect(other.locator("#chat-notice")).to_have_text(ZH["note.nothing_to_retry"], timeout=30_000)
        cookie = next(c for c in other.context.cookies() if c["name"] == LANGUAGE_COOKIE)
        assert cookie["value"] == "zh-CN", "kept like a header choice"
        other.locator("#language-switch label", has_text="English").click()  # the person's own choice then rules
        expect(other.locator("#tab-chat-button")).to_have_text(EN["tab.chat"], timeout=30_000)
        assert "lang=" not in other.url
        other.click("#chat-retry")
        expect(other.locator("#chat-notice")).to_have_text(EN["note.nothing_to_retry"], timeout=30_000)
    finally:
        other.context.close()


def test_an_unknown_lang_opens_the_browsers_language_without_a_word(page: Page, browser: Browser) -> None:
    link = chinese_link(page)
    address = urlsplit(link)
    query = dict(parse_qs(address.query), lang=["xx-unknown"])
    other = english_browser(browser, address._replace(query=urlencode(query, doseq=True)).geturl())
    try:
        expect(other.locator("#chat-input textarea")).to_have_value(ASKED, timeout=30_000)
        expect(other.locator("#chat-model input")).to_have_value("gx-2.5-pro")
        for tab in TABS:
            expect(other.locator(f"#tab-{tab.id}-button")).to_have_text(EN[tab.label_key])
        expect(other.locator("#gateway-badge")).to_contain_text("Local mode", timeout=30_000)
        expect(other.locator("#link-notice")).not_to_be_visible()
        other.click("#tour-close")
        other.click("#chat-retry")
        expect(other.locator("#chat-notice")).to_have_text(EN["note.nothing_to_retry"], timeout=30_000)
    finally:
        other.context.close()
