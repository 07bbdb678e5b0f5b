"""Presentation mode in Chromium at 1280x720, a projector's size: the header switch and `?present=1`
make the text larger (measured as computed font sizes) and are remembered; a slower demo pace makes
the riddle stream longer; Thinking stays open after the answer ends; Compare's four answers are in
the window after Send."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from playground.demo_gateway.common import split_pieces
from playground.ui.shared.guide import TOUR_STORAGE_KEY
from playground.ui.shared.presentation import PACES, PRESENT_CLASS
from tests.e2e.conftest import RunningApp
from tests.e2e.pages import open_tab

pytestmark = pytest.mark.browser
WIDTH, HEIGHT = 1280, 720
MEASURED = {"message box": "#chat-input textarea", "label": "#chat-model [data-testid='block-info']", "tab name": "button[role='tab']"}


@pytest.fixture
def projector(browser: Browser, app_server: RunningApp) -> Iterator[Callable[[str], Page]]:
    """Opens the app at `query` in a fresh 1280x720 browser (the tour already seen, as on a second visit)."""
    context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT})
    context.add_init_script(f"localStorage.setItem('{TOUR_STORAGE_KEY}', '1')")
    page = context.new_page()

    def opened(query: str = "") -> Page:
        page.goto(app_server.url + query)
        page.wait_for_selector("#chat-input textarea")
        return page

    yield opened
    context.close()


def font_sizes(page: Page) -> dict[str, float]:
    return {name: float(page.locator(selector).first.evaluate("(node) => getComputedStyle(node).fontSize").removesuffix("px"))
            for name, selector in MEASURED.items()}


def presenting(page: Page) -> bool:
    return bool(page.evaluate(f"document.documentElement.classList.contains('{PRESENT_CLASS}')"))


def test_the_switch_and_the_link_make_the_text_larger_and_are_remembered(projector: Callable[[str], Page]) -> None:
    page = projector("")
    expect(page.locator("#presentation-switch input")).not_to_be_checked()
    expect(page.locator("#demo-pace")).to_be_hidden()
    plain = font_sizes(page)
    page.locator("#presentation-switch input").check()
    expect(page.locator("#demo-pace")).to_be_visible()
    larger = font_sizes(page)
    assert presenting(page)
    assert all(larger[name] >= plain[name] * 1.2 for name in MEASURED), (plain, larger)

    page.reload()
    page.wait_for_selector("#chat-input textarea")
    expect(page.locator("#presentation-switch input")).to_be_checked()  # remembered in this browser
    assert font_sizes(page) == larger

    page.click("#chat-copy-link")
    expect(page.locator("#chat-link textarea")).to_have_value(re.compile(r"[?&]present=1\b"))

    projector("?present=0")
    expect(page.locator("#presentation-switch input")).not_to_be_checked()
    assert font_sizes(page) == plain and not presenting(page)
    projector("?present=1")
    expect(page.locator("#presentation-switch input")).to_be_checked()
    assert font_sizes(page) == larger


def send_riddle(page: Page) -> float:
    """Send the Chat tab's riddle (its first example, a thinking model); seconds until its metrics line says it finished."""
    page.click("#chat-example-0")
    expect(page.locator("#chat-input textarea")).to_have_value("What has keys but can't open locks? Think it through.")
    started = time.monotonic()
    page.locator("#chat-input textarea").press("Enter")
    expect(page.locator("#chat-metrics")).to_contain_text("finish: stop", timeout=60_000)
    return time.monotonic() - started


def test_a_slower_pace_makes_the_riddle_stream_longer(projector: Callable[[str], Page]) -> None:
    page = projector("?present=1")
    page.locator("#demo-pace input").click()
    page.get_by_role("option", name="Medium").click()
    expect(page.locator("#demo-pace input")).to_have_value("Medium")
    took = send_riddle(page)
    streamed = page.locator("#chat-chatbot .message.bot").last.inner_text()
    pieces = len(split_pieces(streamed)) - 1  # every word of the reasoning and the answer came as a piece; "Thinking" did not
    assert pieces > 20
    assert took >= 0.8 * pieces * PACES["medium"]  # the demo waited the chosen pace before each piece (its own is 0.02 s)


def test_thinking_stays_open_after_the_answer_ends_in_presentation_mode_only(projector: Callable[[str], Page]) -> None:
    page = projector("?present=0")
    send_riddle(page)
    expect(page.locator("#chat-chatbot .thought-group").first).to_be_visible()
    expect(page.locator("#chat-chatbot .thought-group .content")).to_have_count(0)  # Gradio closes it when the answer ends

    page = projector("?present=1")
    send_riddle(page)
    reasoning = page.locator("#chat-chatbot .thought-group .content").first
    expect(reasoning).to_be_visible()
    expect(reasoning).to_contain_text("piano")
    page.wait_for_timeout(500)
    expect(reasoning).to_be_visible()


def test_compares_four_answers_are_in_the_window_after_send(projector: Callable[[str], Page]) -> None:
    page = projector("?present=1")
    open_tab(page, "Compare", "#compare-send")
    page.fill("#compare-message textarea", "Write a long story about a lighthouse.")  # answers taller than the window
    page.click("#compare-send")
    for index in range(4):
        expect(page.locator(f"#compare-metrics-{index}")).to_contain_text("finish", timeout=90_000)
    page.wait_for_timeout(800)  # the smooth scroll to the answers has ended
    for index in range(4):
        expect(page.locator(f"#compare-chat-{index} .message.bot").last).to_contain_text("lighthouse")
        box = page.locator(f"#compare-chat-{index}").bounding_box()
        assert box is not None
        assert box["y"] >= 0 and box["y"] + box["height"] <= HEIGHT, (index, box)
        assert box["x"] >= 0 and box["x"] + box["width"] <= WIDTH, (index, box)


MISSING_GLYPHS_JS = """(root) => {
  // Each character of the text on screen drawn in the page's font, compared with a private-use
  // character no text font draws: the same pixels mean the machine has no glyph for it (an empty box).
  const canvas = document.createElement("canvas");
  canvas.width = 64; canvas.height = 64;
  const ctx = canvas.getContext("2d", {willReadFrequently: true});
  ctx.font = "32px " + getComputedStyle(document.querySelector(root)).fontFamily;
  const draw = (ch) => { ctx.clearRect(0, 0, 64, 64); ctx.fillText(ch, 8, 40); return ctx.getImageData(0, 0, 64, 64).data.join(","); };
  const missing = draw("\\uE000");
  const seen = [...new Set([...document.querySelector(root).innerText].filter((ch) => ch.trim()))];
  return seen.filter((ch) => draw(ch) === missing);
}"""


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_the_header_and_the_page_draw_every_character_without_an_emoji_font(browser: Browser, app_server: RunningApp, locale: str,
                                                                           tmp_path: object) -> None:
    context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT}, locale=locale)
    context.add_init_script(f"localStorage.setItem('{TOUR_STORAGE_KEY}', '1')")
    try:
        page = context.new_page()
        page.goto(app_server.url + "?present=1")
        page.wait_for_selector("#chat-input textarea")
        expect(page.locator("#gateway-badge")).to_contain_text("localhost")
        page.locator("#header").screenshot(path=f"{tmp_path}/header-{locale}.png")
        assert page.evaluate(MISSING_GLYPHS_JS, "#header") == []
        assert page.evaluate(MISSING_GLYPHS_JS, ".gradio-container") == []
    finally:
        context.close()
