"""The key echoed by the gateway, seen from a real browser on the hosted app: every byte the page
received (its fetches, the event streams included) is searched for the server's key and for
the two pieces the demo gateway streams it in. Also shows that the page itself works through
the hosted-mode page guard."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect, sync_playwright

from tests.browser import CHROMIUM, CHROMIUM_ARGS
from tests.security.page_session import SERVER_KEY, launched

pytestmark = pytest.mark.browser
KEY = SERVER_KEY

TEE_FETCH = """
window.__received = [];
const originalFetch = window.fetch;
window.fetch = async (...args) => {
  const response = await originalFetch(...args);
  if (!response.body) return response;
  const [mine, theirs] = response.body.tee();
  (async () => {
    const reader = mine.getReader();
    const decoder = new TextDecoder();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      window.__received.push(decoder.decode(value, { stream: true }));
    }
  })();
  return new Response(theirs, { status: response.status, statusText: response.statusText, headers: response.headers });
};
"""


@pytest.fixture(scope="module")
def hosted_url() -> Iterator[str]:
    with launched(hosted=True) as app:
        yield app.url


@pytest.fixture
def page(hosted_url: str) -> Iterator[Page]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        context.add_init_script(TEE_FETCH)
        tab = context.new_page()
        tab.goto(hosted_url)
        tab.wait_for_selector("#chat-input textarea")
        yield tab
        browser.close()


def test_the_page_never_receives_the_echoed_key(page: Page) -> None:
    page.fill("#chat-input textarea", "hello [[fault:echo_key]]")
    page.keyboard.press("Enter")
    expect(page.locator("#chat-chatbot")).to_contain_text("Bearer ***", timeout=30_000)
    expect(page.locator("#chat-chatbot")).to_contain_text("offline demo gateway", timeout=30_000)
    page.fill("#chat-input textarea", "again [[fault:echo_key_error]]")
    page.keyboard.press("Enter")
    expect(page.locator("#chat-error")).to_contain_text("Bearer ***", timeout=30_000)
    page.wait_for_timeout(500)
    received = "".join(page.evaluate("window.__received"))
    assert "Bearer ***" in received  # the tee saw the streamed updates
    shown = received + page.content()
    for secret in (KEY, KEY[:16], KEY[16:]):
        assert secret not in shown
