"""The report as a file (JSON round trip, refused files, diff, summary line) and the load run
(monotone concurrency steps, 429s counted, the error-rate stop, refused in hosted mode)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import jsonschema
import pytest

from playground.client.errors import GatewayError
from playground.client.gateway import GatewayClient
from playground.client.report import document
from playground.client.report.latency import HOSTED_REFUSAL, LoadRunRefused, concurrency_steps, load_run, percentile
from playground.client.report.model import CHECKS, FAIL, PASS, Report, Scope
from playground.client.report.runner import run_report
from playground.client.transport import Connection
from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.server import RunningGateway, start_in_thread

KEY = "sk-report-doc-key-123456"
ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "docs" / "report.schema.json").read_text(encoding="utf-8"))
V1_REPORT = ROOT / "tests" / "fixtures" / "report" / "report-v1.json"
"""A version 1 report as the playground wrote it before `schema_version`, `checks` and `formats` (a no-done quirk on qwen-plus)."""


@pytest.fixture(scope="module")
def quirky() -> Iterator[RunningGateway]:
    running = start_in_thread(DemoConfig(api_key=KEY, token_delay=0.0, quirks=("no-done@qwen-plus",)))
    yield running
    running.stop()



async def _report(client: GatewayClient, url: str, models: dict[str, list[str]]) -> Report:
    state = None
    async for state in run_report(client, Connection(url, KEY), Scope(models, ("plain", "stream", "json_schema", "auth"))):
        pass
    assert state is not None
    return state.report


async def test_json_round_trip_keeps_every_cell_and_call(report_client: GatewayClient, quirky: RunningGateway) -> None:
    report = await _report(report_client, quirky.url, {"chat": ["qwen-plus", "gpt-4o-mini"], "messages": ["cl-sonnet-4-5-20250929"]})
    text = document.dumps(report)
    assert KEY not in text
    data = json.loads(text)
    assert (data["schema"], data["version"], data["schema_version"]) == ("gateway-playground-report", 3, 3)
    jsonschema.validate(data, SCHEMA, cls=jsonschema.Draft202012Validator)
    statuses = {row["id"]: row["status"] for row in data["checks"]}
    assert list(statuses) == [check.id for check in CHECKS]
    assert (statuses["stream"], statuses["plain"], statuses["auth"], statuses["tools"]) == ("failed", "passed", "passed", "not_in_profile")
    assert {row["id"]: row["status"] for row in data["formats"]}["images"] == "not_in_profile"
    assert data["summary"].startswith("10 of 11 checks passed; streams of chat completions · qwen-plus end without [DONE]")
    stream = next(r for r in data["results"] if (r["model"], r["check"]) == ("qwen-plus", "stream"))
    assert (stream["status"], stream["compatible"], stream["breaks"]) == ("fail", "pass", [])
    assert (data["counts"]["fail"], data["compatible_counts"]["fail"]) == (1, 0)
    rows = {row["client"]: row for row in data["clients"]}
    assert (rows["openai"]["status"], rows["anthropic"]["status"], rows["google-genai"]["status"]) == ("ready", "ready", "not_checked")
    assert any(q["deviation"] == "no-done" and not q["breaks"] and q["source"].startswith("openai/_streaming.py") for q in rows["openai"]["requirements"])
    again = document.loads(text)
    assert [(r.key, r.status, r.compatible, r.breaks, r.reason, r.expected, r.arrived, r.tag) for r in again.results] == \
           [(r.key, r.status, r.compatible, r.breaks, r.reason, r.expected, r.arrived, r.tag) for r in report.results]
    original = report.by_key()[("chat", "qwen-plus", "stream")].exchanges[0]
    loaded = again.by_key()[("chat", "qwen-plus", "stream")].exchanges[0]
    assert (loaded.method, loaded.url, loaded.status, loaded.request_body) == (original.method, original.url, original.status, original.request_body)
    assert [(e.event, e.data) for e in loaded.events] == [(e.event, e.data) for e in original.events]
    assert document.summary_line(again) == document.summary_line(report)


def test_the_schema_is_valid_2020_12_and_a_version_1_report_still_loads() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    old = json.loads(V1_REPORT.read_text(encoding="utf-8"))
    assert old["version"] == 1 and "checks" not in old and "schema_version" not in old
    report = document.loads(V1_REPORT.read_bytes())
    assert [(r.key, r.status) for r in report.results] == [((r["format"], r["model"], r["check"]), r["status"]) for r in old["results"]]
    again = json.loads(document.dumps(report))
    jsonschema.validate(again, SCHEMA, cls=jsonschema.Draft202012Validator)
    assert {row["id"]: row["status"] for row in again["checks"]}["stream"] == "failed"
    assert {row["id"]: row["status"] for row in again["checks"]}["json_schema"] == "passed"
    assert report.by_key()[("chat", "qwen-plus", "stream")].verdict("compatible") == "pass"  # judged on load by today's client table


@pytest.mark.parametrize(("text", "why"), [
    ("not json", "not JSON"),
    ('{"schema": "other"}', "schema"),
    ('{"schema": "gateway-playground-report", "version": 99}', "version is 99"),
    ('{"schema": "gateway-playground-report", "version": 1, "scope": {"models": {}, "checks": []}, "gateway": "x", "created": 1, '
     '"results": [{"format": "chat", "model": "m", "check": "plain", "status": "maybe"}]}', "unknown status"),
    ('{"schema": "gateway-playground-report", "version": 1, "scope": {"models": {}, "checks": []}, "gateway": "x", "created": 1, '
     '"results": [{"format": "chat", "model": "m", "check": "telepathy", "status": "pass"}]}', "unknown check"),
])
def test_files_that_are_not_reports_are_refused_with_why(text: str, why: str) -> None:
    with pytest.raises(document.ReportFileError, match=why):
        document.loads(text)


async def test_a_new_run_is_diffed_against_a_saved_one(report_client: GatewayClient, quirky: RunningGateway) -> None:
    saved = document.loads(document.dumps(await _report(report_client, quirky.url, {"chat": ["qwen-plus"]})))
    saved.by_key()[("chat", "qwen-plus", "plain")].status = FAIL
    new = await _report(report_client, quirky.url, {"chat": ["qwen-plus", "gpt-4o-mini"]})
    changes = document.diff(saved, new)
    assert [r.key for r in changes.newly_passing] == [("chat", "qwen-plus", "plain")]
    assert changes.newly_failing == []
    assert {r.model for r in changes.new_cells} == {"gpt-4o-mini"}
    saved.by_key()[("chat", "qwen-plus", "stream")].status = PASS
    assert [r.key for r in document.diff(saved, new).newly_failing] == [("chat", "qwen-plus", "stream")]


def test_percentiles_and_steps() -> None:
    assert percentile([3.0, 1.0, 2.0, 4.0], 0.5) == 2.0
    assert percentile([float(i) for i in range(1, 101)], 0.95) == 95.0
    assert percentile([], 0.5) is None
    assert concurrency_steps(8) == [1, 2, 4, 8]
    assert concurrency_steps(6) == [1, 2, 4, 6]


async def test_load_run_ramps_up_and_counts_injected_429s(report_client: GatewayClient) -> None:
    gateway = start_in_thread(DemoConfig(api_key=KEY, token_delay=0.001))
    try:
        runs = [run async for run in load_run(report_client, Connection(gateway.url, KEY), "chat", "gx-2.5-flash", max_concurrency=4, stop_error_rate=1.0,
                                              prompt="[[fault:rate_limit:3]] Tell me about lighthouses.")]
    finally:
        gateway.stop()
    steps = runs[-1].steps
    assert [s.concurrency for s in steps] == [1, 2, 4]
    assert [s.requests for s in steps] == [2, 4, 8]
    assert sum(s.errors["429"] for s in steps) == 3
    assert sum(s.error_count for s in steps) == 3
    assert steps[-1].errors["429"] == 0 and steps[-1].ttft_p50_s is not None and steps[-1].tokens_per_s
    assert all(s.ttft_p50_s <= s.ttft_p95_s for s in steps if s.ttft_p50_s is not None)


async def test_load_run_stops_at_the_first_step_above_the_error_rate(report_client: GatewayClient) -> None:
    gateway = start_in_thread(DemoConfig(api_key=KEY, token_delay=0.0))
    try:
        runs = [run async for run in load_run(report_client, Connection(gateway.url, KEY), "chat", "gx-2.5-flash", max_concurrency=8,
                                              stop_error_rate=0.2, prompt="[[fault:server_error:3]] Hello")]
    finally:
        gateway.stop()
    last = runs[-1]
    assert [s.concurrency for s in last.steps] == [1]
    assert last.steps[0].errors["5xx"] == 2
    assert last.stopped_because == "stopped at concurrency 1: 100% of requests failed (limit 20%)"


async def test_hosted_mode_refuses_the_load_run(report_client: GatewayClient) -> None:
    with pytest.raises(LoadRunRefused) as refused:
        async for _ in load_run(report_client, Connection("http://127.0.0.1:9", KEY), "chat", "gx-2.5-flash", hosted=True):
            pass
    assert isinstance(refused.value, GatewayError)
    assert str(refused.value) == HOSTED_REFUSAL


async def test_loading_never_raises_anything_but_a_report_file_error(report_client: GatewayClient, quirky: RunningGateway) -> None:
    """Random JSON in every position of a real report: refused with a reason, or read."""
    good = json.loads(document.dumps(await _report(report_client, quirky.url, {"chat": ["qwen-plus"]})))
    rng = random.Random(7)
    oddities: list[object] = [None, True, -1, 1e308, 10**30, "", "x" * 50, [], {}, [1, [2]], {"a": {"b": None}}, float("inf")]

    def positions(value: object, path: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
        found = [path]
        if isinstance(value, dict):
            for key, inner in value.items():
                found += positions(inner, (*path, key))
        elif isinstance(value, list):
            for index, inner in enumerate(value[:3]):
                found += positions(inner, (*path, index))
        return found

    for path in positions(good)[1:400]:
        broken = json.loads(json.dumps(good))
        holder = broken
        for step in path[:-1]:
            holder = holder[step]
        holder[path[-1]] = rng.choice(oddities)
        try:
            document.loads(json.dumps(broken))
        except document.ReportFileError:
            pass


def test_a_version_2_report_written_before_the_compatibility_kit_still_loads() -> None:
    old = json.loads(V1_REPORT.read_text(encoding="utf-8"))
    old["version"] = 2
    report = document.loads(json.dumps(old).encode())
    again = json.loads(document.dumps(report))
    assert again["version"] == 3
    jsonschema.validate(again, SCHEMA, cls=jsonschema.Draft202012Validator)
    assert {row["id"]: row["status"] for row in again["checks"]}["tool_arguments"] == "not_in_profile"
