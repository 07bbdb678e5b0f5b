"""Issue 37's walk through the Report tab in a real browser: the THOROUGH report on a demo gateway
with one planted defect (messages streams without usage, for one model), its failing cell opened
(the call's request and answer in the inspector), the client rows naming the SDK it breaks
(anthropic), the HTML page downloaded and read (the failing cell, the client rows, the latency as
a real table), and that report compared in the history with a second one on the clean gateway
(what was fixed shows)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from playground.client.report.model import FORMATS
from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.server import RunningGateway, start_in_thread
from playground.settings import Settings
from playground.ui.app import build_app, configure_queue, launch_options
from playground.ui.shared.connection import ServerDefaults
from tests.e2e.conftest import SERVER_KEY, fresh_page
from tests.e2e.pages import compare_kept_reports, open_tab

pytestmark = pytest.mark.browser
APP_PORT, PLANTED_PORT, CLEAN_PORT = 7600, 7601, 7602
"""This test's own app and gateways (a data directory of its own, so the history holds only its reports)."""
SONNET = "cl-sonnet-4-5-20250929"
FAILING = f"messages|{SONNET}|plain"
FAILING_NAME = f"messages · {SONNET} · plain answer"
THOROUGH_FORMATS = ("responses", "messages", "native")
"""The thorough run narrowed to one format per official client: all eight formats (704 cells: every
chat model and thinking variant, the embeddings and image models, one video job per family) took
212 s in this page on the shared 2-core test machine (load average 14), these three (286 cells)
78 s; docs/benchmarks.md, Issue 37, has the runner's own times."""
LEFT_OUT = tuple(fmt for fmt in FORMATS if fmt not in THOROUGH_FORMATS)
FORMAT_NAMES = {"chat": "chat completions", "responses": "responses", "messages": "messages", "native": "native",
                "embeddings": "embeddings (list)", "embeddings-native": "embeddings (native)", "images": "images", "video": "video"}
SUMMARY_DONE = re.compile(r"\d+ of \d+ checks passed")


def _gateway(port: int, *quirks: str) -> RunningGateway:
    """A demo gateway whose video jobs end in seconds (the thorough profile runs one per video family)."""
    return start_in_thread(DemoConfig(api_key=SERVER_KEY, token_delay=0.0, video_queue_seconds=0.5, video_run_seconds=4.0, quirks=quirks),
                           port=port)


@pytest.fixture(scope="module")
def gateways_and_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, RunningGateway, RunningGateway]]:
    planted = _gateway(PLANTED_PORT, f"drop-usage@{SONNET}")
    clean = _gateway(CLEAN_PORT)
    settings = Settings(read_timeout=10, data_dir=tmp_path_factory.mktemp("report-thorough-data"))
    blocks = configure_queue(build_app(settings, ServerDefaults(planted.url, SERVER_KEY, demo=True)))
    blocks.launch(server_name="127.0.0.1", server_port=APP_PORT, prevent_thread_lock=True, quiet=True, **launch_options())
    yield f"http://127.0.0.1:{APP_PORT}", planted, clean
    blocks.close()
    planted.stop()
    clean.stop()


@pytest.fixture
def own_page(browser: Browser, gateways_and_app: tuple[str, RunningGateway, RunningGateway]) -> Iterator[Page]:
    yield from fresh_page(browser, gateways_and_app[0])


def _run_and_wait(page: Page) -> None:
    """Run report, then wait for the run's last summary and its downloads."""
    page.click("#report-run")
    summary = page.locator("#report-summary")
    expect(summary).to_contain_text(SUMMARY_DONE, timeout=240_000)
    expect(summary).not_to_contain_text("checks done", timeout=240_000)  # the progress line is gone: the run has ended
    expect(page.locator('#report-downloads a[href$="gateway-report.html"]')).to_be_visible(timeout=60_000)


def _open_failing_cell(page: Page) -> None:
    cell = page.locator(f'#report-matrix-table td.fail[data-cell="{FAILING}"]')
    assert "anthropic" in (cell.get_attribute("title") or ""), "the tooltip names the client the cell breaks"
    cell.scroll_into_view_if_needed()
    cell.click()
    expect(page.locator("#report-cell-verdict")).to_contain_text("plain answer: fail", timeout=30_000)
    expect(page.locator("#report-cell-verdict")).to_contain_text("streamed answer: usage counts zero or missing tokens")
    expect(page.locator("#report-cell-verdict")).to_contain_text("breaks anthropic")
    page.click("#report-inspector")
    expect(page.locator("#report-inspector-request")).to_contain_text("/v1/messages")
    expect(page.locator("#report-inspector-request")).to_contain_text(SONNET)
    page.get_by_role("tab", name="Response / events").click()
    expect(page.locator("#report-inspector-response")).to_contain_text("HTTP 200")


def _check_clients(page: Page) -> None:
    clients = page.locator("#report-clients")
    anthropic = clients.locator('tr[data-client="anthropic"]')
    expect(anthropic.locator("td.not_ready")).to_have_text("not ready")
    expect(anthropic).to_contain_text(FAILING_NAME)
    for ready in ("openai", "google-genai"):
        expect(clients.locator(f'tr[data-client="{ready}"] td.ready')).to_be_visible()  # their optional usage fields: see docs/report.md


def _check_html_file(page: Page, folder: Path) -> None:
    with page.expect_download() as download:
        page.locator('#report-downloads a[href$="gateway-report.html"]').click()
    saved = folder / "gateway-report.html"
    download.value.save_as(saved)
    text = saved.read_text(encoding="utf-8")
    assert "|---|" not in text and "| format · model |" not in text, "no Markdown table is left unrendered"
    opened = page.context.new_page()
    opened.goto(saved.as_uri())
    expect(opened.locator("#report-summary-line")).to_contain_text(SUMMARY_DONE)
    failing = opened.locator("table.report-matrix td.fail")
    assert failing.count() >= 1 and any("plain answer" in (failing.nth(i).get_attribute("title") or "") for i in range(failing.count()))
    expect(opened.locator("details summary", has_text=FAILING_NAME)).to_be_visible()
    expect(opened.locator('tr[data-client="anthropic"] td.not_ready')).to_have_text("not ready")
    latency = opened.locator("table#report-latency-table")
    expect(latency.locator("th").first).to_have_text("format · model")
    assert latency.locator("tr").count() > 5, "one row per streamed format and model"
    expect(latency.locator("tr", has_text=f"messages · {SONNET}")).to_have_count(1)
    opened.close()


def _compare_in_history(page: Page, older: str, newer: str) -> None:
    diff = compare_kept_reports(page, older, newer)
    expect(diff).to_contain_text("Fixed", timeout=30_000)
    expect(diff).to_contain_text(FAILING_NAME)
    expect(diff).not_to_contain_text("Broke")


def test_thorough_report_failing_cell_clients_html_and_history(own_page: Page, gateways_and_app: tuple[str, RunningGateway, RunningGateway],
                                                                tmp_path: Path) -> None:
    page = own_page
    _, planted, clean = gateways_and_app
    open_tab(page, "Report", "#report-run")
    page.locator("#report-depth").get_by_text("Thorough", exact=False).click()
    expect(page.locator("#report-formats input[type=checkbox]:checked")).to_have_count(len(FORMATS))  # video too
    for fmt in LEFT_OUT:  # the thorough profile narrowed through the tab's own pickers (see THOROUGH_FORMATS)
        page.locator("#report-formats label").filter(has_text=re.compile(rf"^\s*{re.escape(FORMAT_NAMES[fmt])}\s*$")).click()
    expect(page.locator("#report-formats input[type=checkbox]:checked")).to_have_count(len(THOROUGH_FORMATS))
    page.locator("#report-concurrency input[type=number]").fill("12")
    page.locator("#report-concurrency input[type=number]").press("Enter")
    _run_and_wait(page)
    rows = page.locator("#report-matrix-table th.row").all_inner_texts()
    assert {row.split(" · ")[0] for row in rows[1:]} == {FORMAT_NAMES[fmt] for fmt in THOROUGH_FORMATS}, rows
    assert "messages · cl-haiku-4-5-20251001" in rows, "thorough: every model of the format, not one per family"
    _open_failing_cell(page)
    _check_clients(page)
    _check_html_file(page, tmp_path)

    page.click("#connection-panel")  # the second report: the clean gateway, only the messages format (the tab's own example)
    page.fill("#connection-url textarea", clean.url)
    page.fill("#connection-key input", SERVER_KEY)
    page.click("#report-example-1")
    expect(page.locator("#report-formats input[type=checkbox]:checked")).to_have_count(1)
    _run_and_wait(page)
    expect(page.locator("#report-matrix-table td.fail")).to_have_count(0)
    _compare_in_history(page, planted.url, clean.url)
