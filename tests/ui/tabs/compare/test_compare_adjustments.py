"""Compare's mapping keeps to the catalogue and the messages API (issue 38): with thinking on, the
responses column sends no `reasoning` to a model the catalogue says does not reason, the messages
column sends no temperature but 1 with thinking; each change is said beside its column, in English
and in Chinese, and the requests the gateway received carry neither."""

from __future__ import annotations

import pytest

from playground.client.gateway import GatewayClient
from playground.client.intent import Intent, to_request
from playground.ui.shared.connection import ServerDefaults
from playground.ui.shared.prices import SessionPrices
from playground.ui.tabs.compare import handlers
from playground.ui.tabs.compare.handlers import PRESETS, CompareState
from tests.ui.i18n.test_i18n_views import chinese

COLUMNS = [value for pair in PRESETS["One model family through all four formats"] for value in pair]


def test_responses_sends_reasoning_only_to_a_model_that_may_reason() -> None:
    thinking = Intent("x", thinking=True)
    flash = to_request(thinking, "responses", "gx-2.5-flash")  # the catalogue: gx-2.5-flash does not reason
    assert "reasoning" not in flash.request.to_body()
    assert flash.mapping["thinking"].startswith("reasoning not sent: the catalogue says gx-2.5-flash does not reason")
    assert [text.id for text in flash.adjustments] == ["intent.responses_model_does_not_reason"]
    for model in ("o4-mini", "a-model-the-catalogue-does-not-know"):
        mapped = to_request(thinking, "responses", model)
        assert mapped.request.to_body()["reasoning"] == {"effort": "medium", "summary": "auto"} and not mapped.adjustments
    assert not to_request(Intent("x"), "responses", "gx-2.5-flash").adjustments  # thinking off: nothing to adjust


@pytest.mark.parametrize("temperature", [0.0, 0.7, 0.99])
def test_messages_sends_no_temperature_but_1_with_thinking(temperature: float) -> None:
    mapped = to_request(Intent("x", temperature=temperature, thinking=True), "messages", "cl-sonnet-4-5-20250929")
    body = mapped.request.to_body()
    assert "temperature" not in body and body["thinking"]["type"] == "enabled"
    assert mapped.mapping["temperature"] == f"temperature {temperature:g} not sent: with thinking the messages API takes only temperature 1"
    assert [text.id for text in mapped.adjustments] == ["intent.messages_thinking_temperature"]
    assert to_request(Intent("x", temperature=1.0, thinking=True), "messages", "cl-sonnet-4-5-20250929").request.to_body()["temperature"] == 1.0
    assert to_request(Intent("x", temperature=temperature), "messages", "cl-sonnet-4-5-20250929").request.to_body()["temperature"] == temperature


async def test_each_adjustment_is_said_beside_its_column(client: GatewayClient, defaults: ServerDefaults) -> None:
    wired, state = handlers.CompareHandlers(client, defaults, SessionPrices()), CompareState()
    await handlers.begin(state, "", "Why is the sky blue?", None, 0.0, 0, True, 2048, True, *COLUMNS)
    [_ async for _ in wired.stream(state, "", "", *COLUMNS)]
    sent = {run.fmt: run.exchange.request_body for run in state.runs if run.exchange is not None}
    assert "reasoning" not in sent["responses"] and "temperature" not in sent["messages"] and sent["messages"]["thinking"]["type"] == "enabled"
    assert sent["chat"]["temperature"] == 0.0 and sent["native"]["generationConfig"]["temperature"] == 0.0
    chat, responses, messages, native = (await wired.ended(state, 1, 2, *COLUMNS))[:4]
    assert "Adjusted for this column" not in chat + native
    assert "Adjusted for this column:\n- reasoning not sent: the catalogue says gx-2.5-flash does not reason" in responses
    assert "- temperature 0 not sent: with thinking the messages API takes only temperature 1" in messages
    with chinese():
        _, responses_zh, messages_zh, _ = (await wired.ended(state, 1, 2, *COLUMNS))[:4]
    assert "这一列做了调整" in responses_zh and "目录显示 gx-2.5-flash 不是推理模型" in responses_zh
    assert "未发送温度 0：开启思考时，messages API 只接受温度 1" in messages_zh
