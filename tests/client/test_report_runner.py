"""The report runner and every probe against the demo gateway over real sockets: all pass with
default settings; with DEMO_QUIRKS the matching cells fail with the right reason and nothing
else does; no retries; a crashing probe stays in its cell; Stop keeps what finished."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from contextlib import aclosing
from pathlib import Path

import pytest

from playground.client.gateway import GatewayClient
from playground.client.limits import SessionQuota
from playground.client.report import runner
from playground.client.report.model import CHECKS, FAIL, PASS, SKIPPED, UNSUPPORTED, Report, Scope
from playground.client.report.runner import effective_concurrency, run_report
from playground.client.transport import Connection, Transport
from playground.client.video import VideoAPI
from playground.client.report.video_probe import mp4_duration
from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.server import RunningGateway, start_in_thread

KEY = "sk-report-test-key-123456"
QUIRKS = ("no-done", "drop-usage@gpt-4o-mini", "slow-first-token@gx-2.5-flash", "ignore-schema@qwen-plus",
          "ignore-system@cl-sonnet-4-5-20250929")
SLOW_S = 0.6
BUDGET_S = 0.45


def _start(**options: object) -> RunningGateway:
    return start_in_thread(DemoConfig(api_key=KEY, token_delay=0.0, slow_first_token_s=SLOW_S, retry_after_ms=10, **options))  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def plain_gateway() -> Iterator[RunningGateway]:
    running = _start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def quirky_gateway() -> Iterator[RunningGateway]:
    running = _start(quirks=QUIRKS)
    yield running
    running.stop()



async def _run(client: GatewayClient, url: str, scope: Scope | None = None, concurrency: int = 4) -> Report:
    scope = scope or Scope.default()
    scope.ttft_budget_s = BUDGET_S
    state = None
    async for state in run_report(client, Connection(url, KEY), scope, concurrency=concurrency):
        pass
    assert state is not None
    return state.report


async def test_every_probe_passes_on_the_demo_gateway(report_client: GatewayClient, plain_gateway: RunningGateway) -> None:
    report = await _run(report_client, plain_gateway.url)
    judged = {r.key: r for r in report.results}
    assert len(judged) == len(Scope.default().cells())
    failures = [(r.key, r.reason) for r in report.results if r.status == FAIL]
    assert failures == []
    skipped = {r.key: r.reason for r in report.results if r.status == SKIPPED}
    assert skipped == {("chat", "deepseek-reasoner", "image"): "deepseek-reasoner takes no images (catalog)",
                       ("responses", "gpt-4o-mini", "thinking"): "gpt-4o-mini is not a reasoning model (the spec applies reasoning to reasoning models only)"}
    assert judged[("messages", "cl-sonnet-4-5-20250929", "json_schema")].status == UNSUPPORTED
    every_probe = {r.check for r in report.results if r.status == PASS}
    assert every_probe == set(runner.PROBES) - {check.id for check in CHECKS if check.thorough_only}
    assert all(r.exchanges for r in report.results if r.status == PASS)
    assert report.finished and not report.stopped


async def test_quirks_fail_the_matching_cells_and_nothing_else(report_client: GatewayClient, quirky_gateway: RunningGateway) -> None:
    report = await _run(report_client, quirky_gateway.url)
    failed = {r.key: r for r in report.results if r.status == FAIL}
    chat_models = ("gx-2.5-flash", "gpt-4o-mini", "cl-sonnet-4-5-20250929", "qwen-plus", "deepseek-reasoner")
    expected = {("chat", model, "stream") for model in chat_models}
    expected |= {("chat", "gpt-4o-mini", "plain"), ("responses", "gpt-4o-mini", "plain"), ("chat", "gpt-4o-mini", "thinking")}
    expected |= {("chat", "gx-2.5-flash", "ttft"), ("native", "gx-2.5-flash", "ttft")}
    expected |= {("chat", "qwen-plus", "json_schema")}
    expected |= {("chat", "cl-sonnet-4-5-20250929", "system"), ("messages", "cl-sonnet-4-5-20250929", "system"),
                 ("messages", "cl-sonnet-4-5-20250929", "caching")}
    assert set(failed) == expected
    assert failed[("chat", "qwen-plus", "stream")].reason == "the stream did not end with data: [DONE] (spec: Events, Chat completions stream; Chat completion chunk)"
    assert failed[("chat", "qwen-plus", "stream")].tag == "no-done"
    assert failed[("chat", "gpt-4o-mini", "plain")].reason == "streamed answer: no usage was reported"
    assert failed[("chat", "gpt-4o-mini", "thinking")].reason == "the reasoning was not counted in usage"
    took = re.fullmatch(r"the first token took (\d+\.\d\d) s", failed[("native", "gx-2.5-flash", "ttft")].reason)
    assert took and float(took[1]) >= 0.6, "the quirk holds the first token back 0.6 s (more on a loaded machine)"
    assert failed[("chat", "qwen-plus", "json_schema")].reason == "the answer is not JSON (spec: POST /v1/chat/completions, response_format json_schema)"
    assert failed[("messages", "cl-sonnet-4-5-20250929", "system")].reason == "the answer ignores the system prompt"
    assert "offline demo gateway" in failed[("chat", "qwen-plus", "json_schema")].arrived


async def test_no_probe_is_retried(report_client: GatewayClient) -> None:
    limited = _start(fault="rate_limit:1")
    try:
        scope = Scope({"chat": ["gx-2.5-flash"], "images": ["gx-2.5-flash-image"]}, ("plain", "ratio", "n"))
        report = await _run(report_client, limited.url, scope)
    finally:
        limited.stop()
    run = report.results
    assert [r.check for r in run] == ["plain", "ratio", "n"]
    assert {r.status for r in run} == {FAIL}
    assert all("429" in r.reason for r in run)
    assert all(exchange.attempts == 1 for r in report.results for exchange in r.exchanges)


async def test_a_crashing_probe_fails_its_cell_only(report_client: GatewayClient, plain_gateway: RunningGateway,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    async def broken(_probe: object) -> str:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setitem(runner.PROBES, "system", broken)
    scope = Scope({"chat": ["gx-2.5-flash"]}, ("plain", "system", "finish"))
    report = await _run(report_client, plain_gateway.url, scope)
    statuses = {r.check: (r.status, r.reason) for r in report.results}
    assert statuses["system"] == (FAIL, "the probe itself failed (ZeroDivisionError: division by zero)")
    assert statuses["plain"][0] == statuses["finish"][0] == PASS


async def test_stop_keeps_what_finished(report_client: GatewayClient, plain_gateway: RunningGateway) -> None:
    scope = Scope.default()
    report = Report(plain_gateway.url, scope)

    async def consume() -> None:
        async with aclosing(run_report(report_client, Connection(plain_gateway.url, KEY), scope, concurrency=1, report=report)) as states:
            async for state in states:
                if sum(r.status == PASS for r in state.report.results) >= 3:
                    raise asyncio.CancelledError

    with pytest.raises(asyncio.CancelledError):
        await consume()
    assert report.stopped and not report.finished
    assert sum(r.status == PASS for r in report.results) >= 3
    assert len(report.results) == len(scope.cells())
    assert any(r.reason == "not run: the run was stopped" for r in report.results)


def test_the_run_never_goes_above_the_session_calls_at_once() -> None:
    assert effective_concurrency(Connection("http://x", quota=SessionQuota(concurrent_calls=2)), 8) == 2
    assert effective_concurrency(Connection("http://x"), 99) == runner.MAX_CONCURRENCY
    assert effective_concurrency(Connection("http://x"), 0) == 1


async def test_a_session_limit_skips_cells_with_the_limit_named(report_client: GatewayClient, plain_gateway: RunningGateway) -> None:
    conn = Connection(plain_gateway.url, KEY, quota=SessionQuota(requests_per_minute=3))
    state = None
    async for state in run_report(report_client, conn, Scope({"chat": ["gx-2.5-flash"]}, ("plain", "finish", "system", "sampling")), concurrency=1):
        pass
    assert state is not None
    skipped = [r for r in state.report.results if r.status == SKIPPED]
    assert skipped and all("PLAYGROUND_REQUESTS_PER_MINUTE" in r.reason for r in skipped)


async def test_a_session_limit_never_fails_a_check_that_expects_an_error(report_client: GatewayClient, plain_gateway: RunningGateway) -> None:
    """The app's own limit is not the gateway's answer: an error check past it is not run, not failed."""
    conn = Connection(plain_gateway.url, KEY, quota=SessionQuota(requests_per_minute=1))
    checks = ("bad_request", "unknown_model", "auth")
    state = None
    async for state in run_report(report_client, conn, Scope({"chat": ["gx-2.5-flash"]}, ("plain", *checks)), concurrency=1):
        pass
    assert state is not None and checks
    limited = [r for r in state.report.results if r.check in checks and "PLAYGROUND_REQUESTS_PER_MINUTE" in r.reason]
    assert limited and all(r.status == SKIPPED for r in limited)


async def test_video_probe_per_family_on_a_fast_demo() -> None:
    gateway = _start(video_queue_seconds=0.2, video_run_seconds=0.6)
    transport = Transport(connect_timeout=2.0, read_timeout=10.0)
    client = GatewayClient(transport, video=VideoAPI(transport, poll_interval=(0.05, 0.1)))
    try:
        scope = Scope.default(thorough=True, formats=("video",))
        assert [model[:4] for model in scope.models["video"]] == ["vidA", "vidB", "vidC", "vidD"]
        report = await _run(client, gateway.url, scope)
    finally:
        await client.aclose()
        gateway.stop()
    assert [(r.model[:4], r.status) for r in report.results] == [(family, PASS) for family in ("vidA", "vidB", "vidC", "vidD")]
    assert all("s of video" in r.reason and "succeeded after" in r.reason for r in report.results)


def test_mp4_check_reads_the_duration_box() -> None:
    movie = Path(__file__).resolve().parents[2] / "assets" / "video"
    sample = next(movie.glob("demo-*.mp4"))
    seconds = mp4_duration(sample.read_bytes())
    assert seconds is not None and 1 <= seconds <= 20
    assert mp4_duration(b"\x00\x00\x00\x08free" + sample.read_bytes()) is None
    assert mp4_duration(b"not a video") is None
