"""Compare: the shared parameters in every format, four columns at once equal to single calls,
one failing column, Stop, the metrics table and the word diff."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from playground.client.gateway import GatewayClient
from playground.client.intent import FORMATS, Intent, to_request
from playground.demo_gateway.server import RunningGateway
from playground.ui.tabs.compare.handlers import PRESETS, compare, export_files, metrics_table, word_diff
from playground.settings import Settings
from playground.ui.app import build_app
from playground.ui.shared.connection import ServerDefaults
from tests.conftest import DEMO_KEY
from tests.ui.page_model import PageModel

IMAGE = "data:image/png;base64,iVBORw0KGgo="
MODELS = {"chat": "gx-2.5-flash", "responses": "gx-2.5-flash", "messages": "cl-sonnet-4-5-20250929", "native": "gx-2.5-flash"}


@pytest.fixture
def defaults(gateway: RunningGateway) -> ServerDefaults:
    return ServerDefaults(gateway.url, DEMO_KEY, demo=True)


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_shared_parameter_in_every_format(fmt: str) -> None:
    # a reasoning model for responses, temperature 1 for messages: every parameter goes through as asked
    intent = Intent("hello", system="Be brief.", image=IMAGE, temperature=1.0, max_tokens=300, thinking=True, budget=2048, stream=True)
    mapped = to_request(intent, fmt, {**MODELS, "responses": "o4-mini"}[fmt])
    body = json.dumps(mapped.request.to_body())
    assert set(mapped.mapping) == {"system prompt", "user message", "temperature", "max output tokens", "thinking", "stream"}
    assert "Be brief." in body and "hello" in body and "iVBORw0KGgo=" in body and '"temperature": 1.0' in body
    assert [text.id for text in mapped.adjustments] == (["intent.messages_max_tokens_raised"] if fmt == "messages" else [])
    assert not any(value.startswith("not sent") for value in mapped.mapping.values()), mapped.mapping
    expected = {"chat": '"thinking_budget": 2048', "responses": '"effort": "medium"', "messages": '"budget_tokens": 2048',
                "native": '"thinkingBudget": 2048'}[fmt]
    assert expected in body


def test_what_a_format_cannot_express_is_said() -> None:
    hot = to_request(Intent("x", temperature=1.5), "messages", MODELS["messages"])
    assert hot.mapping["temperature"].startswith("not sent: the messages format allows 0 to 1") and "temperature" not in hot.request.to_body()
    unstreamed = to_request(Intent("x", thinking=True, stream=False), "chat", "gx-2.5-flash")
    assert unstreamed.mapping["thinking"].startswith("not sent") and "extra_body" not in unstreamed.request.to_body()
    small = to_request(Intent("x", thinking=True, budget=500, max_tokens=100), "messages", MODELS["messages"])
    assert small.request.to_body()["thinking"]["budget_tokens"] == 1025 and small.request.to_body()["max_tokens"] > 1025


async def final(client: GatewayClient, defaults: ServerDefaults, intent: Intent, columns: list[tuple[str, str]]) -> list:  # type: ignore[type-arg]
    runs = []
    async for runs in compare(client, defaults, "", "", intent, columns):
        pass
    return runs


async def test_four_columns_at_once_equal_single_calls(client: GatewayClient, defaults: ServerDefaults, gateway: RunningGateway) -> None:
    intent = Intent("why is the sky blue?", system="Be brief.", temperature=0.3)
    runs = await final(client, defaults, intent, PRESETS["One model family through all four formats"])
    assert [r.fmt for r in runs] == list(FORMATS) and all(r.done and not r.error and r.result.complete for r in runs)
    for run in runs:
        single = await getattr(client, run.fmt).create(defaults_conn(gateway), to_request(Intent(**{**intent.__dict__, "stream": False}), run.fmt, run.model).request)
        assert run.result.text == single[0].text
    table = metrics_table(runs)
    assert table.count("★") >= 2 and "time to first token" in table and "finish" in table


def defaults_conn(gateway: RunningGateway):  # type: ignore[no-untyped-def]
    from playground.client.transport import Connection
    return Connection(gateway.url, DEMO_KEY)


async def test_one_failing_column_does_not_stop_the_others(client: GatewayClient, defaults: ServerDefaults) -> None:
    runs = await final(client, defaults, Intent("hello"), [("chat", "gx-2.5-flash"), ("native", "gx-unknown-model"),
                                                           ("messages", "gx-2.5-flash"), ("responses", "gpt-4.1")])
    chat, native, messages, responses = runs
    assert "Not found on the gateway" in native.error and "begins with 'cl-'" in messages.error
    assert chat.result.text and responses.result.text and not chat.error and not responses.error


async def test_stop_halts_every_column(client: GatewayClient, defaults: ServerDefaults, gateway: RunningGateway) -> None:
    gateway.config.token_delay = 0.02
    try:
        generator = compare(client, defaults, "", "", Intent("a long story please"), PRESETS["One model family through all four formats"])
        runs = await generator.__anext__()
        for _ in range(5):
            runs = await generator.__anext__()
        await generator.aclose()
        await asyncio.sleep(0.3)
        lengths = [len(r.result.text) for r in runs]
        await asyncio.sleep(0.3)
        assert [len(r.result.text) for r in runs] == lengths and not all(r.result.complete for r in runs)
    finally:
        gateway.config.token_delay = 0.0


def test_word_diff_and_export(tmp_path: Path) -> None:
    shown = word_diff("the sky is blue <b>", "the sky looks blue today")
    assert "<del>is</del>" in shown and "<ins>looks</ins>" in shown and "<ins>today</ins>" in shown and "<b>" not in shown
    json_path, md_path = export_files(Intent("hi"), [])
    assert json.loads(Path(json_path).read_text())["inputs"]["user"] == "hi" and Path(md_path).read_text().startswith("# Comparison")


@pytest.mark.parametrize("button", ["compare-send", "compare-stop"])
async def test_a_refused_send_or_a_stop_before_any_run_writes_exactly_the_tab_outputs(button: str, gateway: RunningGateway, tmp_path: Any) -> None:
    """The end step of a send that was refused (or a Stop with nothing run) skips every output it
    has, no more: the page model fails on a wrong count, as Gradio warns and drops the extra."""
    page = PageModel(build_app(Settings(read_timeout=10, data_dir=tmp_path), ServerDefaults(gateway.url, DEMO_KEY, demo=True)))
    page.set(page.component("compare-message"), "   ")
    before = page.get(page.component("compare-metrics-0"))
    await page.click(button)
    assert page.get(page.component("compare-metrics-0")) == before
    if button == "compare-send":
        assert "type a message first" in page.get(page.component("compare-error")), page.get(page.component("compare-error"))
