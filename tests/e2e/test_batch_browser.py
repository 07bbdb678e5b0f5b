"""The Batch tab in a real browser: a 20-row CSV, two columns, two graders; the progress bar
moves, Stop keeps what finished, a reload finds the run, Resume finishes it, the leaderboard
shows, a cell opens its request and curl, and a blind A/B vote joins the leaderboard. A run with
repeats shows pass^k, and another browser finds it among the kept runs by its model and opens it."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.batch_page import APPS, batch_app, choose, open_batch

__all__ = ["batch_app"]  # the module fixture the tests take
from tests.e2e.pages import click_during_stream, open_accordion, open_tab

pytestmark = pytest.mark.browser


def _done(page: Page) -> int:
    return int(page.locator("#batch-progress .batch-progress").get_attribute("data-done") or 0)


def test_a_csv_through_two_columns_with_two_graders_stop_reload_resume_and_vote(browser: Browser, batch_app: str, tmp_path: Path) -> None:
    data = tmp_path / "questions.csv"
    questions = [f"What is {n} plus {n}?" for n in range(20)]
    questions[1] = "How long is a piece of string?"  # the demo gateway's long reply: Stop lands in it
    data.write_text("question,expected\n" + "".join(f"{q},{2 * n}\n" for n, q in enumerate(questions)), encoding="utf-8")
    page = open_batch(browser, batch_app)
    page.fill("#batch-user textarea", "Answer in one sentence: {{question}}")
    page.locator("#batch-upload input[type=file]").set_input_files(str(data))
    expect(page.locator("#batch-data-status")).to_contain_text("20 rows", timeout=30_000)
    expect(page.locator("#batch-preview")).to_contain_text("What is 3 plus 3?")
    expect(page.locator("#batch-check")).to_contain_text("{{question}}")
    choose(page, "#batch-grader-kind-0", "contains")
    page.fill("#batch-grader-value-0 textarea, #batch-grader-value-0 input", "{{question}}")
    page.click("#batch-add-grader")  # the second grader's row is shown once asked for
    choose(page, "#batch-grader-kind-1", "model-graded (1-5)")
    page.fill("#batch-grader-value-1 textarea, #batch-grader-value-1 input", 'Mentions "demo gateway" and "plus"')
    concurrency = page.locator("#batch-concurrency input[type=number]")
    concurrency.fill("1")
    concurrency.press("Tab")
    gateway = APPS[batch_app].gateway.config
    usual = gateway.token_delay
    gateway.token_delay = 0.3  # row 1's long reply then takes minutes: Stop lands in it however late a busy page shows the bar
    try:
        page.click("#batch-run")
        bar = page.locator("#batch-progress .batch-progress")
        expect(bar).to_have_attribute("data-status", "running", timeout=30_000)
        expect(bar).to_have_attribute("data-total", "40")
        expect(bar).to_have_attribute("data-done", "2", timeout=90_000)  # the bar moved and waits there
        expect(bar).to_have_attribute("data-status", "running")
        click_during_stream(page, "#batch-stop")
        expect(bar).to_have_attribute("data-status", "stopped", timeout=30_000)
    finally:
        gateway.token_delay = usual
    stopped_at = _done(page)
    assert 2 <= stopped_at < 40
    expect(page.locator("#batch-leaderboard")).to_contain_text("pass: contains")

    page.reload()  # the browser remembers the run
    open_tab(page, "Batch", "#batch-user textarea")
    bar = page.locator("#batch-progress .batch-progress")
    expect(bar).to_have_attribute("data-status", "stopped", timeout=30_000)
    assert _done(page) == stopped_at
    page.click("#batch-resume")
    page.wait_for_function(f"() => {{ const bar = document.querySelector('#batch-progress .batch-progress'); "
                           f"return bar?.dataset.status === 'running' && Number(bar.dataset.done) > {stopped_at}; }}", timeout=45_000)
    expect(bar).to_have_attribute("data-status", "finished", timeout=180_000)  # 38 cells one at a time, each graded by a model: minutes on a starved machine
    expect(bar).to_have_attribute("data-done", "40")
    board = page.locator("#batch-leaderboard")
    expect(board).to_contain_text("graded by gx-2.5-flash")
    expect(board).to_contain_text("TTFT p50 ms")
    expect(board).to_contain_text("C2 chat completions · gpt-4.1")
    expect(page.locator("#batch-grid")).to_contain_text("What is 7 plus 7?")

    page.locator("#batch-grid").get_by_text("7 + 7 = 14").filter(visible=True).first.click()
    expect(page.locator("#batch-cell")).to_contain_text("Row", timeout=30_000)
    page.click("#batch-inspector")
    page.get_by_role("tab", name="curl").click()
    expect(page.locator("#batch-code-curl")).to_contain_text("/v1/chat/completions")

    page.click("#batch-ab")
    page.click("#batch-ab-next")
    expect(page.locator("#batch-ab-prompt")).to_contain_text("Row", timeout=30_000)
    answer_a = page.locator("#batch-ab-a textarea").input_value()
    assert " = " in answer_a and "gx-2.5-flash" not in page.locator("#batch-ab-prompt").inner_text()
    assert not any(model in answer_a + page.locator("#batch-ab-b textarea").input_value() for model in ("gx-2.5-flash", "gpt-4.1"))
    page.click("#batch-vote-a")
    expect(page.locator("#batch-ab-status")).to_contain_text("Vote recorded (1 so far)", timeout=30_000)
    expect(board.locator("th", has_text="Elo")).not_to_have_count(0)  # a vote counted: the Elo column
    page.context.close()


def test_the_chat_tab_offers_the_same_template_variables_and_moves_the_prompt_to_batch_and_back(browser: Browser, batch_app: str) -> None:
    page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    page.goto(batch_app)
    page.wait_for_selector("#chat-input textarea")
    expect(page.locator("#chat-variables")).to_be_hidden()
    page.fill("#chat-input textarea", "Say hello to {{name}}")
    expect(page.locator("#chat-variables")).to_be_visible(timeout=30_000)
    expect(page.locator("#chat-variables-table")).to_contain_text("name")
    page.press("#chat-input textarea", "Enter")
    expect(page.locator("#chat-error")).to_contain_text("no value for {{name}}", timeout=30_000)
    cell = page.locator("#chat-variables-table [data-testid=cell-0-1]")
    cell.dblclick()
    page.keyboard.type("Ada")
    page.keyboard.press("Enter")
    page.wait_for_timeout(500)
    page.press("#chat-input textarea", "Enter")
    expect(page.locator("#chat-chatbot .message.bot").last).to_contain_text("offline demo gateway", timeout=30_000)
    expect(page.locator("#chat-chatbot .message.user").last).to_contain_text("Say hello to Ada")  # the filled text was sent
    # the system prompt's placeholders join the table; the prompt moves to Batch unchanged, and back
    page.fill("#chat-system textarea", "Be {{mood}}.")
    expect(page.locator("#chat-variables-table")).to_contain_text("mood", timeout=30_000)
    page.click("#chat-to-batch")
    expect(page.locator("#batch-user textarea")).to_have_value("Say hello to {{name}}", timeout=30_000)  # the Batch tab is open
    expect(page.locator("#batch-system textarea")).to_have_value("Be {{mood}}.")
    expect(page.locator("#batch-data-status")).to_contain_text("1 row")
    expect(page.locator("#batch-data-status")).to_contain_text("the Chat tab")
    page.fill("#batch-user textarea", "Say goodbye to {{name}}")
    page.click("#batch-to-chat")
    expect(page.locator("#chat-input textarea")).to_have_value("Say goodbye to {{name}}", timeout=30_000)
    expect(page.locator("#chat-variables-table")).to_contain_text("Ada")
    page.context.close()


def test_each_column_sends_its_own_settings_and_the_page_says_which(browser: Browser, batch_app: str) -> None:
    page = open_batch(browser, batch_app)
    page.fill("#batch-user textarea", "Say hello to {{name}}")
    page.fill("#batch-paste textarea", "Ada\nLin")
    page.click("#batch-paste-use")
    expect(page.locator("#batch-data-status")).to_contain_text("2 rows", timeout=30_000)
    page.fill("#batch-temperature textarea, #batch-temperature input", "0.7")
    page.fill("#batch-col-temperature-1 textarea, #batch-col-temperature-1 input", "0.2")
    page.fill("#batch-col-max-tokens-1 textarea, #batch-col-max-tokens-1 input", "8")
    choose(page, "#batch-col-stream-1", "off")
    page.fill("#batch-col-max-tokens-0 textarea, #batch-col-max-tokens-0 input", "1.5")
    page.locator("#batch-col-max-tokens-0 textarea, #batch-col-max-tokens-0 input").press("Tab")
    used = page.locator("#batch-columns-used")
    expect(used).to_contain_text("Column 2 (gpt-4.1): temperature 0.2 (its own) · max output tokens 8 (its own) · stream off (its own)",
                                 timeout=30_000)
    expect(used).to_contain_text("temperature 0.7 (all columns)")
    page.click("#batch-run")
    expect(page.locator("#batch-error")).to_contain_text("column 1 max output tokens: must be a whole number (got 1.5)", timeout=30_000)
    expect(page.locator("#batch-progress")).to_contain_text("No run yet")  # nothing started
    page.fill("#batch-col-max-tokens-0 textarea, #batch-col-max-tokens-0 input", "")
    page.click("#batch-run")
    bar = page.locator("#batch-progress .batch-progress")
    expect(bar).to_have_attribute("data-status", "finished", timeout=90_000)  # a whole run: longer than a page wait on a starved machine
    expect(bar).to_have_attribute("data-done", "4")
    expect(page.locator("#batch-leaderboard")).to_contain_text("gpt-4.1 (temperature 0.2 · max 8 tokens · stream off)")
    grid = page.locator("#batch-grid")
    expect(grid).to_contain_text("offline demo gateway")  # column 1's whole answer
    page.locator("#batch-grid").get_by_text("The offline demo cannot answer", exact=False).filter(visible=True).first.click()
    expect(page.locator("#batch-cell")).to_contain_text("Row", timeout=30_000)
    page.click("#batch-inspector")
    page.get_by_role("tab", name="curl").click()
    curl = page.locator("#batch-code-curl")
    expect(curl).to_contain_text('"max_tokens": 8')
    expect(curl).to_contain_text('"temperature": 0.2')
    page.context.close()


def test_a_run_with_repeats_shows_pass_k_and_is_found_and_opened_from_the_kept_runs(browser: Browser, batch_app: str) -> None:
    page = open_batch(browser, batch_app)
    page.fill("#batch-user textarea", "Say hello to {{name}}")
    page.fill("#batch-paste textarea", "Ada\nLin")
    page.click("#batch-paste-use")
    expect(page.locator("#batch-data-status")).to_contain_text("2 rows", timeout=30_000)
    repeats = page.locator("#batch-repeats input")
    repeats.fill("2")
    repeats.press("Tab")
    choose(page, "#batch-grader-kind-0", "contains")
    page.fill("#batch-grader-value-0 textarea, #batch-grader-value-0 input", "Ada")
    page.click("#batch-run")
    bar = page.locator("#batch-progress .batch-progress")
    expect(bar).to_have_attribute("data-status", "finished", timeout=90_000)  # a whole run: longer than a page wait on a starved machine
    expect(bar).to_have_attribute("data-done", "8")
    board = page.locator("#batch-leaderboard")
    expect(board).to_contain_text("pass^2")
    expect(board).to_contain_text("pass rate spread")
    page.context.close()

    other = open_batch(browser, batch_app)  # a browser that never saw the run
    expect(other.locator("#batch-progress")).to_contain_text("No run yet")
    open_accordion(other, "Kept runs: find and open", "#batch-runs-find")
    other.fill("#batch-runs-model textarea, #batch-runs-model input", "gpt-4.1")
    other.click("#batch-runs-find")
    listed = other.locator("#batch-runs-list")
    expect(listed).to_contain_text("2 × 2", timeout=30_000)
    expect(other.locator("#batch-runs-note")).to_contain_text("click one to open it")
    listed.get_by_text("2 × 2").filter(visible=True).first.click()
    expect(other.locator("#batch-leaderboard")).to_contain_text("pass^2", timeout=30_000)
    expect(other.locator("#batch-grid")).to_contain_text("Lin")
    expect(other.locator("#batch-progress .batch-progress")).to_have_attribute("data-done", "8")
    other.context.close()
