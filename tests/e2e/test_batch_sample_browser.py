"""Batch's sample in Chromium at 1280x720, in English and in Chinese: the tab opens with only the
columns and the grader row in use and no model grader's box; one click on the sample fills three
columns, two graders and eight questions in the page's language; Run gives a graded leaderboard
whose models differ, each named on at most two lines; a cell opened without a model grader shows no
model grader's box; "Add a column" shows one more; a reload shows the run together with the prompt
and data set it ran; and the filled sample leaves the page quiet."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.batch_page import batch_app
from tests.e2e.pages import open_tab

__all__ = ["batch_app"]  # the module fixture the tests take

pytestmark = pytest.mark.browser

LANGUAGES = {
    "en": {"tab": "Batch", "prompt": "Answer briefly: {{question}}", "question": "What is the capital of Australia?", "rows": "8 rows",
           "board": "Leaderboard", "passed": "pass: contains", "answer": "Canberra"},
    "zh-CN": {"tab": "批量", "prompt": "简短回答：{{question}}", "question": "澳大利亚的首都是哪里？", "rows": "8 行",
              "board": "排行榜", "passed": "通过：包含", "answer": "堪培拉"},
}


def _shown(page: Page, ids: list[str]) -> list[bool]:
    return [page.locator(f"#{elem_id}").is_visible() for elem_id in ids]


def _columns(page: Page) -> list[bool]:
    return _shown(page, [f"batch-format-{index}" for index in range(8)])


def _graders(page: Page) -> list[bool]:
    return _shown(page, [f"batch-grader-kind-{slot}" for slot in range(6)])


def _pass_rates(page: Page) -> list[list[str]]:
    """Each leaderboard line's two pass-rate cells (the fourth and fifth), as shown."""
    lines = page.locator("#batch-leaderboard table tbody tr")
    return [[lines.nth(index).locator("td").nth(cell).inner_text().replace("★", "").strip() for cell in (3, 4)] for index in range(lines.count())]


def _first_cell_lines(page: Page) -> list[int]:
    """How many lines each leaderboard line's first cell (the column's format and model) is drawn on."""
    return page.locator("#batch-leaderboard table tbody td:first-child").evaluate_all(
        """cells => cells.map(cell => { const range = document.createRange(); range.selectNodeContents(cell);
               return new Set(Array.from(range.getClientRects(), rect => Math.round(rect.top))).size; })""")


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_sample_runs_to_a_leaderboard_with_differences_and_a_reload_keeps_it_whole(browser: Browser, batch_app: str,
                                                                                        language: str) -> None:
    words = LANGUAGES[language]
    page = browser.new_context(locale=language, viewport={"width": 1280, "height": 720}).new_page()
    page.goto(batch_app)
    open_tab(page, words["tab"], "#batch-user textarea")
    expect(page.locator("#batch-format-1")).to_be_visible()
    assert _columns(page) == [True, True] + [False] * 6 and _graders(page) == [True] + [False] * 5, "only what is in use, one grader row"
    expect(page.locator("#batch-grader-exchange")).to_be_hidden()

    page.click("#batch-example-0")
    expect(page.locator("#batch-data-status")).to_contain_text(words["rows"], timeout=30_000)
    expect(page.locator("#batch-user textarea")).to_have_value(words["prompt"])
    expect(page.locator("#batch-preview")).to_contain_text(words["question"])
    expect(page.locator("#batch-format-2")).to_be_visible()
    expect(page.locator("#batch-grader-kind-1")).to_be_visible()
    assert _columns(page) == [True] * 3 + [False] * 5 and _graders(page) == [True] * 2 + [False] * 4
    expect(page.locator("#batch-model-2 input")).to_have_value("cl-sonnet-4-5-20250929")
    expect(page.locator("#batch-run")).to_be_in_viewport()  # the example brings what it starts into view

    page.click("#batch-run")
    bar = page.locator("#batch-progress .batch-progress")
    expect(bar).to_have_attribute("data-status", "finished", timeout=60_000)
    expect(bar).to_have_attribute("data-done", "24")
    board = page.locator("#batch-leaderboard")
    expect(board).to_contain_text(words["board"], timeout=30_000)
    expect(board).to_contain_text(words["passed"])
    assert _pass_rates(page) == [["100%", "100%"], ["62%", "100%"], ["100%", "0%" if language == "en" else "62%"]], "models that differ"
    assert max(_first_cell_lines(page)) <= 2, "the leaderboard's first column is squeezed into a narrow strip"

    page.locator("#batch-grid").get_by_text(words["answer"]).filter(visible=True).first.click()
    expect(page.locator("#batch-cell")).to_contain_text(words["answer"], timeout=30_000)
    expect(page.locator("#batch-grader-exchange")).to_be_hidden()  # no model grader: no model grader's box

    page.click("#batch-add-column")
    expect(page.locator("#batch-format-3")).to_be_visible()
    assert _columns(page) == [True] * 4 + [False] * 4

    page.reload()  # the last run comes back with the prompt and data set it ran, and only its columns and graders
    open_tab(page, words["tab"], "#batch-user textarea")
    expect(page.locator("#batch-leaderboard")).to_contain_text(words["passed"], timeout=30_000)
    expect(page.locator("#batch-user textarea")).to_have_value(words["prompt"])
    expect(page.locator("#batch-data-status")).to_contain_text(words["rows"])
    expect(page.locator("#batch-preview")).to_contain_text(words["question"])
    expect(page.locator("#batch-format-2")).to_be_visible(timeout=30_000)  # the columns come back in a later step than the board
    expect(page.locator("#batch-grader-kind-1")).to_be_visible()
    assert _columns(page) == [True] * 3 + [False] * 5 and _graders(page) == [True] * 2 + [False] * 4
    page.context.close()


def test_the_filled_sample_leaves_the_page_quiet(browser: Browser, batch_app: str) -> None:
    """Filling the sample's columns changes each column picker once; the events that follow those changes run
    and end (Gradio ran a deferred `change` listener again through its trigger, which ran the trigger's other
    listeners too and deferred them again: about five calls a second, a whole core, until the page closed)."""
    page = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    page.goto(batch_app)
    open_tab(page, "Batch", "#batch-user textarea")
    page.click("#batch-example-0")
    expect(page.locator("#batch-data-status")).to_contain_text("8 rows", timeout=30_000)
    expect(page.locator("#batch-format-2")).to_be_visible()
    page.wait_for_timeout(2000)  # what the filling started ends
    calls: list[str] = []
    page.on("request", lambda request: calls.append(request.url) if "/gradio_api/" in request.url else None)
    page.wait_for_timeout(3000)
    assert calls == [], f"{len(calls)} calls in 3 s of a page nobody touches"
    page.context.close()
