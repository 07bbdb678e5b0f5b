"""An example click in a real browser sets what the example needs and puts every other setting
back to the tab's default, whatever an earlier curl import or example left (issue 21 item 4)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.pages import import_curl, open_tab

pytestmark = pytest.mark.browser


def test_a_messages_example_after_a_curl_import_sends_the_tab_defaults(page: Page) -> None:
    import_curl(page, """curl https://api.example.com/v1/messages -H "x-api-key: sk-pasted-0000-2222" \\
      -d '{"model": "cl-haiku-4-5-20251001", "max_tokens": 700, "temperature": 0.2, "stream": false, "system": "Be terse.",
           "messages": [{"role": "user", "content": "imported question"}]}'""")
    expect(page.locator("#messages-model input")).to_have_value("cl-haiku-4-5-20251001")
    expect(page.locator("#messages-stream input")).not_to_be_checked()
    page.click("#connection-panel")  # the pasted host is not reachable from here: back to the demo gateway
    page.fill("#connection-url textarea", "")
    page.fill("#connection-key input", "")
    page.click("#messages-example-0")
    expect(page.locator("#messages-input textarea")).to_have_value("What has keys but can't open locks? Think it through.")
    expect(page.locator("#messages-thinking input")).to_be_checked()
    expect(page.locator("#messages-stream input")).to_be_checked()
    expect(page.locator("#messages-model input")).not_to_have_value("cl-haiku-4-5-20251001")
    expect(page.locator("#messages-system textarea")).to_have_value("")
    page.locator("#messages-input textarea").press("Enter")
    expect(page.locator("#messages-metrics")).to_contain_text("finish", timeout=30_000)
    page.click("#messages-inspector")
    request = page.locator("#messages-inspector-request")
    expect(request).to_contain_text('"stream": true')
    expect(request).not_to_contain_text("Be terse")
    expect(request).not_to_contain_text('"temperature": 0.2')


def test_chain_two_turns_example_asks_no_reasoning_of_a_model_without_it(page: Page) -> None:
    open_tab(page, "Responses", "#responses-input textarea")
    page.click("#responses-example-3")  # the weather tool
    expect(page.locator("#responses-input textarea")).to_have_value("What's the weather in Paris?")
    page.click("#responses-example-1")
    expect(page.locator("#responses-input textarea")).to_have_value("Give me a word for happy.")
    expect(page.locator("#responses-chain input")).to_be_checked()
    page.locator("#responses-input textarea").press("Enter")
    expect(page.locator("#responses-metrics")).to_contain_text("finish", timeout=30_000)
    expect(page.locator("#responses-notice")).to_be_hidden()
    page.click("#responses-inspector")
    request = page.locator("#responses-inspector-request")
    expect(request).to_contain_text('"model": "gpt-4.1"')
    expect(request).not_to_contain_text('"reasoning"')
    expect(request).not_to_contain_text("get_weather")


def _top_in_window(page: Page, selector: str) -> bool:
    """Whether the top edge of `selector` is inside the window (so its start is on screen)."""
    return page.eval_on_selector(selector, "el => { const top = el.getBoundingClientRect().top; return top >= 0 && top < window.innerHeight; }")


@pytest.mark.parametrize(("label", "starts", "at", "shows"), [
    ("Chat", "#chat-example-0", "start", "#chat-chatbot"),  # the chat is above the examples
    ("Compare", "#compare-example-0", "end", "#compare-chat-0"),  # the answers are below them
    ("Video", "#video-submit", "start", "#video-board"),  # the progress bar is above Generate
])
def test_what_a_person_starts_is_brought_into_view_on_a_projector(page: Page, label: str, starts: str, at: str, shows: str) -> None:
    """At 1280x720 an example or Generate pressed with the result's place off screen scrolls that
    place into view (issue 40: the streaming answer and the progress bar were out of the window)."""
    page.set_viewport_size({"width": 1280, "height": 720})
    open_tab(page, label, starts)
    page.eval_on_selector(starts, f"el => el.scrollIntoView({{block: '{at}'}})")
    assert not _top_in_window(page, shows)
    page.click(starts)
    page.wait_for_function("selector => { const top = document.querySelector(selector).getBoundingClientRect().top;"
                           " return top >= 0 && top < window.innerHeight; }", arg=shows, timeout=5_000)
