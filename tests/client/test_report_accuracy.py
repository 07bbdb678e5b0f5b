"""Accuracy, published: the compatibility-kit checks on the demo gateway over real sockets. Clean,
each passes wherever the spec has the feature (and is "not supported by the format" elsewhere);
with one planted defect (`DEMO_QUIRKS`) alone, exactly its check fails, in exactly the formats
docs/report.md lists, with a reason naming the spec's section. The tables there are read here."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from playground.client.gateway import GatewayClient
from playground.client.report.model import FAIL, PASS, TEXT_FORMATS, UNSUPPORTED, CheckResult, Scope, catalog_models
from playground.client.report.runner import run_report
from playground.client.transport import Connection, Transport
from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.quirks import QUIRKS
from playground.demo_gateway.server import RunningGateway, start_in_thread

KEY = "sk-report-accuracy-key-123456"
DOC = Path(__file__).resolve().parents[2] / "docs" / "report.md"
KIT = ("stream", "stop_sequences", "stream_usage", "tool_choice_modes", "tool_arguments", "parallel_tools", "json_schema")
ACCURACY = {
    "ignore-stop": ("stop_sequences", {"messages", "native"}),
    "stream-usage-off": ("stream_usage", {"chat", "responses", "messages", "native"}),
    "ignore-tool-choice-none": ("tool_choice_modes", {"responses", "messages", "native"}),
    "drop-argument-delta": ("tool_arguments", {"chat"}),
    "ignore-parallel-off": ("parallel_tools", {"responses", "messages"}),
    "double-finish": ("stream", {"chat"}),
    "schema-drift": ("json_schema", {"chat"}),
}
CLEAN = {
    "stream": (set(TEXT_FORMATS), set()),
    "stop_sequences": ({"messages", "native"}, {"chat", "responses"}),
    "stream_usage": (set(TEXT_FORMATS), set()),
    "tool_choice_modes": (set(TEXT_FORMATS), set()),
    "tool_arguments": (set(TEXT_FORMATS), set()),
    "parallel_tools": ({"responses", "messages"}, {"chat", "native"}),
    "json_schema": ({"chat"}, {"responses", "messages", "native"}),
}


def _table(name: str) -> list[list[str]]:
    """The rows of the table between `<!-- name:start -->` and `<!-- name:end -->`, cells unquoted."""
    block = re.search(rf"<!-- {name}:start -->\n(.*?)<!-- {name}:end -->", DOC.read_text(encoding="utf-8"), re.S)
    assert block, f"docs/report.md has no {name} table"
    rows = [line.strip().strip("|").split("|") for line in block[1].splitlines() if line.startswith("|")][2:]
    return [[cell.strip().strip("`") for cell in row] for row in rows]


def _formats(cell: str) -> set[str]:
    return {name.strip() for name in cell.split(",") if name.strip()}


def _start(quirks: tuple[str, ...] = ()) -> RunningGateway:
    return start_in_thread(DemoConfig(api_key=KEY, token_delay=0.0, quirks=quirks))


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


async def _kit(client: GatewayClient, url: str) -> list[CheckResult]:
    scope = Scope({fmt: catalog_models(fmt) for fmt in TEXT_FORMATS}, KIT, thorough=True)
    state = None
    async for state in run_report(client, Connection(url, KEY), scope):
        pass
    assert state is not None and state.report.finished
    return state.report.results


def test_the_published_tables_are_the_ones_this_test_keeps() -> None:
    published = {row[0]: (row[2], _formats(row[3])) for row in _table("accuracy")}
    assert published == ACCURACY
    assert set(ACCURACY) <= set(QUIRKS)
    assert {row[0]: (_formats(row[1]), _formats(row[2])) for row in _table("clean")} == CLEAN


async def test_the_clean_demo_passes_every_check_of_the_kit(client: GatewayClient, clean_gateway: RunningGateway) -> None:
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


@pytest.mark.parametrize("quirk", sorted(ACCURACY))
async def test_a_planted_defect_is_flagged_by_its_check_alone(client: GatewayClient, quirk: str) -> None:
    check, formats = ACCURACY[quirk]
    gateway = _start((quirk,))
    try:
        results = await _kit(client, gateway.url)
    finally:
        gateway.stop()
    failed = [r for r in results if r.status == FAIL]
    assert {r.check for r in failed} == {check}, [(r.key, r.reason) for r in failed]
    assert {r.format for r in failed} == formats
    assert all("(spec: " in r.reason for r in failed), [r.reason for r in failed]
    assert all(r.exchanges for r in failed)
