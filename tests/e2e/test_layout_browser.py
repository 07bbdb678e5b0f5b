"""Layout checks at a desktop width and at a phone width (issue 21 items 8 and 17): table headers
keep their words whole, the embeddings model name and the message box placeholder fit, the
Compare upload label does not cover its drop text, Compare columns keep the question in view,
a chat's copy and clear buttons do not cover its messages at rest, and the footer offers no empty
API page."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import RunningApp
from tests.e2e.pages import open_tab

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}

# For each element: is any word of its text wider than the element's content box (so the browser
# had to break it inside the word)? Measured with a canvas in the element's own font.
BROKEN_WORDS = """(elements) => {
  const canvas = document.createElement('canvas').getContext('2d');
  const broken = [];
  for (const el of elements) {
    const style = getComputedStyle(el);
    canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    for (const word of el.innerText.split(/\\s+|(?<=-)/).filter(Boolean)) {  // a hyphen is a fair place to wrap
      if (canvas.measureText(word).width > room + 1) broken.push(word);
    }
  }
  return broken;
}"""


# Area where the upload's label and its "Drop Image Here" text (the text itself, not its box) overlap.
OVERLAP = """(root) => {
  const label = root.querySelector('[data-testid=block-label], label').getBoundingClientRect();
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  let node, area = 0;
  while ((node = walker.nextNode())) {
    if (!/Drop|Click to Upload/.test(node.textContent)) continue;
    const range = document.createRange(); range.selectNodeContents(node);
    for (const r of range.getClientRects()) {
      const w = Math.min(r.right, label.right) - Math.max(r.left, label.left);
      const h = Math.min(r.bottom, label.bottom) - Math.max(r.top, label.top);
      if (w > 0 && h > 0) area += w * h;
    }
  }
  return area;
}"""


@pytest.fixture
def phone(browser: Browser, app_server: RunningApp) -> Iterator[Page]:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    tab = context.new_page()
    tab.goto(app_server.url)
    tab.wait_for_selector("#chat-input textarea")
    yield tab
    context.close()


def compare_once(page: Page) -> None:
    open_tab(page, "Compare", "#compare-send")
    page.click("#compare-example-0")
    expect(page.locator("#compare-message textarea")).to_have_value("What has keys but can't open locks? Answer in one sentence.")
    page.click("#compare-send")
    expect(page.locator("#compare-table table")).to_be_visible(timeout=30_000)


def test_compare_table_headers_keep_their_words_whole_on_a_phone(phone: Page) -> None:
    compare_once(phone)
    assert phone.locator("#compare-table th, #compare-table td").evaluate_all(BROKEN_WORDS) == []
    assert phone.locator("#header h1").evaluate_all(BROKEN_WORDS) == []


def test_compare_keeps_the_question_in_view_and_the_upload_label_clear(page: Page) -> None:
    compare_once(page)
    for index in range(4):
        chat = page.locator(f"#compare-chat-{index}")
        question = chat.locator(".message.user").first
        expect(question).to_contain_text("What has keys")
        box, shown = chat.bounding_box(), question.bounding_box()
        assert box and shown and shown["y"] >= box["y"] - 1, f"column {index + 1} cuts the question off at the top"
    overlap = page.locator("#compare-image").evaluate(OVERLAP)
    assert overlap == 0, f"the label covers {overlap:.0f} px² of the drop text"


def test_embeddings_model_name_and_message_placeholder_fit(page: Page) -> None:
    fits = "(el) => el.scrollWidth <= el.clientWidth + 1"
    placeholder_fits = """(el) => { const c = document.createElement('canvas').getContext('2d'); const s = getComputedStyle(el);
        c.font = `${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
        return c.measureText(el.placeholder).width <= el.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight); }"""
    assert page.locator("#chat-input textarea").evaluate(placeholder_fits), "the message box placeholder is cut"
    open_tab(page, "Embeddings", "#embeddings-list-model input")
    name = page.locator("#embeddings-list-model input")
    expect(name).to_have_value("text-embedding-3-small")
    assert name.evaluate(fits), "the model name is cut"


def test_the_chat_buttons_over_the_conversation_show_only_while_the_pointer_is_on_the_chat(page: Page) -> None:
    page.fill("#chat-input textarea", "Tell me a riddle. " * 12)  # a question long enough to reach the corner the buttons float in
    page.press("#chat-input textarea", "Enter")
    expect(page.locator("#chat-chatbot .message.bot").last).to_be_visible(timeout=30_000)
    buttons = page.locator("#chat-chatbot .top-panel")
    page.mouse.move(1, 1)
    expect(buttons).to_have_css("opacity", "0")  # over the message's end, at rest: not drawn
    page.locator("#chat-chatbot").hover()
    expect(buttons).to_have_css("opacity", "1")


def test_the_footer_offers_no_empty_api_page(page: Page) -> None:
    expect(page.locator("footer")).to_contain_text("Built with Gradio")
    expect(page.get_by_text("Use via API")).to_have_count(0)


def test_a_first_visit_on_a_phone_does_not_cover_the_page_with_the_tour(phone: Page) -> None:
    phone.wait_for_timeout(1500)  # the first-visit check runs on load
    box = phone.locator("#tour-steps").bounding_box()
    assert box is None or box["x"] < 0, "the tour opened over the whole page on a phone"
    phone.click("#tour-open")
    expect(phone.locator("#tour-steps")).to_be_in_viewport()
