"""Attacks a visitor can make from the page itself: each shows our message and loses nothing."""

from __future__ import annotations

from playwright.sync_api import Page, expect


def set_text(page: Page, selector: str, text_js: str) -> None:
    """Put text the keyboard cannot type (a lone surrogate) into a text box, as a script would."""
    page.eval_on_selector(selector, f"""(box) => {{
        box.value = {text_js};
        box.dispatchEvent(new Event('input', {{bubbles: true}}));
    }}""")


def test_lone_surrogate_in_the_chat_prompt(page: Page) -> None:
    set_text(page, "#chat-input textarea", "'half a pair \\ud800 here'")
    page.press("#chat-input textarea", "Enter")
    page.wait_for_timeout(3000)
    page.screenshot(path="/tmp/secfiles-surrogate.png")
    print(page.inner_text("body")[:3000])
