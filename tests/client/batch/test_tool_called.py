"""The "called the tool" grader, mocked tools in a column's settings, and a Batch run on the demo
gateway over real sockets whose columns offer a mocked tool and whose grader checks its arguments."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from playground.client.batch.dataset import Dataset
from playground.client.batch.graders import GraderError, GraderSpec, check, holds, tool_called
from playground.client.batch.plan import ColumnSettings, Plan, PlanError
from playground.client.batch.report import leaderboard, leaderboard_rows
from playground.client.batch.runner import Runner
from playground.client.batch.store import RunFile
from playground.client.gateway import GatewayClient
from playground.client.tools.mock import EXAMPLE, MockTool
from playground.client.transport import Connection

CALLS = (("get_weather", {"city": "Paris", "units": {"temp": "c"}}), ("lookup", {"q": "x"}))


def test_the_grader_passes_on_the_named_tool_with_a_subset_of_its_arguments() -> None:
    assert tool_called(GraderSpec("tool_called", "get_weather"), CALLS).passed is True
    assert tool_called(GraderSpec("tool_called", "get_weather", arguments='{"city": "Paris"}'), CALLS).passed is True
    assert tool_called(GraderSpec("tool_called", "get_weather", arguments='{"units": {"temp": "c"}}'), CALLS).passed is True
    other = tool_called(GraderSpec("tool_called", "get_weather", arguments='{"city": "Oslo"}'), CALLS)
    assert other.passed is False and "other arguments" in other.detail and "Paris" in other.detail
    missing = tool_called(GraderSpec("tool_called", "send_mail"), CALLS)
    assert missing.passed is False and "get_weather, lookup" in missing.detail
    assert tool_called(GraderSpec("tool_called", "get_weather"), ()).passed is False


def test_subset_matching_keeps_types_apart() -> None:
    assert holds({"n": 1.0, "b": True}, {"n": 1}) and not holds({"b": 1}, {"b": True}) and not holds({"l": [1, 2]}, {"l": [1]})
    assert not holds(None, {"a": 1}) and holds([1, {"a": 2}], [1, {"a": 2}])


def test_the_grader_is_checked_whole_and_round_trips() -> None:
    for spec, words in ((GraderSpec("tool_called", ""), "tool's name"), (GraderSpec("tool_called", "t", arguments="{"), "not JSON"),
                        (GraderSpec("tool_called", "t", arguments="[1]"), "JSON object")):
        with pytest.raises(GraderError, match=words):
            check(spec)
    spec = GraderSpec("tool_called", "get_weather", arguments='{"city": "{{city}}"}')
    assert GraderSpec.from_dict(spec.to_dict()) == spec
    assert spec.label == 'called get_weather with {"city": "{{city}}"}'


def test_a_columns_mocked_tools_are_saved_with_the_plan_and_refused_with_the_column_named() -> None:
    plan = Plan("hi", dataset=Dataset(["q"], [{"q": "1"}]), columns=[("chat", "gx-2.5-flash")], column_settings=[ColumnSettings(tools=(EXAMPLE,))])
    again = Plan.from_dict(json.loads(json.dumps(plan.to_dict())), 10)
    assert again.tools_for(0) == (EXAMPLE,) and "mocked tools get_weather" in again.own_settings_text(0)
    data = plan.to_dict()
    data["column_settings"][0]["tools"] = [{"name": "t", "mock": {"kind": "never"}}]
    with pytest.raises(PlanError, match="column 1 tools: tool 1: mock.kind"):
        Plan.from_dict(data, 10)


async def test_a_batch_run_answers_the_mocked_calls_and_grades_the_tools_arguments(client: GatewayClient, conn: Connection,
                                                                                     tmp_path: Path) -> None:
    dataset = Dataset(["city"], [{"city": city} for city in ("Paris", "Tokyo", "Lima")])
    graders = [GraderSpec("tool_called", "get_weather", arguments='{"city": "{{city}}"}'), GraderSpec("contains", "18 °C")]
    columns = [("chat", "gx-2.5-flash"), ("responses", "gx-2.5-flash"), ("messages", "cl-sonnet-4-5-20250929"), ("native", "gx-2.5-flash"),
               ("chat", "gx-2.5-flash")]
    own = [ColumnSettings(tools=(EXAMPLE,))] * 4 + [ColumnSettings(tools=(MockTool("get_weather", parameters=EXAMPLE.parameters, kind="ask"),))]
    plan = Plan("What is the weather in {{city}}?", dataset=dataset, columns=columns, graders=graders, column_settings=own, cache=True)
    run = RunFile.create(tmp_path, plan.to_dict())
    progress = await Runner(client, conn, plan, run).run()
    assert (progress.done, progress.errors) == (15, 0)
    for column in range(4):
        cell = run.cells[f"1.0.{column}"]
        assert "Tokyo" in cell.answer and "18 °C" in cell.answer, (column, cell.answer)
        assert [mark["passed"] for mark in cell.marks] == [True, True]
        detail = run.detail(f"1.0.{column}")
        assert detail["tool_calls"] == [{"name": "get_weather", "arguments": detail["tool_calls"][0]["arguments"],
                                         "answer": '{"city": "Tokyo", "temperature_c": 18, "condition": "sunny"}'}]
        assert json.loads(detail["tool_calls"][0]["arguments"]) == {"city": "Tokyo"}
        assert len(detail["tool_exchanges"]) == 1 and detail["exchange"] is not None
    asked = run.cells["2.0.4"]  # "ask me": nobody answers in a run, so the call is graded and the answer is empty
    assert asked.answer == "" and asked.marks[0]["passed"] is True and asked.marks[1]["passed"] is False
    headers, rows = leaderboard_rows(plan, leaderboard(plan, run, {}))
    assert headers[3].startswith("pass: called get_weather") and [row[3] for row in rows] == ["100%"] * 5
