"""Attacks a visitor can make from the page itself (issue 20): each shows our message, changes
nothing it should not, and loses nothing the visitor typed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.pages import choose_session_file, import_curl, open_accordion, open_tab

pytestmark = pytest.mark.browser

SURROGATE_JS = "'half a pair \\ud800 here'"


def type_unpaired(page: Page, selector: str) -> None:
    """Put text with a lone surrogate (which no keyboard types, but a script or a bad paste can)
    into a text box and let the page know."""
    page.eval_on_selector(selector, f"""(box) => {{
        box.value = {SURROGATE_JS};
        box.dispatchEvent(new Event('input', {{bubbles: true}}));
    }}""")


def still_typed(page: Page, selector: str) -> bool:
    return bool(page.eval_on_selector(selector, f"(box) => box.value === {SURROGATE_JS}"))


def no_error_badges(page: Page) -> None:
    page.wait_for_timeout(500)
    assert page.locator(".error:visible, .toast-body.error").count() == 0, page.locator("body").inner_text()[:800]


def test_a_lone_surrogate_in_the_chat_prompt_gets_our_message_and_the_text_stays(page: Page) -> None:
    type_unpaired(page, "#chat-input textarea")
    page.press("#chat-input textarea", "Enter")
    expect(page.locator("#chat-error")).to_contain_text("broken character", timeout=30_000)
    assert still_typed(page, "#chat-input textarea")
    assert page.locator("#chat-chatbot .message").count() == 0
    no_error_badges(page)


def test_a_lone_surrogate_in_the_compare_prompt_gets_our_message(page: Page) -> None:
    open_tab(page, "Compare", "#compare-message textarea")
    type_unpaired(page, "#compare-message textarea")
    page.click("#compare-send")
    expect(page.locator("#compare-error")).to_contain_text("broken character", timeout=30_000)
    assert still_typed(page, "#compare-message textarea")
    no_error_badges(page)


def test_a_text_file_named_png_on_the_compare_image_is_explained(page: Page, tmp_path: Path) -> None:
    fake = tmp_path / "holiday.png"
    fake.write_text("this is not a picture at all\n" * 20)
    open_tab(page, "Compare", "#compare-message textarea")
    page.set_input_files("#compare-image input[type=file]", str(fake))
    page.fill("#compare-message textarea", "What is in the picture?")
    page.click("#compare-send")
    expect(page.locator("#compare-error")).to_contain_text("holiday.png is not a readable PNG, JPEG, WebP or GIF image", timeout=30_000)
    expect(page.locator("#compare-message textarea")).to_have_value("What is in the picture?")
    no_error_badges(page)


def test_a_curl_import_with_a_wrong_type_is_refused_and_changes_nothing(page: Page) -> None:
    open_accordion(page, "Parameters", "#chat-max-tokens input")
    before = page.locator("#chat-max-tokens input").input_value()
    command = """curl https://gw.example/v1/chat/completions -H "Authorization: Bearer sk-never-used-5150" \\
      -d '{"model": "gx-2.5-pro", "max_tokens": "many", "messages": [{"role": "user", "content": "hi"}]}'"""
    import_curl(page, command)
    expect(page.locator("#curl-status")).to_contain_text("max_tokens", timeout=30_000)
    expect(page.locator("#curl-status")).to_contain_text("'many'")
    expect(page.locator("#curl-command textarea")).to_have_value(command)  # kept, to fix
    expect(page.locator("#chat-model input")).to_have_value("gx-2.5-flash")
    assert page.locator("#chat-max-tokens input").input_value() == before
    assert "sk-never-used-5150" not in page.locator("#connection-panel").inner_text()
    no_error_badges(page)


def test_a_session_file_naming_a_server_file_is_refused(page: Page, tmp_path: Path) -> None:
    secret = Path.cwd() / "README.md"
    document = {"format": "gateway-playground-session", "version": 2, "tab": "chat", "form": {"system": "loaded?"},
                "conversation": {"shown": [{"role": "user", "content": [{"type": "text", "text": "look"}, {"path": str(secret)}]}],
                                 "sent": [{"role": "user", "content": "look"}]}}
    path = tmp_path / "chat-session.json"
    path.write_text(json.dumps(document))
    page.fill("#chat-system textarea", "typed before loading")
    choose_session_file(page, "chat", str(path))
    expect(page.locator("#chat-session-status")).to_contain_text("refers to a file on the server by path", timeout=30_000)
    expect(page.locator("#chat-system textarea")).to_have_value("typed before loading")
    assert page.locator("#chat-chatbot .message").count() == 0
    assert "Gateway Playground" not in page.locator("#chat-chatbot").inner_text()
    no_error_badges(page)
