"""The Batch tab's handlers without a browser: the plan from the form (every problem named), the
session file round trip, exports of a real run, the Variables panel and cost on the metrics line."""

from __future__ import annotations

from types import SimpleNamespace
from unittest.mock import patch

import csv
import json
from pathlib import Path

import pytest

from playground.client.batch.cost import Price
from playground.client.batch.dataset import Dataset
from playground.client.batch.plan import PlanError
from playground.client.batch.runner import Runner
from playground.client.batch.store import RunFile
from playground.client.errors import RequestValidationError
from playground.client.exchange import Exchange
from playground.client.gateway import GatewayClient
from playground.client.results import TextResult, Usage
from playground.client.transport import Connection
from playground.ui.tabs.batch import handlers as work
from playground.ui.shared import prices
from playground.ui.shared.metrics import metrics_text
from playground.ui.conversation.template_vars import fill_draft, rows_for

DATA = Dataset(["question", "expected"], [{"question": "What is 2 plus 2?", "expected": "4"}, {"question": "Capital of France?", "expected": "Paris"}])
COLUMNS = ["chat", "gx-2.5-flash", "messages", "cl-sonnet-4-5-20250929"] + ["", ""] * 6
GRADERS = ["contains", "{{expected}}", 0, 0, "", "length", "", 0, 400, "", *["", "", 0, 0, ""] * 4]


def _plan(**changes: object) -> tuple[object, list[str]]:
    values: dict[str, object] = {"system": "", "user": "Q: {{question}}", "dataset": DATA, "column_values": COLUMNS, "repeats": 1,
                                 "concurrency": 2, "temperature": "", "max_tokens": 0, "stream": True, "cache": False, "grader_values": GRADERS,
                                 "max_rows": 100, "max_concurrency": 8}
    values.update(changes)
    return work.plan_from_form(**values)  # type: ignore[arg-type]


def test_the_form_becomes_a_plan_and_every_problem_is_named() -> None:
    plan, warnings = _plan()
    assert [g.kind for g in plan.graders] == ["contains", "length"] and plan.columns[1] == ("messages", "cl-sonnet-4-5-20250929")
    assert plan.temperature is None and warnings == []
    with pytest.raises(PlanError) as problem:
        _plan(user="{{question}} {{city}}", concurrency=9, temperature="hot", grader_values=["regex", "(", 0, 0, ""])
    assert "regex does not compile" in str(problem.value)
    with pytest.raises(PlanError) as problem:
        _plan(user="{{question}} {{city}}", concurrency=9)
    assert "no value for {{city}}" in str(problem.value) and "requests at once: 1 to 8" in str(problem.value)
    _, warnings = _plan(user="Q", repeats=2, cache=True)
    assert "not used by the prompt: question" in warnings[0] and "cache" in warnings[1]


@pytest.mark.parametrize(("field", "value", "named"), [("repeats", 1.5, "repeat each row N times"), ("max_tokens", 12.5, "max output tokens")])
def test_a_count_that_is_not_whole_is_refused_not_rounded(field: str, value: float, named: str) -> None:
    with pytest.raises(PlanError) as problem:
        _plan(**{field: value})
    assert named in str(problem.value) and "not rounded" in str(problem.value)
    with pytest.raises(PlanError) as problem:
        _plan(grader_values=["length", "", 2.5, 0, ""])
    assert "min length" in str(problem.value)


def test_a_session_file_round_trips_and_a_bad_one_is_refused_whole(tmp_path: Path) -> None:
    plan, _ = _plan(temperature="0.3")
    path = tmp_path / "batch-session.json"
    path.write_text(json.dumps(plan.to_dict()))
    loaded = work.read_session(str(path), 100)
    assert loaded.to_dict() == plan.to_dict()
    values = work.session_values(loaded, 8)
    assert values[:4] == COLUMNS[:4] and values[16:21] == ["contains", "{{expected}}", None, None, ""]
    broken = plan.to_dict() | {"repeats": 0, "graders": [{"kind": "regex", "value": "("}], "columns": [["chat"]]}
    path.write_text(json.dumps(broken))
    with pytest.raises(PlanError) as problem:
        work.read_session(str(path), 100)
    assert {"repeats must be a whole number from 1 to 20", "columns must be [format, model] pairs"} <= set(problem.value.problems)
    assert any(p.startswith("grader 1: the regex does not compile") for p in problem.value.problems)
    path.write_text(json.dumps(plan.to_dict()))
    with pytest.raises(PlanError, match="dataset has 2 rows; at most 1"):
        work.read_session(str(path), 1)


async def test_exports_of_a_real_run(client: GatewayClient, conn: Connection, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    plan, _ = _plan()
    run = RunFile.create(tmp_path, plan.to_dict())
    await Runner(client, conn, plan, run).run()
    monkeypatch.setenv("GRADIO_TEMP_DIR", str(tmp_path / "media"))
    files = {Path(p).name: Path(p) for p in work.exports(plan, run, tmp_path / "exports", {"gx-2.5-flash": Price(1.0, 2.0)})}
    rows = list(csv.DictReader(files["batch-cells.csv"].open(encoding="utf-8")))
    assert len(rows) == 4 and rows[0]["var:question"] == "What is 2 plus 2?" and rows[0]["pass:contains '{{expected}}'"] == "True"
    assert float(rows[0]["cost_usd"]) > 0 and rows[1]["cost_usd"] == ""  # the messages model has no price: unknown, not 0
    assert len(files["batch-cells.jsonl"].read_text().splitlines()) == 4
    board = files["leaderboard.md"].read_text()
    assert "| C1 chat completions · gx-2.5-flash |" in board and "—" in board
    report = files["batch-report.html"].read_text()
    assert "<script" not in report and "2 + 2 = 4" in report and "found &#x27;Paris&#x27;" in report
    assert json.loads(files["batch-session.json"].read_text()) == plan.to_dict()


def test_variables_panel_rows_and_filling_the_draft() -> None:
    assert rows_for("Hi {{name}} from {{city}}", [["name", "Ada"]]) == [["name", "Ada"], ["city", ""]]
    draft = {"text": "Hi {{name}} \\{{not}}", "files": ["a.png"]}
    assert fill_draft(draft, [["name", "Ada"]]) == {"text": "Hi Ada {{not}}", "files": ["a.png"]}
    with pytest.raises(RequestValidationError, match=r"no value for \{\{name\}\}"):
        fill_draft(draft, [["name", ""]])
    assert fill_draft({"text": "plain", "files": []}, None) == {"text": "plain", "files": []}


def test_cost_on_every_metrics_line_and_a_dash_when_the_price_is_unknown() -> None:
    result = TextResult(text="hi", usage=Usage(input_tokens=1_000, output_tokens=500, cached_tokens=200), complete=True, first_token_at=0.1)
    exchange = Exchange("POST", "http://gw/v1/chat/completions", {}, {"model": "gpt-4.1"})
    assert "cost" not in metrics_text(result, exchange, {})  # no price table: nothing said
    assert "cost $0.0057" in metrics_text(result, exchange, {"gpt-4.1": Price(2.0, 8.0, 0.5)})
    assert "cost —" in metrics_text(result, exchange, {"other": Price(2.0, 8.0)})


def test_each_browser_session_has_its_own_price_table() -> None:
    book = prices.SessionPrices()
    for session, table in (("a", {"gpt-4.1": Price(2.0, 8.0)}), ("b", {})):
        with patch.object(prices, "current_request", return_value=SimpleNamespace(session_hash=session)):
            book.set(table)
    for session, table in (("a", {"gpt-4.1": Price(2.0, 8.0)}), ("b", {}), ("c", {})):
        with patch.object(prices, "current_request", return_value=SimpleNamespace(session_hash=session)):
            assert book.current() == table


def test_compare_metrics_table_has_a_cost_row_once_prices_exist() -> None:
    from playground.ui.tabs.compare.handlers import ColumnRun, metrics_table

    run = ColumnRun("chat", "gpt-4.1", result=TextResult(text="hi", usage=Usage(input_tokens=1_000_000, output_tokens=0), complete=True),
                    exchange=Exchange("POST", "http://gw/v1/chat/completions", {}, {"model": "gpt-4.1"}))
    other = ColumnRun("chat", "x", exchange=Exchange("POST", "http://gw/v1/chat/completions", {}, {"model": "x"}))
    assert "| cost |" not in metrics_table([run, other])
    assert "| cost | $2.00 | — |" in metrics_table([run, other], {"gpt-4.1": Price(2.0, 8.0)})


def test_each_column_settings_are_read_as_typed_and_refused_with_the_column_named() -> None:
    columns = ["", "", "chat", "gx-2.5-flash", "messages", "cl-sonnet-4-5-20250929"] + ["", ""] * 5
    own = ["9", "9", "on", None, "0.25", "", "off", None, "", "40", "", None] + [None] * 20  # slot 1 is blank: its boxes are dropped
    plan, _ = _plan(column_values=columns, setting_values=own, temperature="0.7", max_tokens=300)
    assert plan.columns == [("chat", "gx-2.5-flash"), ("messages", "cl-sonnet-4-5-20250929")]
    assert plan.settings_for(0) == (0.25, 300, False) and plan.settings_for(1) == (0.7, 40, True)
    with pytest.raises(PlanError) as problem:
        _plan(column_values=columns, setting_values=["", "", "", None, "hot", "1.5", "", None, "", "0", "", None] + [None] * 20)
    assert problem.value.problems == ["column 2 temperature must be a number from 0 to 2 or empty (got 'hot')",
                                      "column 2 max output tokens: must be a whole number (got 1.5); it is not rounded for you",
                                      "column 3 max output tokens must be a whole number from 1 to 1000000 or empty (got 0)"]


def test_problems_in_graders_counts_and_column_settings_are_named_together() -> None:
    with pytest.raises(PlanError) as problem:
        _plan(grader_values=["length", "", 2.5, 0, ""], repeats=1.5, temperature="warm",
              setting_values=["", "7.5", "", None] + [None] * 28)
    text = str(problem.value)
    assert all(word in text for word in ("grader 1", "min length", "repeat each row N times", "temperature must be a number",
                                         "column 1 max output tokens"))
