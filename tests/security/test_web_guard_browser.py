"""Issue 35 in Chromium, on the hosted app: a language cookie naming no language the switch offers
(`__proto__` threw a page error) is ignored and replaced; the page's own uploads pass the upload
gate, and one over the visitor's allowance is refused in words on screen."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image
from playwright.sync_api import Browser, expect

from playground.ui.i18n.language import LANGUAGE_COOKIE
from tests.e2e.pages import open_tab
from tests.security.page_session import LaunchedApp, launched, private_temp_dir

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def hosted(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LaunchedApp]:
    with private_temp_dir(tmp_path_factory.mktemp("gradio-temp")), launched(hosted=True, uploads_per_minute=1) as app:
        yield app



@pytest.mark.parametrize("value", ["__proto__", "constructor", "%E0%A4%A"])  # zh-TW is read as Chinese by its main language (test_i18n_catalogue)
def test_an_unknown_language_cookie_throws_nothing_and_is_replaced(browser: Browser, hosted: LaunchedApp, value: str) -> None:
    context = browser.new_context(locale="en-US")
    context.add_cookies([{"name": LANGUAGE_COOKIE, "value": value, "url": hosted.url}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(hosted.url)
    page.wait_for_selector("#chat-input textarea")
    page.wait_for_function(f"() => document.cookie.includes('{LANGUAGE_COOKIE}=en')", timeout=30_000)
    expect(page.get_by_role("tab", name="Chat", exact=True).first).to_be_visible()
    page.wait_for_timeout(500)
    assert errors == []
    context.close()


def test_the_pages_uploads_pass_and_one_too_many_is_refused_in_words(browser: Browser, hosted: LaunchedApp, tmp_path: Path) -> None:
    data, picture = tmp_path / "questions.csv", tmp_path / "picture.png"
    data.write_text("question\nWhat is 1 plus 1?\nWhat is 2 plus 2?\n", encoding="utf-8")
    Image.new("RGB", (4, 4), "teal").save(picture)
    context = browser.new_context(locale="en-US", viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.goto(hosted.url)
    page.wait_for_selector("#chat-input textarea")
    open_tab(page, "Batch", "#batch-user textarea")
    page.locator("#batch-upload input[type=file]").set_input_files(str(data))
    expect(page.locator("#batch-data-status")).to_contain_text("2 rows", timeout=30_000)  # the page's upload passed
    open_tab(page, "Chat", "#chat-input textarea")
    page.locator("#chat-input input[type=file]").set_input_files(str(picture))
    refused = page.get_by_text("limited to 1 a minute").first
    expect(refused).to_be_visible(timeout=30_000)
    expect(refused).not_to_contain_text("PLAYGROUND_")  # a visitor reads no setting's name
    context.close()
