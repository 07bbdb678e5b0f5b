"""The Report tab in a real browser: the quick report on the demo gateway, the matrix and the
summary, one cell's calls opened from the matrix, the HTML report downloaded and opened, and the
status badge and pull-request summary offered beside it."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.pages import open_tab

pytestmark = pytest.mark.browser


def test_quick_report_matrix_cell_and_html_download(page: Page, tmp_path: Path) -> None:
    open_tab(page, "Report", "#report-run")
    expect(page.locator("#report-checks")).to_contain_text("plain answer")  # the client's names, by their message ids
    expect(page.locator("#report-formats")).to_contain_text("embeddings (list)")
    page.locator("#report-concurrency input[type=number]").fill("12")
    page.locator("#report-concurrency input[type=number]").press("Enter")
    page.click("#report-run")
    link = page.locator('#report-downloads a[href$="gateway-report.html"]')
    expect(link).to_be_visible(timeout=180_000)
    summary = page.locator("#report-summary")
    expect(summary).to_contain_text(re.compile(r"(\d+) of \1 checks passed"))
    expect(summary).not_to_contain_text("running:")
    table = page.locator("#report-matrix-table")
    expect(table.locator("td.fail")).to_have_count(0)
    assert table.locator("td.pass").count() > 100
    first = table.locator("td.pass[data-cell]").first
    assert "plain answer — pass" in (first.get_attribute("title") or "")
    first.click()
    expect(page.locator("#report-cell-verdict")).to_contain_text("plain answer: pass", timeout=30_000)
    page.click("#report-inspector")
    expect(page.locator("#report-inspector-request")).to_contain_text("/v1/chat/completions")
    page.get_by_role("tab", name="curl").click()
    expect(page.locator("#report-code-curl")).to_contain_text("curl")
    with page.expect_download() as download:
        link.click()
    saved = tmp_path / "gateway-report.html"
    download.value.save_as(saved)
    opened = page.context.new_page()
    opened.goto(saved.as_uri())
    expect(opened.locator("#report-summary-line")).to_contain_text("checks passed")
    assert opened.locator("table.report-matrix td.pass").count() > 100
    badge = page.locator('#report-downloads a[href$="gateway-report-badge.svg"]')
    expect(badge).to_be_visible()
    with page.expect_download() as badge_download:
        badge.click()
    badge_file = tmp_path / "badge.svg"
    badge_download.value.save_as(badge_file)
    root = ET.parse(badge_file).getroot()
    assert "100% passed" in root.attrib["aria-label"]
    expect(page.locator('#report-downloads a[href$="gateway-report-summary.md"]')).to_be_visible()
