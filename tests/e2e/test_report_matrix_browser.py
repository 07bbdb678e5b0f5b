"""The Report's matrix at a projector's 1280x720: a wide matrix scrolls sideways inside its own box
(the page itself never overflows), every heading fits its column, every mark has a legend entry, and a skipped cell and a cell of
a check made for other formats say why when clicked."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from playground.client.report import document
from playground.client.report.model import FORMATS, CheckResult, Report, Scope
from tests.e2e.conftest import RunningApp
from tests.e2e.pages import open_tab

pytestmark = pytest.mark.browser
STATUSES = ("pass", "skipped", "pass", "unsupported")


@pytest.fixture
def small_page(browser: Browser, app_server: RunningApp) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    page.goto(app_server.url)
    page.wait_for_selector("#chat-input textarea")
    yield page
    context.close()


def wide_report(folder: Path) -> Path:
    """A saved thorough report (every format but video, every model and check): the widest matrix."""
    scope = Scope.default(thorough=True, formats=FORMATS[:-1])
    report = Report("http://gateway.example", scope)
    for index, (fmt, model, check) in enumerate(scope.cells()):
        report.results.append(CheckResult(fmt, model, check, STATUSES[index % len(STATUSES)], f"the reason for {model} {check}"))
    report.finished = True
    path = folder / "wide-report.json"
    path.write_text(document.dumps(report), encoding="utf-8")
    return path


def test_a_wide_matrix_scrolls_in_its_box_and_every_cell_says_why(small_page: Page, tmp_path: Path) -> None:
    page = small_page
    open_tab(page, "Report", "#report-run")
    page.locator("#report-load-file input[type=file]").set_input_files(str(wide_report(tmp_path)))
    box = page.locator("#report-matrix-table")
    expect(box).to_be_visible(timeout=30_000)
    box.scroll_into_view_if_needed()
    sizes = box.evaluate("""(box) => ({scroll: box.scrollWidth, client: box.clientWidth, right: box.getBoundingClientRect().right,
        height: box.getBoundingClientRect().height, page: document.documentElement.scrollWidth, window: window.innerWidth,
        windowHeight: window.innerHeight})""")
    assert sizes["scroll"] > sizes["client"], "the matrix is wider than its box"
    assert sizes["page"] <= sizes["window"] and sizes["right"] <= sizes["window"], "the page itself does not overflow"
    assert sizes["height"] <= sizes["windowHeight"], "the box fits the window, so its scroll bar can be reached"
    clipped = box.evaluate("""(box) => [...box.querySelectorAll('th.col')].filter(th => th.scrollWidth > th.clientWidth + 1)
        .map(th => th.textContent)""")
    assert clipped == [], "every check's heading fits its column (a long word is broken, not cut)"
    moved = box.evaluate("(box) => { box.scrollLeft = 300; return box.scrollLeft; }")
    assert moved == 300
    label = box.locator("th.row", has_text="chat completions · gx-2.5-flash").first
    assert label.bounding_box()["x"] >= box.bounding_box()["x"] - 1, "the row names stay in view while the checks scroll"  # type: ignore[index]
    legend = page.locator("#report-legend li")
    expect(legend).to_have_count(6)  # the five marks and the compatible verdict's small one
    expect(legend.last).to_contain_text("the compatible verdict")
    expect(page.locator("#report-legend")).to_contain_text("not checked here")
    skipped = box.locator("td.skipped[data-cell]").first
    skipped.scroll_into_view_if_needed()
    skipped.click()
    verdict = page.locator("#report-cell-verdict")
    expect(verdict).to_contain_text("skipped", timeout=30_000)
    expect(verdict).to_contain_text("the reason for")
    absent = box.locator('td.absent[data-cell^="embeddings-native|"]').first
    absent.scroll_into_view_if_needed()
    absent.click()
    expect(verdict).to_contain_text("not checked here", timeout=30_000)
    expect(verdict).to_contain_text("embeddings (list)")


def test_an_example_fills_the_pickers_and_runs(small_page: Page) -> None:
    page = small_page
    open_tab(page, "Report", "#report-run")
    expect(page.locator("#report-examples")).to_contain_text("Only the messages format")
    page.click("#report-example-1")
    expect(page.locator("#report-formats input[type=checkbox]:checked")).to_have_count(1)
    page.click("#report-run")
    summary = page.locator("#report-summary")
    expect(summary).to_contain_text(re.compile(r"\d+ of \d+ checks passed"), timeout=120_000)
    expect(summary).not_to_contain_text("checks done", timeout=120_000)  # the progress line is gone: the run has ended
    rows = page.locator("#report-matrix-table th.row").all_inner_texts()
    assert rows[1:] and all(row.startswith("messages · ") for row in rows[1:]), rows
    assert page.locator("#report-matrix-table td.pass[data-cell]").count() > 5
