"""Batch's example: a sample suite a person runs with one click on Run. Eight questions with
expected answers (capitals and arithmetic, which the demo gateway looks up or works out, and
multi-step word problems, which its small `gpt-4o-mini` stops one step short on), three models
that answer in different styles, and two graders ("contains the expected answer" and a length
limit), so the leaderboard shows real differences.

The example row fills the language-neutral fields in the browser (columns, graders, counts); the
sample's prompt and rows are words, so `sample_suite` takes them from the catalogue in the
visitor's language and the tab loads them as its data set."""

from __future__ import annotations

from typing import Any

from playground.client.batch.plan import MAX_COLUMNS
from playground.ui.i18n import say, t
from playground.ui.shared.column_picker import CUSTOM
from playground.ui.shared.examples import Example
from playground.ui.tabs.batch.form import GRADER_SLOTS

SAMPLE_COLUMNS = (("chat", "gx-2.5-flash"), ("chat", "gpt-4o-mini"), ("messages", "cl-sonnet-4-5-20250929"))
SAMPLE_GRADERS = (("contains", "{{expected}}", 0, 0), ("length", "", 0, 40))
"""(kind, value, min length, max length): the expected answer, row by row, and at most 40 characters."""


def _sample_values() -> dict[str, Any]:
    """The sample's field values by the names `BatchPage.example_fields` gives them."""
    values: dict[str, Any] = {"preset": CUSTOM, "repeats": 1}
    for index in range(MAX_COLUMNS):
        fmt, model = SAMPLE_COLUMNS[index] if index < len(SAMPLE_COLUMNS) else ("", "")
        values[f"format_{index}"], values[f"model_{index}"] = fmt, model
    for slot in range(GRADER_SLOTS):
        kind, value, low, high = SAMPLE_GRADERS[slot] if slot < len(SAMPLE_GRADERS) else ("", "", 0, 0)
        values.update({f"grader_kind_{slot}": kind, f"grader_value_{slot}": value, f"grader_min_{slot}": low, f"grader_max_{slot}": high})
    return values


EXAMPLES = [Example(t("batch.sample.label"), t("batch.sample.explains"), _sample_values())]


def sample_suite() -> tuple[str, str]:
    """The sample's prompt template and its rows (JSON lines: the paste box reads them whatever the prompt uses), in the visitor's language."""
    return say("batch.sample.prompt"), say("batch.sample.rows")
