"""Batch in a real browser (issue 38): a tie in the blind vote is recorded and rated (Elo, win rate,
Bradley-Terry with its interval); a second run of the same suite compared with the first shows per
column and per row what got better and the suite's trend, whose link opens the first run's view."""

from __future__ import annotations


import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.batch_page import batch_app, choose, open_batch

__all__ = ["batch_app"]  # the module fixture the tests take

pytestmark = pytest.mark.browser
SCRIPTED = "Describe a cat.\nWhat has keys but can't open locks? Answer in one sentence."
"""Prompts the demo answers with written text, which names no model: a vote on them is blind."""


def _run(page: Page, rows: str, max_tokens: str = "0") -> None:
    page.fill("#batch-paste textarea", rows)
    page.click("#batch-paste-use")
    expect(page.locator("#batch-data-status")).to_contain_text(f"{rows.count(chr(10)) + 1} rows", timeout=30_000)
    page.fill("#batch-max-tokens input", max_tokens)
    page.evaluate("() => document.querySelector('#batch-progress .batch-progress')?.remove()")  # the last run's bar: gone
    page.click("#batch-run")
    bar = page.locator("#batch-progress .batch-progress")
    expect(bar).to_have_attribute("data-total", str(2 * (rows.count(chr(10)) + 1)), timeout=30_000)
    expect(bar).to_have_attribute("data-status", "finished", timeout=60_000)


def test_a_tie_in_the_blind_vote_is_recorded_and_rated(browser: Browser, batch_app: str) -> None:
    page = open_batch(browser, batch_app)
    page.fill("#batch-user textarea", "{{question}}")
    _run(page, SCRIPTED)
    page.click("#batch-ab")
    page.click("#batch-ab-next")
    expect(page.locator("#batch-ab-prompt")).to_contain_text("Row", timeout=30_000)
    expect(page.locator("#batch-vote-tie")).to_have_text("Tie")
    page.click("#batch-vote-tie")
    expect(page.locator("#batch-ab-status")).to_contain_text("Vote recorded (1 so far)", timeout=30_000)
    board = page.locator("#batch-leaderboard")
    for heading in ("Elo", "win rate", "Bradley-Terry", "BT 95% interval"):
        expect(board.locator("th", has_text=heading).first).to_be_visible()
    expect(board.locator("tr", has_text="gx-2.5-flash")).to_contain_text("50%")  # a tie is half a win
    expect(board).to_contain_text("count a tie as half a win")
    page.context.close()


def test_a_second_run_against_the_first_and_the_link_to_a_run(browser: Browser, batch_app: str) -> None:
    page = open_batch(browser, batch_app)
    page.fill("#batch-user textarea", "{{question}}")
    choose(page, "#batch-grader-kind-0", "matches the regex")
    page.fill("#batch-grader-value-0 textarea, #batch-grader-value-0 input", r"whiskers|lock|offline")
    rows = SCRIPTED + "\nSay hi"  # 4 tokens cut every answer before the words the grader looks for; the second run is whole
    _run(page, rows, "4")
    _run(page, rows)
    page.click("#batch-changes-panel")
    baseline = page.locator("#batch-baseline input")
    expect(baseline).not_to_have_value("", timeout=30_000)  # opening the section listed this visitor's runs, the newest other first
    page.click("#batch-compare-baseline")
    changes = page.locator("#batch-changes")
    expect(changes).to_contain_text("What changed", timeout=30_000)
    expect(changes.locator("tr", has_text="chat completions · gx-2.5-flash").first).to_contain_text("+100 pts")
    expect(changes.locator("tr", has_text="Say hi").first).to_contain_text("better")
    expect(changes).to_contain_text("Trend of this suite")
    trend = changes.locator("table").last
    expect(trend.locator("tr")).to_have_count(3)  # heading + the two runs of this suite
    first_link = trend.locator("a").first
    href = first_link.get_attribute("href") or ""
    assert href.startswith("?tab=batch&run=")
    with page.expect_popup() as opened:  # the page's Markdown opens links in a new tab
        first_link.click()
    shown = opened.value
    shown.wait_for_url(f"**{href}")
    shown.wait_for_selector("#batch-user textarea")
    page = shown
    board = page.locator("#batch-leaderboard")
    expect(board).to_contain_text("pass: matches the regex", timeout=30_000)
    first_row = board.locator("tr", has_text="gx-2.5-flash")
    expect(first_row).to_contain_text("0%")  # the first run's view (its cut answers all failed), not the last
    expect(first_row).not_to_contain_text("100%")
    expect(page.locator("#link-notice")).to_be_hidden()
    page.context.close()
