"""Two visitors in Chromium on the hosted app (issue 35): the first runs a batch and exports it;
the second (another browser, another address: its requests carry X-Forwarded-For as the Space's
proxy would add it; Chromium's downloads do not carry the harness's headers, so the first visitor
is the one who comes straight from the loopback address) writes the first one's run id into the
Batch tab's browser store, as the issue's attacker did, and reloads. They see no row or answer, and Resume, Export, a blind pair and a vote
answer as for a run that does not exist; the first one's run file gains nothing. The export
URLs download in the first visitor's browser and answer 404 to the second's browser, to a script
with no session and to a script from the first visitor's own address without its browser."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.security.stored_runs import run_ids, snapshot
from playground.ui.tabs.batch.layout import LAST_RUN_KEY
from tests.e2e.pages import open_accordion, open_tab
from tests.security.page_session import LOOPBACK_PROXY, LaunchedApp, launched

pytestmark = pytest.mark.browser
FIRST: dict[str, str] = {}
SECOND = {"X-Forwarded-For": "151.101.1.69"}


@pytest.fixture(scope="module")
def hosted(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LaunchedApp, Path]]:
    data_dir = tmp_path_factory.mktemp("data")
    with launched(hosted=True, data_dir=data_dir, trusted_proxies=LOOPBACK_PROXY) as app:
        yield app, data_dir



def _visitor(browser: Browser, url: str, headers: dict[str, str]) -> Page:
    context: BrowserContext = browser.new_context(viewport={"width": 1500, "height": 1100}, extra_http_headers=headers)
    page = context.new_page()
    page.goto(url)
    open_tab(page, "Batch", "#batch-user textarea")
    return page


def _export_links(page: Page) -> list[str]:
    open_accordion(page, "Export and session file", "#batch-export")
    page.click("#batch-export")
    links = page.locator("#batch-export-files a[href*='/gradio_api/file=']")
    expect(links).to_have_count(5, timeout=30_000)
    return links.evaluate_all("links => links.map(link => link.href)")


def test_a_second_visitor_cannot_see_export_resume_or_vote_in_the_first_ones_run(browser: Browser, hosted: tuple[LaunchedApp, Path]) -> None:
    app, data_dir = hosted
    first = _visitor(browser, app.url, FIRST)
    first.fill("#batch-paste textarea", "What is 2 plus 2?\nWhat is 3 plus 3?")
    first.click("#batch-paste-use")
    expect(first.locator("#batch-data-status")).to_contain_text("2 rows", timeout=30_000)
    first.click("#batch-run")
    bar = first.locator("#batch-progress .batch-progress")
    expect(bar).to_have_attribute("data-status", "finished", timeout=40_000)
    expect(first.locator("#batch-grid")).to_contain_text("What is 3 plus 3?")
    links = _export_links(first)
    with first.expect_download() as download:
        first.locator("#batch-export-files a[href$='batch-cells.csv']").click()
    assert "What is 2 plus 2?" in Path(download.value.path()).read_text(encoding="utf-8")
    stored = first.evaluate(f"() => localStorage.getItem({LAST_RUN_KEY!r})")
    assert stored
    (run_id,) = run_ids(data_dir)
    before = snapshot(data_dir, run_id)

    second = _visitor(browser, app.url, SECOND)
    second.evaluate("([key, value]) => localStorage.setItem(key, value)", [LAST_RUN_KEY, stored])
    second.reload()
    open_tab(second, "Batch", "#batch-user textarea")
    second.wait_for_timeout(1_500)  # the page's load events have answered
    expect(second.locator("#batch-progress")).to_contain_text("No run yet")
    for shown in ("#batch-grid", "#batch-leaderboard"):
        expect(second.locator(shown)).not_to_contain_text("plus")
    second.click("#batch-resume")
    expect(second.locator("#batch-error")).to_contain_text("Nothing to resume", timeout=30_000)
    open_accordion(second, "Export and session file", "#batch-export")
    second.click("#batch-export")
    expect(second.locator("#batch-session-status")).to_contain_text("Run a batch first", timeout=30_000)
    expect(second.locator("#batch-export-files a")).to_have_count(0)
    second.click("#batch-ab")
    second.click("#batch-ab-next")
    expect(second.locator("#batch-ab-prompt")).to_contain_text("Run a batch first", timeout=30_000)
    second.click("#batch-vote-a")
    expect(second.locator("#batch-ab-status")).to_contain_text("Run a batch first", timeout=30_000)
    assert snapshot(data_dir, run_id) == before  # nothing resumed, voted or written

    for link in links:
        assert second.context.request.get(link).status == 404  # the second visitor's browser, with its cookie and session
        assert first.context.request.get(link).status == 200  # the owner's browser
    with httpx.Client(timeout=30) as script:
        for link in links:
            assert script.get(link).status_code == 404  # from the owner's own address, without the owner's browser (cookie)
            assert script.get(link, headers=SECOND).status_code == 404
