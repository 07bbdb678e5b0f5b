"""The interface in Simplified Chinese, in Chromium: chosen by the browser's language, or by the
header's switch (remembered); every tab's labels and the texts handlers build (notes, the metrics
line, the link notice) follow it; gateway answers stay as they arrive."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from playground.ui.i18n import CATALOGUE, EN

from tests.e2e.conftest import RunningApp
from tests.e2e.pages import frames_held, open_accordion, open_tab, settle, wait_for_reveals, watch_reveals

ZH = CATALOGUE.texts["zh-CN"]
BOT = "#chat-chatbot .message.bot"
TABS = [
    # (tab name key, a component that is only on that tab, a catalogue key its label or text shows)
    ("tab.responses", "#responses-chain", "responses.chain"),
    ("tab.messages", "#messages-max-tokens", "messages.max_tokens"),
    ("tab.native", "#native-output-images", "native.images"),
    ("tab.embeddings", "#embeddings-run", "embeddings.embed"),
    ("tab.images", "#images-generate", "images.generate"),
    ("tab.compare", "#compare-send", "compare.send_to_every_column"),
    ("tab.batch", "#batch-run", "batch.run"),
    ("tab.video", "#video-submit", "video.generate_video"),
    ("tab.report", "#report-run", "report.run_report"),
]


def chinese(browser: Browser, url: str) -> Iterator[Page]:
    context = browser.new_context(locale="zh-CN", viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    settle(page, lambda: page.goto(url))  # the page's load events have come back before a test types into it
    page.wait_for_selector("#chat-input textarea")
    yield page
    context.close()


@pytest.fixture
def chinese_page(browser: Browser, app_server: RunningApp) -> Iterator[Page]:
    yield from chinese(browser, app_server.url)


def test_a_chinese_browser_gets_the_chat_tab_in_chinese(chinese_page: Page) -> None:
    page = chinese_page
    expect(page.locator("#tour-steps")).to_contain_text("两分钟导览", timeout=30_000)
    page.click("#tour-close")
    expect(page.get_by_role("tab", name="对话")).to_have_attribute("aria-selected", "true")
    expect(page.locator("#chat-stop")).to_have_text("停止")
    expect(page.locator("#chat-retry")).to_have_text("重试")
    expect(page.locator("#chat-inspector")).to_contain_text("检查器与代码")
    expect(page.locator("#chat-input textarea")).to_have_attribute("placeholder", ZH["conversation.idle"])
    page.click("#chat-retry")  # nothing to retry: a note built by the handler
    expect(page.locator("#chat-notice")).to_have_text(ZH["note.nothing_to_retry"], timeout=30_000)
    page.click("#chat-example-0")
    page.locator("#chat-input textarea").press("Enter")
    expect(page.locator(BOT).last).to_contain_text("钢琴。", timeout=30_000)  # the example asked in Chinese, the gateway's answer as it arrived
    expect(page.locator("#chat-metrics")).to_contain_text("首个 token", timeout=30_000)  # the metrics line
    expect(page.locator("#chat-metrics")).not_to_contain_text("first token")


def test_a_value_that_cannot_be_sent_is_refused_in_chinese_with_the_field_named(chinese_page: Page) -> None:
    page = chinese_page
    expect(page.locator("#tour-steps")).to_contain_text("两分钟导览", timeout=30_000)  # the page is in Chinese
    page.click("#tour-close")
    open_accordion(page, ZH["chat.parameters"], "#chat-max-tokens input")
    page.fill("#chat-max-tokens input", "1.5")
    page.locator("#chat-max-tokens input").press("Tab")
    expect(page.locator("#chat-max-tokens input")).to_have_value("1.5")
    page.fill("#chat-input textarea", "hello")
    page.locator("#chat-input textarea").press("Enter")
    banner = page.locator("#chat-error")
    expect(banner).to_contain_text("请检查请求", timeout=30_000)  # the heading (catalogue)
    expect(banner).to_contain_text("max_tokens：必须是整数（收到的是 1.5）")  # the problem (client_words), the field and the value as typed
    expect(banner).not_to_contain_text("must be a whole number")
    expect(page.locator("#chat-input textarea")).to_have_value("hello")  # nothing typed is lost


def test_a_number_typed_as_its_box_appears_is_kept_and_refused_in_chinese(chinese_page: Page) -> None:
    """Issue 40's flake, made certain: "Max tokens" is mounted when its accordion first opens, and
    Gradio's page applied the box's first value (0) a frame later, over what was typed by then. With
    that frame late (as on a loaded machine), 1.5 typed into the box as it shows stays 1.5 and is
    what the send refuses."""
    page = chinese_page
    expect(page.locator("#tour-steps")).to_contain_text("两分钟导览", timeout=30_000)
    page.click("#tour-close")
    watch_reveals(page)
    with frames_held(page):
        open_accordion(page, ZH["chat.parameters"], "#chat-max-tokens input")
        page.fill("#chat-max-tokens input", "1.5")
    wait_for_reveals(page)
    expect(page.locator("#chat-max-tokens input")).to_have_value("1.5")
    page.fill("#chat-input textarea", "hello")
    page.locator("#chat-input textarea").press("Enter")
    banner = page.locator("#chat-error")
    expect(banner).to_contain_text("max_tokens：必须是整数（收到的是 1.5）", timeout=30_000)
    expect(page.locator("#chat-max-tokens input")).to_have_value("1.5")


def test_every_tab_shows_its_labels_in_chinese(chinese_page: Page) -> None:
    page = chinese_page
    page.click("#tour-close")
    for tab, component, key in TABS:
        open_tab(page, ZH[tab], component)
        expect(page.locator(component)).to_contain_text(ZH[key], timeout=30_000)
        expect(page.locator(component)).not_to_contain_text(EN[key])
    open_tab(page, ZH["tab.embeddings"], "#embeddings-formats")  # choices and an info line with values after the words
    expect(page.locator("#embeddings-formats")).to_contain_text(ZH["embeddings.choice.list"])
    page.locator("#embeddings-settings").get_by_text(ZH["embeddings.settings"]).click()
    expect(page.locator("#embeddings-dimensions")).to_contain_text(ZH["embeddings.sizes_note"], timeout=30_000)
    open_tab(page, ZH["tab.batch"], "#batch-columns-used")  # a column's own settings: their labels, choices and the line of what it sends
    expect(page.locator("#batch-col-temperature-0")).to_contain_text(ZH["batch_col.temperature"])
    expect(page.locator("#batch-col-stream-0")).to_contain_text(ZH["batch_col.stream"])
    expect(page.locator("#batch-columns-used")).to_contain_text(f"{ZH['bcols.temperature']} {ZH['bcols.not_set']}", timeout=30_000)
    expect(page.locator("#batch-columns-used")).not_to_contain_text("all columns")
    open_tab(page, ZH["tab.report"], "#report-checks")  # a check's and a format's name: the client's message, worded by its id
    expect(page.locator("#report-checks")).to_contain_text(CATALOGUE.client["zh-CN"]["report.check.plain.label"])
    expect(page.locator("#report-checks")).not_to_contain_text("plain answer")
    expect(page.locator("#report-formats")).to_contain_text(CATALOGUE.client["zh-CN"]["report.format.embeddings"])
    expect(page.locator("#report-formats")).not_to_contain_text("embeddings (list)")
    expect(page.locator("#report-models")).to_contain_text(CATALOGUE.client["zh-CN"]["report.format.chat"] + " · gx-2.5-flash")  # the picker's format names
    expect(page.locator("#report-models")).not_to_contain_text("chat completions")


EXAMPLE_WORDS = [
    # (tab name key, an example's button, the box it fills, the catalogue key of the words it fills in)
    ("tab.chat", "#chat-example-1", "#chat-input textarea", "chat.example.weather_message"),
    ("tab.responses", "#responses-example-0", "#responses-input textarea", "responses.example.summary_message"),
    ("tab.messages", "#messages-example-1", "#messages-input textarea", "messages.example.cache_message"),
    ("tab.native", "#native-example-1", "#native-input textarea", "native.example.draw_message"),
    ("tab.embeddings", "#embeddings-example-1", "#embeddings-query textarea", "embeddings.example.bake_query"),
    ("tab.images", "#images-example-2", "#images-refine-instruction textarea", "images.example.watercolour_instruction"),
    ("tab.video", "#video-example-0", "#video-prompt textarea", "video.example.boat_prompt"),
]


def test_every_tabs_examples_ask_in_chinese_on_a_chinese_page(chinese_page: Page) -> None:
    """Issue 40: the examples filled English questions and prompts for a Chinese visitor."""
    page = chinese_page
    page.click("#tour-close")
    for tab, button, box, key in EXAMPLE_WORDS:
        open_tab(page, ZH[tab], button)
        page.click(button)
        expect(page.locator(box)).to_have_value(ZH[key], timeout=30_000)
    expect(page.locator("#embeddings-texts textarea")).to_have_value(ZH["embeddings.example.documents"])
    expect(page.locator("#images-prompt textarea")).to_have_value(ZH["images.example.photo_prompt"])


def test_embeddings_notes_and_summary_are_in_chinese(chinese_page: Page) -> None:
    page = chinese_page
    page.click("#tour-close")
    open_tab(page, ZH["tab.embeddings"], "#embeddings-stop")
    page.click("#embeddings-stop")
    expect(page.locator("#embeddings-notice")).to_contain_text("已停止", timeout=30_000)
    page.click("#embeddings-example-0")
    page.click("#embeddings-run")  # the summary the handler writes after the vectors arrive
    expect(page.locator("#embeddings-summary")).to_contain_text("个向量 × 每个", timeout=30_000)


def test_a_link_with_unknown_parts_is_explained_in_chinese(browser: Browser, app_server: RunningApp) -> None:
    for page in chinese(browser, app_server.url + "/?tab=chat&colour=red"):
        expect(page.locator("#link-notice")).to_contain_text("这个链接要求的内容本页没有", timeout=30_000)
        expect(page.locator("#link-notice")).to_contain_text("colour")


def test_the_header_switch_changes_the_language_and_is_remembered(page: Page) -> None:
    page.click("#tour-close")
    expect(page.locator("#chat-stop")).to_have_text("Stop")
    page.locator("#language-switch").get_by_label("中文").check()
    expect(page.locator("#chat-stop")).to_have_text("停止", timeout=30_000)
    page.click("#chat-retry")  # an English browser, switched: the handler's note follows the switch
    expect(page.locator("#chat-notice")).to_have_text(ZH["note.nothing_to_retry"], timeout=30_000)
    page.reload()
    page.wait_for_selector("#chat-input textarea")
    expect(page.locator("#chat-stop")).to_have_text("停止", timeout=30_000)
    page.locator("#language-switch").get_by_label("English").check()
    expect(page.locator("#chat-stop")).to_have_text("Stop", timeout=30_000)
    page.click("#chat-retry")
    expect(page.locator("#chat-notice")).to_have_text(EN["note.nothing_to_retry"], timeout=30_000)


@pytest.mark.parametrize("browser_language", ["zh-TW", "zh-SG", "zh-Hans", "zh"])
def test_every_chinese_browser_language_gets_the_one_chinese_catalogue(browser: Browser, app_server: RunningApp, browser_language: str) -> None:
    """The page carries the Chinese words once, under `zh`: Gradio's own Chinese locales (`zh-TW`)
    find them through their parent, and the browser languages Gradio shows in English (`zh-SG`,
    `zh-Hans`, `zh`: not among its locales) are applied on load, so the whole page, not only its
    tabs' names, is in Chinese, as the handlers' texts are."""
    context = browser.new_context(locale=browser_language, viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    try:
        settle(page, lambda: page.goto(app_server.url))
        expect(page.locator("#tour-steps")).to_contain_text("两分钟导览", timeout=30_000)
        page.click("#tour-close")
        expect(page.locator("#chat-stop")).to_have_text(ZH["conversation.stop"], timeout=30_000)
        expect(page.locator("#tab-chat-button")).to_have_text(ZH["tab.chat"])
        page.click("#chat-retry")
        expect(page.locator("#chat-notice")).to_have_text(ZH["note.nothing_to_retry"], timeout=30_000)
    finally:
        context.close()


ZH_CLIENT = CATALOGUE.client["zh-CN"]


def assert_built_texts_in_chinese(page: Page) -> None:
    """Issue 40's texts the page is built with that stayed English in Chinese: each tab's, in Chinese."""
    open_tab(page, ZH["tab.video"], "#video-model-notes")
    expect(page.locator("#video-model-notes")).to_contain_text(ZH_CLIENT["video.note.vida_2"], timeout=30_000)
    expect(page.locator("#video-model-notes")).not_to_contain_text("Portrait")
    expect(page.locator("#video-board")).to_contain_text(f"“{ZH['video.resume_a_task_by']}”", timeout=30_000)  # the box's label
    expect(page.locator("#video-resume-id")).to_contain_text(ZH["video.resume_a_task_by"])
    open_tab(page, ZH["tab.images"], "#images-ratio-preview")
    expect(page.locator("#images-ratio-preview")).to_contain_text("在 1K 档约为 1024×1024 像素", timeout=30_000)
    expect(page.locator("#images-ratio-preview")).not_to_contain_text("about")
    open_tab(page, ZH["tab.messages"], "#messages-max-tokens")
    open_accordion(page, ZH["messages.cache_lab"], "#messages-cache-report")
    expect(page.locator("#messages-cache-report")).to_have_text(ZH["messages.say.send_message_cache_breakpoint_then"], timeout=30_000)
    open_tab(page, ZH["tab.native"], "#native-output-images")
    open_accordion(page, ZH["native.safety_panel"], "#native-auth")
    for key in ("choice.auth.header", "choice.auth.query"):
        expect(page.locator("#native-auth")).to_contain_text(ZH[key])
    expect(page.locator("#native-auth")).not_to_contain_text("x-svc-api-key header")
    open_tab(page, ZH["tab.compare"], "#compare-message")
    expect(page.locator("#compare-message textarea")).to_have_value(ZH["compare.default_message"], timeout=30_000)
    open_tab(page, ZH["tab.batch"], "#batch-user")
    expect(page.locator("#batch-user textarea")).to_have_value(ZH["batch.default_template"], timeout=30_000)
    open_accordion(page, ZH["prices.prices_per_1m_tokens"], "#batch-prices-table")
    expect(page.locator("#batch-prices-table")).to_contain_text(ZH["prices.head.cached_input"], timeout=30_000)
    expect(page.locator("#batch-prices-table")).not_to_contain_text("cached input")
    open_tab(page, ZH["tab.compare"], "#compare-message")
    page.click("#compare-example-1")  # an example asks its question in the page's language
    expect(page.locator("#compare-message textarea")).to_have_value(ZH["compare.example.thinking_message"], timeout=30_000)
    open_tab(page, ZH["tab.chat"], "#chat-input")
    page.fill("#chat-input textarea", "你好，{{name}}")
    assert_variables_in_chinese(page)


def assert_variables_in_chinese(page: Page) -> None:
    """The Variables table's headings (a table's headings are part of its value: Gradio does not translate them)."""
    table = page.locator("#chat-variables-table")
    expect(table).to_contain_text(ZH["batch_vars.heading_variable"], timeout=30_000)
    expect(table).to_contain_text(ZH["batch_vars.heading_value"])
    expect(table).not_to_contain_text(EN["batch_vars.heading_variable"])
    expect(table).not_to_contain_text(EN["batch_vars.heading_value"])


def test_the_texts_built_with_the_page_are_in_chinese_on_a_chinese_page(chinese_page: Page) -> None:
    chinese_page.click("#tour-close")
    assert_built_texts_in_chinese(chinese_page)


def test_the_texts_built_with_the_page_follow_the_switch_and_what_was_typed_stays(page: Page) -> None:
    page.click("#tour-close")
    page.fill("#chat-input textarea", "Hi {{name}}")  # the Variables table on screen before the switch
    expect(page.locator("#chat-variables-table")).to_contain_text(EN["batch_vars.heading_variable"], timeout=30_000)
    page.locator("#language-switch").get_by_label("中文").check()
    expect(page.locator("#chat-stop")).to_have_text(ZH["conversation.stop"], timeout=30_000)
    assert_variables_in_chinese(page)  # written again by the switch, its rows kept
    expect(page.locator("#chat-variables-table")).to_contain_text("name")
    assert_built_texts_in_chinese(page)
    open_tab(page, ZH["tab.compare"], "#compare-message")
    page.fill("#compare-message textarea", "Why is the sea salty?")  # typed: no longer a default
    page.locator("#language-switch").get_by_label("English").check()
    expect(page.locator("#batch-user textarea")).to_have_value(EN["batch.default_template"], timeout=30_000)
    expect(page.locator("#compare-message textarea")).to_have_value("Why is the sea salty?")
    expect(page.locator("#images-ratio-preview")).to_contain_text("about 1024×1024 px at 1K", timeout=30_000)
