"""Importing a promptfoo suite in the Batch tab of a real browser: the config's prompt, data set,
columns and graders fill the tab, what could not be mapped is listed under the import, and Run
runs it on the demo gateway to the leaderboard with the suite's graders."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.client.batch.importers.fixtures import FIXTURES, upload
from tests.e2e.batch_page import batch_app, open_batch

__all__ = ["batch_app"]


def test_import_a_promptfoo_config_and_run_it(browser: Browser, batch_app: str) -> None:
    page = open_batch(browser, batch_app)
    page.locator("#batch-import input[type=file]").set_input_files(str(FIXTURES / "promptfoo" / "getting-started" / "promptfooconfig.yaml"))
    status = page.locator("#batch-import-status")
    expect(status).to_contain_text("Imported promptfoo config Getting started: 2 rows, 2 column(s), 2 grader(s).", timeout=30_000)
    expect(status).to_contain_text("Not mapped (left out of the run):")
    expect(status).to_contain_text("prompt 2 (“Translate to {{language}}: {{input}}”) is not run")
    expect(page.locator("#batch-user textarea")).to_have_value("Convert this English to {{language}}: {{input}}")
    expect(page.locator("#batch-preview")).to_contain_text("Bonjour le monde")
    expect(page.locator("#batch-data-status")).to_contain_text("2 rows")
    expect(page.locator("#batch-model-1 input")).to_have_value("o4-mini")  # the config's providers are the columns
    expect(page.locator("#batch-model-0 input")).to_have_value("gpt-4.1")
    expect(page.locator("#batch-suite-graders")).to_contain_text("Graders from the suite")  # in the Graders panel, beside the empty boxes
    expect(page.locator("#batch-suite-graders")).to_contain_text("matches the regex")
    expect(page.locator("#batch-suite-model")).to_be_hidden()  # none of them asks a model
    page.click("#batch-run")
    bar = page.locator("#batch-progress .batch-progress")
    expect(bar).to_have_attribute("data-status", "finished", timeout=60_000)
    expect(bar).to_have_attribute("data-total", "4")  # 2 rows x the config's 2 providers (openai:gpt-4.1, openai:o4-mini)
    board = page.locator("#batch-leaderboard")
    expect(board).to_contain_text("gpt-4.1", timeout=30_000)
    expect(board).to_contain_text("o4-mini")
    expect(board).to_contain_text("pass: matches the regex")  # the suite's per-row regex, named as the graders are
    expect(page.locator("#batch-grid")).to_contain_text("Where is the library?")  # the suite's rows


def test_an_imported_suites_grading_model_is_changed_in_the_graders_panel(browser: Browser, batch_app: str) -> None:
    page = open_batch(browser, batch_app)
    page.locator("#batch-import input[type=file]").set_input_files([str(path) for path in upload("openai-graders")])
    expect(page.locator("#batch-import-status")).to_contain_text("Imported", timeout=30_000)
    line, picker = page.locator("#batch-suite-graders"), page.locator("#batch-suite-model input")
    expect(line).to_contain_text("graded by o4-mini-2025-04-16", timeout=10_000)
    expect(picker).to_have_value("o4-mini-2025-04-16")
    picker.fill("gx-2.5-flash")
    picker.press("Enter")
    expect(line).to_contain_text("graded by gx-2.5-flash", timeout=10_000)
    page.context.close()
