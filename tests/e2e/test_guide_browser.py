"""The first-visit tour, the shortcut list and the keyboard shortcuts, in Chromium."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.e2e.pages import open_tab

BOT = "#chat-chatbot .message.bot"
TOUR = "#tour-steps"


def tour_open(page: Page) -> bool:
    """The sidebar slides off the left edge when closed (it stays in the page)."""
    box = page.locator(TOUR).bounding_box()
    return box is not None and box["x"] >= 0


def wait_tour(page: Page, opened: bool) -> None:
    for _ in range(40):
        if tour_open(page) == opened:
            return
        page.wait_for_timeout(250)
    raise AssertionError(f"the tour should be {'open' if opened else 'closed'}")


def sent_events(page: Page) -> list[str]:
    """Record every event the page sends to the queue (one entry per send, retry, ...)."""
    joined: list[str] = []
    page.on("request", lambda request: joined.append(request.url) if "/queue/join" in request.url else None)
    return joined


def test_tour_opens_once_closes_and_reopens(page: Page) -> None:
    wait_tour(page, opened=True)
    expect(page.locator(TOUR)).to_contain_text("Pick a tab")
    tour_box, tabs_box = page.locator(TOUR).bounding_box(), page.locator("#tab-chat").bounding_box()
    assert tour_box and tabs_box and tour_box["x"] + tour_box["width"] <= tabs_box["x"], "the tour covers the tab it explains"
    page.click("#tour-close")
    wait_tour(page, opened=False)
    page.reload()
    page.wait_for_selector("#chat-input textarea")
    page.wait_for_timeout(2000)
    assert not tour_open(page), "the tour opened again on a second visit"
    page.click("#tour-open")
    wait_tour(page, opened=True)


def test_question_mark_lists_the_shortcuts(page: Page) -> None:
    expect(page.locator("#shortcuts-list")).not_to_be_visible()
    page.click("#shortcuts-open")
    for keys in ("Ctrl+Enter", "Esc", "Ctrl+Shift+Enter"):
        expect(page.locator("#shortcuts-list")).to_contain_text(keys)
    expect(page.locator("#shortcuts-list")).not_to_contain_text("Ctrl+Shift+R")  # the browser's hard reload
    page.click("#shortcuts-close")
    expect(page.locator("#shortcuts-list")).not_to_be_visible()
    page.click("#shortcuts-open")
    expect(page.locator("#shortcuts-list")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#shortcuts-list")).not_to_be_visible()


def test_ctrl_enter_sends_from_another_box_and_ctrl_shift_enter_retries(page: Page) -> None:
    page.click("#tour-close")
    page.fill("#chat-input textarea", "What is 9 times 9?")
    page.fill("#chat-system textarea", "Be brief.")
    events = sent_events(page)
    page.press("#chat-system textarea", "Control+Enter")
    expect(page.locator(BOT).last).to_contain_text("9 × 9 = 81", timeout=30_000)
    expect(page.locator("#chat-metrics")).to_contain_text("tokens/s", timeout=30_000)
    before = len(events)
    page.locator("#chat-input textarea").press("Control+Shift+Enter")  # from the message box, which would take Shift+Enter as a new line
    expect(page.locator("#chat-metrics")).to_contain_text("tokens/s", timeout=30_000)
    page.wait_for_timeout(1500)
    assert len(events) > before, "Ctrl+Shift+Enter sent nothing"
    expect(page.locator("#chat-input textarea")).to_have_value("")  # and typed no new line
    assert page.locator(BOT).count() == 1 and page.url.endswith("/"), "retry should replace the reply, not reload or add one"


def test_ctrl_enter_generates_in_the_images_tab(page: Page) -> None:
    page.click("#tour-close")
    open_tab(page, "Images", "#images-prompt textarea")
    page.fill("#images-prompt textarea", "a small red kite")
    page.press("#images-prompt textarea", "Control+Enter")
    expect(page.locator("#images-gallery img").first).to_be_visible(timeout=30_000)
