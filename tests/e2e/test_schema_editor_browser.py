"""The schema editor in a real browser (Chat): a schema built in the form appears as JSON, JSON
typed in the box appears in the form, strict mode's rules are named before sending, and the answer
is checked against the schema."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import RunningApp
from tests.e2e.pages import open_accordion
from tests.e2e.test_chinese_browser import chinese

pytestmark = pytest.mark.browser
EDITED = {"type": "object", "properties": {"animal": {"type": "string"}, "legs": {"type": "integer", "description": "How many"}},
          "required": ["animal", "legs"], "additionalProperties": False}


def schema_box(page: Page) -> str:
    return page.locator("#chat-schema .cm-content").inner_text()


def add_field(page: Page, name: str, kind: str = "", enum: str = "") -> None:
    page.fill("#chat-schema-new-name textarea", name)
    if kind:
        picker = page.locator("#chat-schema-new-type input")
        picker.fill(kind)
        page.keyboard.press("Enter")
        expect(picker).to_have_value(kind)  # the choice is made before Add reads it
    page.fill("#chat-schema-new-enum textarea", enum)
    page.click("#chat-schema-add")
    expect(page.locator("#chat-schema-new-name textarea")).to_have_value("", timeout=30_000)  # added: the row's boxes are emptied


def test_a_schema_built_in_the_form_is_edited_as_json_and_the_answer_is_checked(page: Page) -> None:
    open_accordion(page, "Tools and structured output", "#chat-schema-add")
    add_field(page, "animal")
    add_field(page, "size", "enum", "small, large")
    expect(page.locator("#chat-schema")).to_contain_text('"enum"')
    shown = json.loads(schema_box(page))
    assert shown["properties"] == {"animal": {"type": "string"}, "size": {"type": "string", "enum": ["small", "large"]}}
    assert shown["required"] == ["animal", "size"] and shown["additionalProperties"] is False

    page.click("#chat-schema .cm-content")
    page.keyboard.press("Control+A")
    page.keyboard.insert_text(json.dumps(EDITED))
    fields = page.locator("#chat-schema-fields")
    expect(fields).to_contain_text("legs")
    expect(fields).to_contain_text("How many")
    expect(fields).not_to_contain_text("small, large")

    page.locator("#chat-schema-strict input").check()
    expect(page.locator("#chat-schema")).to_contain_text('"strict": true')
    expect(page.locator("#chat-schema-note")).to_contain_text("ready to send")

    page.fill("#chat-input textarea", "Describe a cat.")
    page.keyboard.press("Enter")
    expect(page.locator("#chat-schema-verdict")).to_contain_text("The answer matches the schema.", timeout=30_000)
    answer = json.loads(page.locator("#chat-chatbot .message.bot").last.inner_text())
    assert set(answer) == {"animal", "legs"} and isinstance(answer["legs"], int)


def test_strict_mode_names_what_it_refuses_before_sending(page: Page) -> None:
    open_accordion(page, "Tools and structured output", "#chat-schema-add")
    page.click("#chat-schema-example")
    expect(page.locator("#chat-schema-fields")).to_contain_text("herbivore, carnivore, omnivore")
    page.locator("#chat-schema-fields input[type=checkbox]").nth(2).uncheck()  # the header's, then name's, then diet's tick
    note = page.locator("#chat-schema-note")
    expect(note).to_contain_text("Chat completions strict mode refuses optional fields at $: diet")
    page.fill("#chat-input textarea", "Describe a zebra.")
    page.keyboard.press("Enter")
    expect(page.locator("#chat-error")).to_contain_text("optional fields at $: diet")


def test_a_chinese_visitor_reads_the_editor_and_its_table_in_chinese(browser: Browser, app_server: RunningApp) -> None:
    for page in chinese(browser, app_server.url):
        open_accordion(page, "工具与结构化输出", "#chat-schema-add")
        expect(page.locator("#chat-schema-fields")).to_contain_text("名称")  # the table's headings, written on load
        expect(page.locator("#chat-schema-add")).to_have_text("添加字段")
        page.click("#chat-schema-example")
        expect(page.locator("#chat-schema-note")).to_have_text("schema 可以发送。")
        expect(page.locator("#chat-schema-fields")).to_contain_text("枚举值")
