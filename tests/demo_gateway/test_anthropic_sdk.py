"""The official anthropic SDK, pointed at the demo gateway: create, stream, count tokens, errors."""

from __future__ import annotations

import anthropic
import pytest

from playground.demo_gateway.server import RunningGateway
from tests.conftest import DEMO_KEY

MODEL = "cl-opus-4-5-20251101"


@pytest.fixture
def sdk(gateway: RunningGateway) -> anthropic.Anthropic:
    return anthropic.Anthropic(base_url=gateway.url, api_key=None, auth_token=DEMO_KEY, max_retries=0)


def test_sdk_create_with_thinking(sdk: anthropic.Anthropic) -> None:
    message = sdk.messages.create(model=MODEL, max_tokens=4000, thinking={"type": "enabled", "budget_tokens": 2000}, messages=[{"role": "user", "content": "What is 6 times 7?"}])
    assert [block.type for block in message.content] == ["thinking", "text"]
    assert "42" in message.content[1].text and "42" in message.content[0].thinking and message.usage.input_tokens > 0


def test_sdk_stream_accumulates_the_final_message(sdk: anthropic.Anthropic) -> None:
    with sdk.messages.stream(model=MODEL, max_tokens=4000, thinking={"type": "enabled", "budget_tokens": 2000}, messages=[{"role": "user", "content": "stream it"}]) as stream:
        texts = list(stream.text_stream)
        final = stream.get_final_message()
    assert len(texts) > 3 and "".join(texts) == final.content[1].text
    assert final.content[0].type == "thinking" and final.content[0].signature
    assert final.stop_reason == "end_turn" and final.usage.output_tokens > 10


def test_sdk_tool_use_and_count_tokens(sdk: anthropic.Anthropic) -> None:
    tool = {"name": "get_time", "description": "Time in a city", "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}
    with sdk.messages.stream(model=MODEL, max_tokens=100, tools=[tool], messages=[{"role": "user", "content": "what time is it in Lima"}]) as stream:
        final = stream.get_final_message()
    assert final.stop_reason == "tool_use" and final.content[0].input["city"]
    counted = sdk.messages.count_tokens(model=MODEL, messages=[{"role": "user", "content": "what time is it in Lima"}], tools=[tool])
    plain = sdk.messages.count_tokens(model=MODEL, messages=[{"role": "user", "content": "what time is it in Lima"}])
    assert counted.input_tokens > plain.input_tokens > 0


def test_sdk_errors(sdk: anthropic.Anthropic, gateway: RunningGateway) -> None:
    with pytest.raises(anthropic.BadRequestError):
        sdk.messages.create(model=MODEL, max_tokens=0, messages=[{"role": "user", "content": "x"}])
    with pytest.raises(anthropic.AuthenticationError):
        anthropic.Anthropic(base_url=gateway.url, api_key="wrong", max_retries=0).messages.create(model=MODEL, max_tokens=10, messages=[{"role": "user", "content": "x"}])
    with pytest.raises(anthropic.RateLimitError):
        sdk.messages.create(model=MODEL, max_tokens=10, messages=[{"role": "user", "content": "x [[fault:rate_limit:9]]"}])


def test_sdk_counts_a_chinese_sentence_about_a_token_a_character(sdk: anthropic.Anthropic) -> None:
    """Chinese has no spaces: counted by words, a sentence was one or two tokens."""
    sentence = "今天天气很好，我们去公园散步吧。"
    chinese = sdk.messages.count_tokens(model=MODEL, messages=[{"role": "user", "content": sentence}]).input_tokens
    empty = sdk.messages.count_tokens(model=MODEL, messages=[{"role": "user", "content": "."}]).input_tokens
    assert chinese - empty >= len(sentence) - 3
