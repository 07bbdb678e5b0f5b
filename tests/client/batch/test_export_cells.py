"""A run's exported files keep a value as the value (issue 35): the CSV guard against spreadsheet
formulas leaves numbers alone (`-5` was written `'-5`) and still guards `=cmd`, `+x`, `-x`, `@`,
a tab and a CR; the Markdown leaderboard keeps a gateway's or a visitor's HTML as text."""

from __future__ import annotations

import csv
import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from playground.client.batch.dataset import Dataset
from playground.client.batch.exports import FORMULA_STARTS, PLAIN_NUMBER, _safe_csv, write_exports
from playground.client.batch.graders import GraderSpec
from playground.client.batch.plan import Plan
from playground.client.batch.store import CellRecord, RunFile

NUMBERS = ["-5", "+5", "-2.5", "-.5", "1e5", "-2E-3", "42", "0.0"]
FORMULAS = ["=cmd|' /C calc'!A0", "+x", "-x", "-5+cmd", "-5 ", "@SUM(A1)", "\tx", "\rx", "-", "+", "-1e", "--5", "-5\n=1"]
HOSTILE = "<script>alert(1)</script> <img src=x onerror=alert(2)> [link](javascript:alert(3)) | ![i](http://x/i.png)"


def _exported(tmp_path: Path, values: list[str], model: str = "gx-2.5-flash", answer: str = "ok") -> dict[str, Path]:
    plan = Plan("{{v}}", dataset=Dataset(["v"], [{"v": value} for value in values]), columns=[("chat", model)],
                graders=[GraderSpec("contains", HOSTILE)])
    run = RunFile.create(tmp_path / "runs", plan.to_dict())
    for row in range(len(values)):
        run.add_cell(CellRecord(row, 0, 0, answer=answer, marks=[{"passed": True, "detail": "found"}], total=-5.0), {})
    return write_exports(tmp_path / "out", plan, run, {})


def test_numbers_stay_numbers_and_formulas_stay_text(tmp_path: Path) -> None:
    files = _exported(tmp_path, NUMBERS + FORMULAS)
    rows = list(csv.DictReader(files["csv"].open(newline="", encoding="utf-8")))
    written = [row["var:v"] for row in rows]
    assert written[:len(NUMBERS)] == NUMBERS
    assert written[len(NUMBERS):] == ["'" + value for value in FORMULAS]
    assert rows[0]["total_ms"] == "-5000.0"  # a number the run measured is written as a number


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=12) | st.from_regex(PLAIN_NUMBER, fullmatch=True))
def test_every_written_text_is_a_plain_number_or_cannot_start_a_formula(value: str) -> None:
    written = _safe_csv(value)
    assert written == value or written == "'" + value
    assert PLAIN_NUMBER.fullmatch(written) or written[:1] not in FORMULA_STARTS


def test_the_markdown_leaderboard_keeps_html_as_text(tmp_path: Path) -> None:
    files = _exported(tmp_path, ["a"], model="<b onmouseover=alert(4)>m</b>", answer=HOSTILE)
    board = files["md"].read_text(encoding="utf-8")
    for raw in ("<script", "<img", "<b ", "](javascript", "![i]"):
        assert raw not in board, raw
    assert "&lt;b onmouseover=alert(4)&gt;m&lt;/b&gt;" in board and "&lt;script&gt;" in board  # still readable
    cells = {len(re.findall(r"(?<!\\)\|", line)) for line in board.splitlines() if line.startswith("|")}
    assert len(cells) == 1  # a | in a name or label did not add a column
