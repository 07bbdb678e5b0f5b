"""The Report's error and accounting checks against the demo gateway over real sockets: every
check passes on the clean demo, and each planted defect (`report_quirks`) is flagged by its
check with a reason naming the spec rule, while the other checks keep passing."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from playground.client.gateway import GatewayClient
from playground.client.report import rate_limit_probe
from playground.client.report.error_shapes import BAD_BODY, COUNT_TOKENS, RATE_LIMIT, UNKNOWN_MODEL, WRONG_KEY, body_problem, status_section, statuses
from playground.client.report.model import ERROR_FORMATS, FAIL, PASS, SKIPPED, Report, Scope, catalog_models
from playground.client.report.runner import run_report
from playground.client.transport import Connection
from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.server import RunningGateway, start_in_thread

KEY = "sk-report-conformance-key-123456"
ERROR_CHECKS = ("bad_request", "unknown_model", "auth")
ACCOUNTING = ("rate_limit", "count_tokens_extras", "native_usage", "cache_usage")
SECTIONS = {"chat": "Errors › Chat completions", "messages": "Errors › Messages interface", "native": "Errors › Native text",
            "responses": "Errors › Native text (other endpoints' errors: not shown)"}


def _start(*quirks: str) -> RunningGateway:
    return start_in_thread(DemoConfig(api_key=KEY, token_delay=0.0, retry_after_ms=10, quirks=quirks))


@pytest.fixture(scope="module")
def clean() -> Iterator[RunningGateway]:
    running = _start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def flat_errors() -> Iterator[RunningGateway]:
    running = _start("flat-errors")
    yield running
    running.stop()


@pytest.fixture(scope="module")
def accounting_quirks() -> Iterator[RunningGateway]:
    running = _start("no-retry-after@gpt-4o-mini", "count-skips-tools", "thoughts-outside-total", "cache-in-input")
    yield running
    running.stop()


def _scope(checks: tuple[str, ...]) -> Scope:
    return Scope({fmt: catalog_models(fmt) for fmt in ERROR_FORMATS}, checks)


async def _run(client: GatewayClient, url: str, scope: Scope) -> Report:
    state = None
    async for state in run_report(client, Connection(url, KEY), scope):
        pass
    assert state is not None
    return state.report


def _judged(report: Report) -> dict[tuple[str, str, str], tuple[str, str]]:
    return {r.key: (r.status, r.reason) for r in report.results if r.status != "unsupported"}


async def test_the_clean_demo_passes_every_error_and_accounting_check(report_client: GatewayClient, clean: RunningGateway) -> None:
    report = await _run(report_client, clean.url, _scope(ERROR_CHECKS + ACCOUNTING))
    judged = _judged(report)
    assert {key: verdict for key, verdict in judged.items() if verdict[0] != PASS} == {}
    assert {fmt for fmt, _, check in judged if check == "auth"} == set(ERROR_FORMATS)
    assert {check for _, _, check in judged} == set(ERROR_CHECKS + ACCOUNTING)
    messages = "cl-sonnet-4-5-20250929"
    assert "count_tokens: HTTP 400" in judged[("messages", messages, "bad_request")][1], "count_tokens' own error body is checked too"
    assert judged[("messages", messages, "count_tokens_extras")][1] == "count_tokens 13 + 67 for the tool + 1000 for the image = 1080; usage 1080"
    assert judged[("messages", messages, "cache_usage")][1].startswith("written 3900, read 3900, every input token counted once")
    assert judged[("responses", "gpt-4o-mini", "cache_usage")][1] == "cached tokens within the input (at most 3906)", "the demo caches responses too"
    assert judged[("native", "gx-2.5-flash", "native_usage")][1] == "prompt 11 + candidates 7 + thoughts 39 = total 57"
    assert judged[("chat", "gpt-4o-mini", "rate_limit")][1].endswith("retry-after-ms asked 0.01 s; the retry got HTTP 200")


async def test_errors_without_the_error_object_fail_every_error_check_naming_the_section(report_client: GatewayClient,
                                                                                         flat_errors: RunningGateway) -> None:
    report = await _run(report_client, flat_errors.url, _scope(ERROR_CHECKS + ("native_usage", "cache_usage")))
    judged = _judged(report)
    failed = {key for key, (status, _) in judged.items() if status == FAIL}
    assert failed == {key for key in judged if key[2] in ERROR_CHECKS}, "the accounting checks are untouched"
    for (fmt, _, check), (_, reason) in judged.items():
        if check in ERROR_CHECKS and fmt in SECTIONS:
            assert reason.endswith(f": the body has no error object (spec: {SECTIONS[fmt]})"), reason
    assert all(r.tag == "error-shape" for r in report.results if r.status == FAIL)


async def test_each_accounting_defect_is_flagged_by_its_check_only(report_client: GatewayClient, accounting_quirks: RunningGateway) -> None:
    report = await _run(report_client, accounting_quirks.url, _scope(ERROR_CHECKS + ACCOUNTING))
    judged = _judged(report)
    failed = {key: reason for key, (status, reason) in judged.items() if status == FAIL}
    messages = "cl-sonnet-4-5-20250929"
    assert set(failed) == {("chat", "gpt-4o-mini", "rate_limit"), ("responses", "gpt-4o-mini", "rate_limit"),
                           ("messages", messages, "count_tokens_extras"), ("native", "gx-2.5-flash", "native_usage"),
                           ("messages", messages, "cache_usage"), ("responses", "gpt-4o-mini", "cache_usage")}
    assert failed[("chat", "gpt-4o-mini", "rate_limit")] == (
        "the 429 carries neither Retry-After nor retry-after-ms, so a client cannot tell when to retry (spec: Errors › Chat completions "
        "answers a rate limit with 429; the wait travels in Retry-After, which the official SDKs honour)")
    assert failed[("messages", messages, "count_tokens_extras")].startswith(
        "count_tokens left the tool definitions out (spec: POST /v1/messages/count_tokens: input_tokens is the total")
    assert failed[("native", "gx-2.5-flash", "native_usage")].startswith(
        "whole: totalTokenCount 18 is not promptTokenCount 11 + candidatesTokenCount 7 + thoughtsTokenCount 39 = 57")
    assert failed[("messages", messages, "cache_usage")] == (
        "input_tokens + cache reads + cache writes = 7806, count_tokens says 3906 (spec: Message object, usage: input_tokens is the non-cached input)")
    assert failed[("responses", "gpt-4o-mini", "cache_usage")] == (
        "the same request counted 3906 input tokens, then 7812 with 3906 of them cached (spec: Response object, usage: cached tokens are part "
        "of the input, so a cache hit does not change it)")


async def _rate_limit_cell(client: GatewayClient, url: str, monkeypatch: pytest.MonkeyPatch, marker: str) -> tuple[str, str, int]:
    monkeypatch.setattr(rate_limit_probe, "MARKER", marker)
    report = await _run(client, url, Scope({"chat": ["gx-2.5-flash"]}, ("rate_limit",)))
    [result] = report.results
    return result.status, result.reason, len(result.exchanges)


async def test_a_retry_still_refused_fails(report_client: GatewayClient, clean: RunningGateway, monkeypatch: pytest.MonkeyPatch) -> None:
    status, reason, calls = await _rate_limit_cell(report_client, clean.url, monkeypatch, "[[fault:rate_limit:2]]")
    assert (status, reason, calls) == (FAIL, "the same request sent again after 0.01 s got HTTP 429", 2)


async def test_a_wait_longer_than_a_report_waits_passes_without_a_retry(report_client: GatewayClient, clean: RunningGateway,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    status, reason, calls = await _rate_limit_cell(report_client, clean.url, monkeypatch, "[[fault:rate_limit_long]]")
    assert (status, calls) == (PASS, 1)
    assert reason.endswith("429 with retry-after asking 120 s, longer than a report waits (10 s): not retried")


async def test_a_gateway_that_does_not_limit_is_not_run_saying_why(report_client: GatewayClient, clean: RunningGateway,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    status, reason, calls = await _rate_limit_cell(report_client, clean.url, monkeypatch, "")
    assert (status, calls) == (SKIPPED, 1)
    assert reason.startswith("not run: the gateway answered HTTP 200 at once")


def test_the_messages_table_gives_each_status_its_type() -> None:
    assert body_problem("messages", WRONG_KEY, 401, {"error": {"type": "authentication_error", "message": "bad key"}}) is None
    assert body_problem("messages", WRONG_KEY, 401, {"error": {"type": "invalid_request", "message": "bad key"}}) == (
        "error.type 'invalid_request' is not the type for HTTP 401 (authentication_error)")
    assert body_problem("messages", RATE_LIMIT, 429, {"error": {"type": "overloaded_error", "message": "slow down"}}) == (
        "error.type 'overloaded_error' is not the type for HTTP 429 (rate_limit_error)")
    assert body_problem(COUNT_TOKENS, "bad_body", 400, {"error": {"type": "invalid_request_error", "message": "messages: required"}}) == (
        "the body's type is None, not \"error\""), "count_tokens' missing-parameter body is typed error (spec: Errors, Token counting)"
    assert body_problem(COUNT_TOKENS, WRONG_KEY, 401, {"error": {"type": "invalid_request_error", "message": "bad key"}}) is None
    assert body_problem("native", "bad_body", 400, {"error": {"message": "bad"}}) is None
    assert body_problem("chat", "bad_body", 400, {"error": {"message": "bad"}}) == "the error object has no type or code"


def test_each_format_gets_the_statuses_its_section_allows() -> None:
    assert statuses("chat", UNKNOWN_MODEL) == (404,) and status_section("chat", UNKNOWN_MODEL) == "Errors › Chat completions", "NotFoundError is 404"
    assert statuses("chat", WRONG_KEY) == statuses("messages", WRONG_KEY) == (401,), "AuthenticationError / authentication_error are 401"
    assert statuses("native", WRONG_KEY) == (401, 403) and status_section("native", WRONG_KEY) == "Authentication"
    assert statuses("messages", BAD_BODY) == (400,) and statuses("responses", BAD_BODY) == (400, 422)
    assert statuses("images", UNKNOWN_MODEL) == (404, 400) and statuses("embeddings-native", RATE_LIMIT) == (429,)
