"""The client table (`client/report/clients.py`) against the real SDKs: for every requirement, the
demo gateway with that deviation planted (`DEMO_QUIRKS`), the report's probe flagging it strictly
with its tag, and the official SDK (openai, anthropic, google-genai) breaking, or not, exactly as
the table says; the same SDK call against a clean gateway never breaks. Then the verdicts a cell
carries follow: a tolerated deviation passes compatibly, one that breaks a client names it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from importlib import metadata
from typing import Any

import anthropic
import openai
import pydantic
import pytest
from google import genai
from google.genai import types

from playground.client.gateway import GatewayClient
from playground.client.report import clients
from playground.client.report.model import FAIL, PASS, Report, Scope
from playground.client.report.runner import run_cell
from playground.client.transport import Connection, Transport
from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.server import RunningGateway, start_in_thread

KEY = "sk-readiness-key-123456"
QUIRK = {"no-done": "no-done", "no-usage": "drop-usage", "slow-first-token": "slow-first-token", "ignores-schema": "ignore-schema",
         "no-reasoning-tokens": "drop-usage"}
"""The demo quirk that plants each deviation of the table."""
CHECK = {"no-done": "stream", "no-usage": "plain", "slow-first-token": "ttft", "ignores-schema": "json_schema", "no-reasoning-tokens": "thinking"}
"""The report's check that flags each deviation (with that tag)."""
MODEL = {"chat": "gpt-4o-mini", "responses": "gpt-4o-mini", "messages": "cl-sonnet-4-5-20250929", "native": "gx-2.5-flash"}
QUESTION = "Name three colours."


class Answer(pydantic.BaseModel):
    name: str


def _openai(url: str) -> openai.OpenAI:
    return openai.OpenAI(base_url=url + "/v1", api_key=KEY, max_retries=0)


def openai_chat(url: str, deviation: str) -> None:
    sdk = _openai(url)
    if deviation == "ignores-schema":
        sdk.chat.completions.parse(model=MODEL["chat"], messages=[{"role": "user", "content": "Give a name as JSON."}], response_format=Answer)
        return
    extra: dict[str, Any] = {"reasoning_effort": "low"} if deviation == "no-reasoning-tokens" else {}
    chunks = list(sdk.chat.completions.create(model=MODEL["chat"], messages=[{"role": "user", "content": QUESTION}], stream=True,
                                              stream_options={"include_usage": True}, **extra))
    assert chunks and any(c.choices and c.choices[0].finish_reason for c in chunks)


def openai_responses(url: str, deviation: str) -> None:
    with _openai(url).responses.stream(model=MODEL["responses"], input=QUESTION) as stream:
        final = stream.get_final_response()
    assert final.output_text


def anthropic_messages(url: str, deviation: str) -> None:
    sdk = anthropic.Anthropic(base_url=url, api_key=None, auth_token=KEY, max_retries=0)
    with sdk.messages.stream(model=MODEL["messages"], max_tokens=200, messages=[{"role": "user", "content": QUESTION}]) as stream:
        final = stream.get_final_message()
    assert final.content and final.stop_reason


def genai_native(url: str, deviation: str) -> None:
    sdk = genai.Client(api_key="unused", http_options=types.HttpOptions(base_url=url, api_version="v1beta", headers={"Authorization": f"Bearer {KEY}"}))
    config = types.GenerateContentConfig(thinking_config=types.ThinkingConfig(thinking_budget=512, include_thoughts=True)) if deviation == "no-reasoning-tokens" else None
    chunks = list(sdk.models.generate_content_stream(model=MODEL["native"], contents=QUESTION, config=config))
    assert chunks and chunks[-1].candidates[0].finish_reason


SCENARIOS: dict[tuple[str, str], Callable[[str, str], None]] = {
    (clients.OPENAI, "chat"): openai_chat, (clients.OPENAI, "responses"): openai_responses,
    (clients.ANTHROPIC, "messages"): anthropic_messages, (clients.GENAI, "native"): genai_native,
}
CASES = [(q.client, fmt, q.deviation) for q in clients.REQUIREMENTS for fmt in q.formats]


def sdk_breaks(client: str, fmt: str, deviation: str, url: str) -> bool:
    """Whether the SDK's ordinary use raised (an error of the SDK or of reading what it returned)."""
    try:
        SCENARIOS[(client, fmt)](url, deviation)
    except Exception:
        return True
    return False


@pytest.fixture(scope="module")
def gateways() -> Iterator[dict[str, RunningGateway]]:
    started = {name: start_in_thread(DemoConfig(api_key=KEY, token_delay=0.0, quirks=(name,) if name else (), slow_first_token_s=0.4))
               for name in ("", *sorted(set(QUIRK.values())))}
    yield started
    for running in started.values():
        running.stop()


def test_the_table_was_read_from_the_installed_sdks() -> None:
    assert {name: metadata.version(name) for name in clients.READ_FROM} == clients.READ_FROM
    assert {(c, f) for c, f, _ in CASES} <= set(SCENARIOS), "every requirement has a scenario that runs its SDK"


@pytest.mark.parametrize(("client", "fmt", "deviation"), CASES, ids=[f"{c}-{f}-{d}" for c, f, d in CASES])
def test_each_sdk_breaks_exactly_as_the_table_says(client: str, fmt: str, deviation: str, gateways: dict[str, RunningGateway]) -> None:
    requirement = clients.requirement(client, fmt, deviation)
    assert requirement is not None and requirement.source.startswith(client.replace("google-genai", "google/genai"))
    assert not sdk_breaks(client, fmt, deviation, gateways[""].url), "the SDK works against the clean gateway"
    planted = gateways[QUIRK[deviation]].url
    result = asyncio.run(_probe(planted, fmt, CHECK[deviation]))
    assert (result.status, result.tag) == (FAIL, deviation), result.reason
    assert sdk_breaks(client, fmt, deviation, planted) is requirement.breaks
    assert (client in result.breaks) is requirement.breaks
    others = [c.id for c in clients.clients_of(fmt) if c.id != client]
    assert result.verdict("compatible") == (FAIL if requirement.breaks or others else PASS)


async def _probe(url: str, fmt: str, check: str) -> Any:
    client = GatewayClient(Transport(connect_timeout=2.0, read_timeout=10.0))
    try:
        return await run_cell(client, Connection(url, KEY), Scope({}, (), ttft_budget_s=0.2), fmt, MODEL[fmt], check)
    finally:
        await client.aclose()


def test_a_failure_the_table_does_not_list_breaks_every_client_of_its_format() -> None:
    from playground.client.report.model import CheckResult

    ignored = clients.judge(CheckResult("chat", "m", "system", FAIL, "the system prompt was ignored"))
    assert (ignored.breaks, ignored.verdict("compatible")) == ((clients.OPENAI,), FAIL)
    video = clients.judge(CheckResult("video", "m", "video", FAIL, "no video"))
    assert (video.breaks, video.verdict("compatible")) == ((), FAIL), "a format no client speaks keeps its strict verdict"
    report = Report("http://gw", Scope({"chat": ["m"], "video": ["m"]}))
    report.results = [ignored, video, clients.judge(CheckResult("chat", "m", "stream", FAIL, "no [DONE]", tag="no-done"))]
    rows = {row.client: row for row in clients.readiness(report)}
    assert (rows["openai"].status, [r.check for r in rows["openai"].breaking]) == ("not_ready", ["system"])
    assert (rows["anthropic"].status, rows["google-genai"].status) == ("not_checked", "not_checked")
    assert (report.counts()["fail"], report.counts("compatible")["fail"]) == (3, 2)
