"""Issue 38's whole path in Chromium: import a promptfoo config, run it twice with repeats, see what
changed between the two runs, export the run, and run the same suite from the command line
(`python -m playground.batch run`) on the same gateway and data folder: its result document holds the
same cells (row, repeat, column), answers and verdicts, under the same graders, as the exported
cells, and the command line's run opens in the tab by its link with the same leaderboard."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.client.batch.importers.fixtures import FIXTURES
from tests.e2e.batch_page import APPS, batch_app, open_batch
from tests.e2e.conftest import SERVER_KEY
from tests.e2e.pages import open_accordion

__all__ = ["batch_app"]  # the module fixture the tests take

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SUITE = FIXTURES / "promptfoo" / "getting-started" / "promptfooconfig.yaml"
REPEATS = 2
CELLS = 2 * REPEATS * 2  # the config's 2 tests x repeats x its 2 providers


def _run(page: Page) -> None:
    page.evaluate("() => document.querySelector('#batch-progress .batch-progress')?.remove()")  # the last run's bar: gone
    page.click("#batch-run")
    bar = page.locator("#batch-progress .batch-progress")
    expect(bar).to_have_attribute("data-total", str(CELLS), timeout=30_000)
    expect(bar).to_have_attribute("data-status", "finished", timeout=60_000)


def _pass_columns(page: Page) -> list[str]:
    """The leaderboard's lines, from its first pass column on (the timing columns left out)."""
    board = page.locator("#batch-leaderboard")
    expect(board).to_contain_text("pass: matches the regex", timeout=30_000)
    heads = [text.strip() for text in board.locator("thead th").all_inner_texts()]
    first, last = heads.index(next(h for h in heads if h.startswith("pass:"))), max(i for i, h in enumerate(heads) if h.startswith("pass"))
    lines = board.locator("tbody tr")
    return [" | ".join(lines.nth(n).locator("td").all_inner_texts()[:1] + lines.nth(n).locator("td").all_inner_texts()[first:last + 1])
            for n in range(lines.count())]


def _command_line(out: Path) -> subprocess.CompletedProcess[str]:
    """The suite from the command line, as CI runs it, on the app's gateway and into the app's data folder."""
    app = next(iter(APPS.values()))
    env = {key: value for key, value in os.environ.items() if not key.startswith(("GATEWAY_", "PLAYGROUND_"))}
    env.update({"PYTHONPATH": str(ROOT), "PLAYGROUND_DATA_DIR": str(app.data_dir), "GATEWAY_BASE_URL": app.gateway_url,
                "GATEWAY_API_KEY": SERVER_KEY})
    return subprocess.run([sys.executable, "-m", "playground.batch", "run", str(SUITE), "--repeat", str(REPEATS), "--fail-under", "0",
                           "--json", str(out)], cwd=out.parent, env=env, capture_output=True, text=True, timeout=180)


def _exported_cells(page: Page, folder: Path) -> list[dict[str, Any]]:
    open_accordion(page, "Export and session file", "#batch-export")
    page.click("#batch-export")
    expect(page.locator("#batch-session-status")).to_contain_text(f"Exported {CELLS} cells.", timeout=30_000)
    link = page.locator('#batch-export-files a[href$="batch-cells.jsonl"]').first
    with page.expect_download() as download:
        link.click()
    saved = folder / "batch-cells.jsonl"
    download.value.save_as(saved)
    return [json.loads(line) for line in saved.read_text(encoding="utf-8").splitlines()]


def test_import_run_twice_with_repeats_see_what_changed_export_and_the_same_run_from_the_command_line(
        browser: Browser, batch_app: str, tmp_path: Path) -> None:
    page = open_batch(browser, batch_app)
    page.locator("#batch-import input[type=file]").set_input_files(str(SUITE))
    expect(page.locator("#batch-import-status")).to_contain_text("Imported promptfoo config Getting started: 2 rows, 2 column(s), 2 grader(s).",
                                                              timeout=30_000)
    repeats = page.locator("#batch-repeats input")
    repeats.fill(str(REPEATS))
    repeats.press("Tab")
    _run(page)
    first = _pass_columns(page)
    _run(page)
    assert _pass_columns(page) == first, "the same suite on the same gateway"
    expect(page.locator("#batch-leaderboard")).to_contain_text(f"pass^{REPEATS}")  # repeats: pass^k beside the pass rates

    page.click("#batch-changes-panel")
    expect(page.locator("#batch-baseline input")).not_to_have_value("", timeout=30_000)  # the first run, the newest other
    page.click("#batch-compare-baseline")
    changes = page.locator("#batch-changes")
    expect(changes).to_contain_text("What changed", timeout=30_000)
    for model in ("gpt-4.1", "o4-mini"):
        expect(changes.locator("tr", has_text=f"chat completions · {model}").first).to_be_visible()
    expect(changes).to_contain_text("No row got better or worse.")
    expect(changes.locator("table").last.locator("tr")).to_have_count(3)  # the trend: heading + the two runs of this suite

    exported = _exported_cells(page, tmp_path)
    done = _command_line(tmp_path / "result.json")
    assert done.returncode in (0, 1), done.stderr
    assert f"{CELLS}/{CELLS} cells, 0 error(s)" in done.stderr
    document = json.loads((tmp_path / "result.json").read_text(encoding="utf-8"))
    graders = [key.removeprefix("pass:") for key in exported[0] if key.startswith("pass:")]
    assert document["graders"] == graders and document["repeats"] == REPEATS
    assert [(c["format"], c["model"]) for c in document["columns"]] == [(c["format"], c["model"]) for c in exported[:2]]
    in_the_tab = {(c["row"] - 1, c["repeat"] - 1, c["column"] - 1): (c["answer"], c["error"], [c[f"pass:{g}"] for g in graders]) for c in exported}
    from_the_command = {(c["row"], c["repeat"], c["column"]): (c["answer"], c["error"], [m["passed"] for m in c["marks"]])
                        for c in document["cells"]}
    assert len(in_the_tab) == CELLS and from_the_command == in_the_tab, "the same cells, answers and verdicts"

    page.goto(f"{batch_app}/?tab=batch&run={document['run_id']}")  # the command line's run, stored where the tab opens it
    page.wait_for_selector("#batch-user textarea", timeout=60_000)
    assert _pass_columns(page) == first
    expect(page.locator("#batch-user textarea")).to_have_value("Convert this English to {{language}}: {{input}}")
    expect(page.locator("#batch-preview")).to_contain_text("Where is the library?")
    page.context.close()
