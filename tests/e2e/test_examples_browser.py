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
    expect(page.locator("#messages-metrics")).to_contain_text("finish", timeout=15_000)
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
    expect(page.locator("#responses-metrics")).to_contain_text("finish", timeout=15_000)
    expect(page.locator("#responses-notice")).to_be_hidden()
    page.click("#responses-inspector")
    request = page.locator("#responses-inspector-request")
    expect(request).to_contain_text('"model": "gpt-4.1"')
    expect(request).not_to_contain_text('"reasoning"')
    expect(request).not_to_contain_text("get_weather")
