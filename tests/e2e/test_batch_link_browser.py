"""A Batch link carries the data set and the graders (issue 40), in Chromium: rows pasted, a grader, the run's settings
(repeats, requests at once, max output tokens, stream and cache for all columns) and a column's own settings set, Copy link,
the link opened in a new page shows the same data set, grader and settings, and runs them; a link whose data set was tampered
with is refused with the reason named at the top of the tab, in view at 1280x720, and the rest of it still opens; what Copy
link left out is said in the link box's label."""

from __future__ import annotations

import json
import random
import re
from urllib.parse import parse_qs, urlencode, urlsplit, urlunsplit

import pytest
from playwright.sync_api import Browser, Page, expect

from playground.client.texts import TEMPLATES
from playground.ui.i18n import CATALOGUE
from tests.client.batch.importers.fixtures import FIXTURES
from tests.e2e.batch_page import batch_app, choose, open_batch

__all__ = ["batch_app"]  # the module fixture the tests take

pytestmark = pytest.mark.browser

ROWS = "\n".join(f'{{"country": "{country}", "expected": "{capital}"}}' for country, capital in (("France", "Paris"), ("Japan", "Tokyo"), ("Italy", "Rome")))
"""JSON lines: with one variable in the prompt, pasted lines are otherwise one value each."""
TEXTS = CATALOGUE.texts["en"]
PROMPT = "What is the capital of {{country}}? One word."


def copied(page: Page) -> str:
    page.click("#batch-copy-link")
    box = page.locator("#batch-link textarea")
    expect(box).not_to_have_value("", timeout=30_000)
    return box.input_value()


def opened(browser: Browser, link: str, width: int = 1500, height: int = 1100) -> Page:
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    page.goto(link)
    page.wait_for_selector("#batch-user textarea", timeout=60_000)
    return page


def filled(browser: Browser, batch_app: str) -> Page:
    """The Batch tab with the prompt, the pasted rows and a `contains` grader on the expected answer."""
    page = open_batch(browser, batch_app)
    page.fill("#batch-user textarea", PROMPT)
    page.fill("#batch-paste textarea", ROWS)
    page.click("#batch-paste-use")
    expect(page.locator("#batch-data-status")).to_contain_text("3 rows", timeout=30_000)
    choose(page, "#batch-grader-kind-0", TEMPLATES["graders.kind.contains"])
    page.fill("#batch-grader-value-0 textarea", "{{expected}}")
    return page


def test_a_link_opens_the_pasted_data_set_and_grader_in_a_new_page_which_runs_them(browser: Browser, batch_app: str) -> None:
    page = filled(browser, batch_app)
    contains = TEMPLATES["graders.kind.contains"]
    page.fill("#batch-col-temperature-1 textarea", "0.2")  # the second column's own settings
    choose(page, "#batch-col-stream-1", "off")
    page.fill("#batch-repeats input", "3")  # the run's settings (issue 40: only the temperature was linked)
    page.fill("#batch-concurrency input[type=number]", "3")
    page.fill("#batch-max-tokens input", "64")
    page.uncheck("#batch-stream input")
    page.check("#batch-cache input")
    page.click("#batch-mock")  # the mocked tools: the example, offered by the second column
    page.click("#batch-mock-example")
    expect(page.locator("#batch-mock-tools")).to_contain_text("get_weather", timeout=30_000)
    page.check("#batch-col-tools-1 input")
    link = copied(page)
    query = parse_qs(urlsplit(link).query)
    assert query["tab"] == ["batch"] and query["data"][0] and query["graders"][0] and query["q"] == [PROMPT]
    assert query["temperature2"] == ["0.2"] and query["stream2"] == ["off"]
    assert (query["repeats"], query["concurrency"], query["tokens"], query["stream"], query["cache"]) == (["3"], ["3"], ["64"], ["false"], ["true"])
    assert "get_weather" in query["mocks"][0] and query["tools2"] == ["true"] and query["tools1"] == ["false"]
    expect(page.locator("#batch-link-note")).to_be_hidden()
    expect(page.locator("#batch-link")).to_contain_text(TEXTS["links.box"])

    other = opened(browser, link)
    expect(other.locator("#batch-data-status")).to_contain_text("3 rows", timeout=30_000)
    expect(other.locator("#batch-data-status")).to_contain_text("from JSONL")
    expect(other.locator("#batch-preview")).to_contain_text("Japan")
    expect(other.locator("#batch-preview")).to_contain_text("Tokyo")
    expect(other.locator("#batch-grader-kind-0 input")).to_have_value(contains)
    expect(other.locator("#batch-grader-value-0 textarea")).to_have_value("{{expected}}")
    expect(other.locator("#batch-user textarea")).to_have_value(PROMPT)
    expect(other.locator("#batch-col-temperature-1 textarea")).to_have_value("0.2")
    expect(other.locator("#batch-columns-used")).to_contain_text("temperature 0.2 (its own) · max output tokens 64 (all columns) · stream off (its own)")
    expect(other.locator("#batch-columns-used")).to_contain_text("stream off (all columns)")  # the first column: the run's stream, unticked
    expect(other.locator("#batch-repeats input")).to_have_value("3")
    expect(other.locator("#batch-concurrency input[type=number]")).to_have_value("3")
    expect(other.locator("#batch-max-tokens input")).to_have_value("64")
    expect(other.locator("#batch-stream input")).not_to_be_checked()
    expect(other.locator("#batch-cache input")).to_be_checked()
    expect(other.locator("#batch-col-tools-1 input")).to_be_checked()
    expect(other.locator("#batch-col-tools-0 input")).not_to_be_checked()
    other.click("#batch-mock")
    expect(other.locator("#batch-mock-tools")).to_contain_text("get_weather")
    expect(other.locator("#batch-link-notice")).to_be_hidden()
    expect(other.locator("#link-notice")).to_be_hidden()

    other.click("#batch-run")
    bar = other.locator("#batch-progress .batch-progress")
    expect(bar).to_have_attribute("data-status", "finished", timeout=60_000)
    expect(bar).to_have_attribute("data-done", "18")  # three rows, two columns, three repeats
    expect(other.locator("#batch-leaderboard")).to_contain_text(f"pass: {contains}", timeout=30_000)
    other.context.close()
    page.context.close()


def test_a_tampered_data_set_is_refused_by_name_and_the_rest_of_the_link_opens(browser: Browser, batch_app: str) -> None:
    page = filled(browser, batch_app)
    parts = urlsplit(copied(page))
    query = {name: values[0] for name, values in parse_qs(parts.query).items()}
    query["data"] = query["data"][:-8]  # cut on its way
    query.update(repeats="99", concurrency="2", prompt1="Capitals @ v1")  # 99 repeats: more than the box allows, named; the rest opens
    page.context.close()

    other = opened(browser, urlunsplit(parts._replace(query=urlencode(query))), 1280, 720)
    notice = other.locator("#batch-link-notice")
    expect(notice).to_contain_text("The data set: its compressed text is damaged or cut short", timeout=30_000)
    expect(notice).to_be_in_viewport()  # at the top of the tab, not under Run ~2,000 px down (issue 40)
    expect(other.locator("#batch-notice")).to_be_hidden()
    expect(other.locator("#link-notice")).to_contain_text("repeats (not a value this tab offers there)")
    expect(other.locator("#batch-repeats input")).to_have_value("1")
    expect(other.locator("#batch-concurrency input[type=number]")).to_have_value("2")
    expect(other.locator("#batch-col-prompt-0 input")).to_have_value("Capitals @ v1")  # read against this page's library when Run is pressed
    expect(other.locator("#batch-grader-value-0 textarea")).to_have_value("{{expected}}")  # the graders still open
    expect(other.locator("#batch-user textarea")).to_have_value(PROMPT)
    expect(other.locator("#batch-data-status")).not_to_contain_text("rows")
    other.context.close()


def test_a_data_set_too_large_for_a_link_is_said_beside_copy_link_and_the_rest_is_linked(browser: Browser, batch_app: str) -> None:
    noise = random.Random(40)
    rows = "\n".join(json.dumps({"country": noise.randbytes(1_000).hex(), "expected": "x"}) for _ in range(30))  # 60 KB that hardly packs
    page = open_batch(browser, batch_app)
    page.fill("#batch-user textarea", PROMPT)
    page.fill("#batch-paste textarea", rows)
    page.click("#batch-paste-use")
    expect(page.locator("#batch-data-status")).to_contain_text("30 rows", timeout=30_000)
    page.set_viewport_size({"width": 1280, "height": 720})  # a projector: the note under the link box was below the window
    query = parse_qs(urlsplit(copied(page)).query)
    assert "data" not in query and query["q"] == [PROMPT]
    expect(page.locator("#batch-link")).to_contain_text("Link copied, but the data set was left out: too large for a link")
    note = page.locator("#batch-link-note")
    expect(note).to_be_visible()
    expect(note).to_contain_text("The link holds the rest: the prompt, the columns and the run's settings.")
    expect(note).to_be_in_viewport()
    expect(page.locator("#batch-copy-link")).to_be_in_viewport()
    expect(note).to_contain_text("The data set (30 rows) is not in this link")
    expect(note).to_contain_text("24.0 thousand a link may hold")
    page.context.close()


def verdicts(page: Page, total: str) -> tuple[list[list[str]], list[str]]:
    """Run pressed and finished: the leaderboard's columns with their cells, errors and pass rates (no timing) and the
    grid's marks in order."""
    page.click("#batch-run")
    bar = page.locator("#batch-progress .batch-progress")
    expect(bar).to_have_attribute("data-status", "finished", timeout=60_000)
    expect(bar).to_have_attribute("data-total", total)
    board = page.locator("#batch-leaderboard")
    expect(board).to_contain_text("pass: matches the regex '{{__regex}}'", timeout=30_000)  # the suite's per-row graders
    expect(board).to_contain_text("pass: contains '{{__contains}}'")
    lines = [line.split("\t") for line in board.inner_text().splitlines() if "\t" in line]
    passes = [index for index, heading in enumerate(lines[0]) if heading.startswith("pass: ")]
    return [[line[0], line[1], line[2], *(line[index] for index in passes)] for line in lines], re.findall("[✓✗]", page.locator("#batch-grid").inner_text())


def test_a_link_of_an_imported_suite_carries_its_graders_and_the_new_page_grades_the_same(browser: Browser, batch_app: str) -> None:
    """The suite's graders (per-row `contains` and `regex`, which no grader box holds) were left out of a link: it opened ungraded."""
    page = open_batch(browser, batch_app)
    page.locator("#batch-import input[type=file]").set_input_files(str(FIXTURES / "promptfoo" / "getting-started" / "promptfooconfig.yaml"))
    expect(page.locator("#batch-import-status")).to_contain_text("2 grader(s)", timeout=30_000)
    link = copied(page)
    assert parse_qs(urlsplit(link).query)["suite"][0]
    expect(page.locator("#batch-link")).to_contain_text(TEXTS["links.box"])
    expect(page.locator("#batch-link-note")).to_be_hidden()
    board, marks = verdicts(page, "4")
    assert len(board) == 3 and len(board[0]) == 5 and len(marks) == 4, (board, marks)  # two columns, two graders; a mark per cell

    other = opened(browser, link)
    expect(other.locator("#batch-data-status")).to_contain_text("2 rows", timeout=30_000)
    expect(other.locator("#batch-preview")).to_contain_text("Bonjour le monde")
    expect(other.locator("#batch-link-notice")).to_be_hidden()
    assert verdicts(other, "4") == (board, marks)
    other.context.close()
    page.context.close()
