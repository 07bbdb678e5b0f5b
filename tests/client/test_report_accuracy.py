"""Accuracy, published: the Report's checks on the demo gateway over real sockets. Clean, each
passes wherever the spec has the feature (and is "not supported by the format" elsewhere); with
one planted defect (`DEMO_QUIRKS`) alone, exactly the checks its row names fail, in exactly the
formats docs/report.md lists, with a reason naming the spec's section (the quick checks `plain`,
`system` and `ttft` say what arrived in their own words). Every quirk the demo knows has a row, so
the table cannot fall behind the demo. The tables there are read here."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from playground.client.gateway import GatewayClient
from playground.client.report.model import ERROR_FORMATS, FAIL, PASS, TEXT_FORMATS, UNSUPPORTED, CheckResult, Scope, catalog_models
from playground.client.report.runner import run_report
from playground.client.transport import Connection, Transport
from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.quirks import QUIRKS
from playground.demo_gateway.report_quirks import REPORT_QUIRKS
from playground.demo_gateway.server import RunningGateway, start_in_thread

KEY = "sk-report-accuracy-key-123456"
DOC = Path(__file__).resolve().parents[2] / "docs" / "report.md"
KIT = ("stream", "stop_sequences", "stream_usage", "tool_choice_modes", "tool_arguments", "parallel_tools", "json_schema")
ERRORS_AND_ACCOUNTING = ("bad_request", "unknown_model", "auth", "rate_limit", "count_tokens_extras", "native_usage", "cache_usage")
OWN_WORDS = ("plain", "system", "ttft")
"""The quick checks whose failures say what arrived without naming a section."""
WATCHED = KIT + ERRORS_AND_ACCOUNTING + OWN_WORDS
ALL_TEXT, ALL_ERRORS = set(TEXT_FORMATS), set(ERROR_FORMATS)
ACCURACY = {
    "no-done": ({"stream"}, {"chat"}),
    "drop-usage": ({"plain", "stream_usage", "native_usage"}, ALL_TEXT),
    "slow-first-token": ({"ttft"}, ALL_TEXT),
    "ignore-schema": ({"json_schema"}, {"chat"}),
    "ignore-system": ({"system"}, ALL_TEXT),
    "ignore-stop": ({"stop_sequences"}, {"messages", "native"}),
    "stream-usage-off": ({"stream_usage"}, ALL_TEXT),
    "ignore-tool-choice-none": ({"tool_choice_modes"}, {"responses", "messages", "native"}),
    "drop-argument-delta": ({"tool_arguments"}, {"chat"}),
    "ignore-parallel-off": ({"parallel_tools"}, {"responses", "messages"}),
    "double-finish": ({"stream"}, {"chat"}),
    "schema-drift": ({"json_schema"}, {"chat"}),
    "flat-errors": ({"bad_request", "unknown_model", "auth", "rate_limit"}, ALL_ERRORS),
    "no-retry-after": ({"rate_limit"}, ALL_ERRORS),
    "count-skips-tools": ({"count_tokens_extras"}, {"messages"}),
    "thoughts-outside-total": ({"native_usage"}, {"native"}),
    "cache-in-input": ({"cache_usage"}, {"responses", "messages"}),
}
CLEAN = {
    "plain": (ALL_TEXT, set()),
    "stream": (ALL_TEXT, set()),
    "system": (ALL_TEXT, set()),
    "json_schema": ({"chat"}, {"responses", "messages", "native"}),
    "ttft": (ALL_TEXT, set()),
    "bad_request": (ALL_ERRORS, set()),
    "unknown_model": (ALL_ERRORS, set()),
    "auth": (ALL_ERRORS, set()),
    "rate_limit": (ALL_ERRORS, set()),
    "count_tokens_extras": ({"messages"}, {"chat", "responses", "native"}),
    "native_usage": ({"native"}, {"chat", "responses", "messages"}),
    "cache_usage": ({"chat", "responses", "messages"}, {"native"}),
    "stop_sequences": ({"messages", "native"}, {"chat", "responses"}),
    "stream_usage": (ALL_TEXT, set()),
    "tool_choice_modes": (ALL_TEXT, set()),
    "tool_arguments": (ALL_TEXT, set()),
    "parallel_tools": ({"responses", "messages"}, {"chat", "native"}),
}


def _table(name: str) -> list[list[str]]:
    """The rows of the table between `<!-- name:start -->` and `<!-- name:end -->`, cells unquoted."""
    block = re.search(rf"<!-- {name}:start -->\n(.*?)<!-- {name}:end -->", DOC.read_text(encoding="utf-8"), re.S)
    assert block, f"docs/report.md has no {name} table"
    rows = [line.strip().strip("|").split("|") for line in block[1].splitlines() if line.startswith("|")][2:]
    return [[cell.strip().strip("`") for cell in row] for row in rows]


def _formats(cell: str) -> set[str]:
    return {name.strip().strip("`") for name in cell.split(",") if name.strip()}


def _start(quirks: tuple[str, ...] = ()) -> RunningGateway:
    return start_in_thread(DemoConfig(api_key=KEY, token_delay=0.0, retry_after_ms=10, quirks=quirks))


@pytest.fixture
async def client() -> AsyncIterator[GatewayClient]:
    client = GatewayClient(Transport(connect_timeout=2.0, read_timeout=10.0))
    yield client
    await client.aclose()


@pytest.fixture(scope="module")
def clean_gateway() -> Iterator[RunningGateway]:
    running = _start()
    yield running
    running.stop()


async def _kit(client: GatewayClient, url: str, concurrency: int = 4) -> list[CheckResult]:
    scope = Scope({fmt: catalog_models(fmt) for fmt in ERROR_FORMATS}, WATCHED, thorough=True)
    state = None
    async for state in run_report(client, Connection(url, KEY), scope, concurrency=concurrency):
        pass
    assert state is not None and state.report.finished
    return state.report.results


def test_the_published_tables_are_the_ones_this_test_keeps() -> None:
    published = {row[0]: (_formats(row[2]), _formats(row[3])) for row in _table("accuracy")}
    assert published == ACCURACY
    assert {row[0]: (_formats(row[1]), _formats(row[2])) for row in _table("clean")} == CLEAN
    assert set(CLEAN) == set(WATCHED)


def test_every_quirk_the_demo_knows_has_its_row() -> None:
    """A new `DEMO_QUIRKS` name without a row in the accuracy table fails here."""
    assert set(ACCURACY) == {*QUIRKS, *REPORT_QUIRKS}, "docs/report.md's accuracy table and the demo's quirks differ"


async def test_the_clean_demo_passes_every_watched_check(client: GatewayClient, clean_gateway: RunningGateway) -> None:
    results = await _kit(client, clean_gateway.url)
    for check, (passing, unsupported) in CLEAN.items():
        cells = [r for r in results if r.check == check]
        assert {r.format for r in cells if r.status == PASS} == passing, [(r.key, r.status, r.reason) for r in cells if r.status != PASS]
        assert {r.format for r in cells if r.status == UNSUPPORTED} == unsupported
        assert all("in the spec" in r.reason for r in cells if r.status == UNSUPPORTED)
        assert all(r.exchanges for r in cells if r.status == PASS)
    stops = [r.reason for r in results if r.check == "stop_sequences" and r.status == PASS]
    assert stops and all(reason.startswith("stopped before") for reason in stops)  # the demo really stopped, in both formats
    parallel = [r.reason for r in results if r.check == "parallel_tools" and r.status == PASS]
    assert parallel and all(reason.startswith("2 call(s) with parallel calls on, 1 with them off") for reason in parallel)
    cached = [r.reason for r in results if r.check == "cache_usage" and r.format == "responses"]
    assert cached and all(re.fullmatch(r"cached tokens within the input \(at most [1-9]\d*\)", reason) for reason in cached), cached


@pytest.mark.parametrize("quirk", sorted(ACCURACY))
async def test_a_planted_defect_is_flagged_by_its_checks_alone(client: GatewayClient, quirk: str) -> None:
    checks, formats = ACCURACY[quirk]
    gateway = _start((quirk,))
    try:
        results = await _kit(client, gateway.url, concurrency=16 if quirk == "slow-first-token" else 4)  # its streams only wait
    finally:
        gateway.stop()
    failed = [r for r in results if r.status == FAIL]
    assert {r.check for r in failed} == checks, [(r.key, r.reason) for r in failed]
    assert {r.format for r in failed} == formats
    assert all("spec" in r.reason for r in failed if r.check not in OWN_WORDS), [r.reason for r in failed]
    assert all(r.exchanges for r in failed)
