"""Per-column settings (temperature, max tokens, stream): each column sends its own values, or the
run's where it has none, over a real socket to the demo gateway; they are kept in the run file so
a resume sends the same, refused whole with the column and field named, and exported."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from playground.client.batch.dataset import Dataset
from playground.client.batch.exports import write_exports
from playground.client.batch.plan import ColumnSettings, Plan, PlanError
from playground.client.batch.report import column_label
from playground.client.batch.runner import Runner
from playground.client.batch.store import RunFile
from playground.client.gateway import GatewayClient
from playground.client.transport import Connection


def _plan(**changes: object) -> Plan:
    fields: dict[str, object] = {
        "user": "Say hello to {{name}}", "dataset": Dataset(["name"], [{"name": "Ada"}, {"name": "Lin"}]),
        "columns": [("chat", "gx-2.5-flash"), ("chat", "gx-2.5-flash")], "temperature": 0.7, "max_tokens": 400, "stream": True,
        "column_settings": [ColumnSettings(), ColumnSettings(temperature=0.2, max_tokens=5, stream=False)]}
    fields.update(changes)
    return Plan(**fields)  # type: ignore[arg-type]


async def test_two_columns_send_their_own_settings_on_the_wire(client: GatewayClient, conn: Connection, tmp_path: Path) -> None:
    plan = _plan()
    run = RunFile.create(tmp_path, plan.to_dict())
    await Runner(client, conn, plan, run).run()
    shared, own = run.detail("0.0.0")["exchange"], run.detail("0.0.1")["exchange"]
    assert shared["request_body"]["temperature"] == 0.7 and shared["request_body"]["max_tokens"] == 400
    assert shared["request_body"]["stream"] is True and shared["events"]
    assert own["request_body"]["temperature"] == 0.2 and own["request_body"]["max_tokens"] == 5
    assert "stream" not in own["request_body"] or own["request_body"]["stream"] is False
    assert not own["events"]  # a whole answer, not a stream
    # the gateway answered what it received: the shared column's reply ran to its end within 400 tokens,
    # the own column's reply was cut at 5 tokens
    assert run.detail("0.0.0")["finish"] == "stop" and len(run.cells["0.0.0"].answer.split()) > 5
    assert run.detail("0.0.1")["finish"] == "length" and len(run.cells["0.0.1"].answer.split()) <= 5
    assert column_label(plan, 1).endswith("(temperature 0.2 · max 5 tokens · stream off)") and "(" not in column_label(plan, 0)


async def test_a_resumed_run_sends_the_settings_saved_in_its_run_file(client: GatewayClient, conn: Connection, tmp_path: Path) -> None:
    plan = _plan()
    run = RunFile.create(tmp_path, plan.to_dict())
    reopened = RunFile.open(tmp_path, run.run_id)
    saved = Plan.from_dict(reopened.header["plan"], 10)
    assert saved.column_settings == plan.column_settings and saved.settings_for(1) == (0.2, 5, False)
    await Runner(client, conn, saved, reopened).run()
    assert reopened.detail("1.0.1")["exchange"]["request_body"]["max_tokens"] == 5
    assert reopened.detail("1.0.0")["exchange"]["request_body"]["max_tokens"] == 400


def test_column_settings_are_refused_whole_with_the_column_and_field_named() -> None:
    data = _plan().to_dict()
    data["column_settings"] = [{"temperature": 3, "max_tokens": 1.5, "stream": "yes"}]
    with pytest.raises(PlanError) as error:
        Plan.from_dict(data, 10)
    assert error.value.problems == ["column 1 temperature must be a number from 0 to 2, or null",
                                    "column 1 max_tokens must be a whole number from 1 to 1000000, or null",
                                    "column 1 stream must be true, false or null"]
    old = _plan().to_dict()
    del old["column_settings"]  # a run file from before per-column settings: the run's values
    assert Plan.from_dict(old, 10).settings_for(1) == (0.7, 400, True)


async def test_exports_say_which_settings_each_cell_used(client: GatewayClient, conn: Connection, tmp_path: Path) -> None:
    plan = _plan(dataset=Dataset(["name"], [{"name": "Ada"}]))
    run = RunFile.create(tmp_path, plan.to_dict())
    await Runner(client, conn, plan, run).run()
    paths = write_exports(tmp_path / "out", plan, run, {})
    cells = [json.loads(line) for line in paths["jsonl"].read_text().splitlines()]
    assert [(c["temperature"], c["max_tokens"], c["stream"]) for c in cells] == [(0.7, 400, True), (0.2, 5, False)]
    assert "temperature,max_tokens,stream" in paths["csv"].read_text().splitlines()[0]
    session = json.loads(paths["session"].read_text())
    assert session["column_settings"][1] == {"temperature": 0.2, "max_tokens": 5, "stream": False}
    assert "max 5 tokens" in paths["md"].read_text()
