"""The official openai SDK, pointed at the demo gateway, completes, streams and runs tools."""

from __future__ import annotations

import json

import openai
import pytest

from playground.demo_gateway.server import RunningGateway
from playground.ui.i18n import CATALOGUE
from tests.conftest import DEMO_KEY

TOOLS = [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]


@pytest.fixture
def sdk(gateway: RunningGateway) -> openai.OpenAI:
    return openai.OpenAI(base_url=gateway.url + "/v1", api_key=DEMO_KEY, max_retries=0)


def test_sdk_completion(sdk: openai.OpenAI) -> None:
    completion = sdk.chat.completions.create(model="gx-2.5-flash", messages=[{"role": "user", "content": "What is the capital of Kenya?"}], temperature=0.3)
    assert completion.object == "chat.completion" and "Nairobi" in completion.choices[0].message.content
    assert completion.usage.total_tokens == completion.usage.prompt_tokens + completion.usage.completion_tokens


def test_sdk_stream_with_reasoning_and_usage(sdk: openai.OpenAI) -> None:
    chunks = list(sdk.chat.completions.create(model="gx-2.5-pro-thinking", messages=[{"role": "user", "content": "Convert 10 km to miles"}], stream=True))
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    reasoning = "".join(getattr(c.choices[0].delta, "reasoning_content", None) or "" for c in chunks if c.choices)
    assert "6.21 miles" in text and "6.21 miles" in reasoning
    assert chunks[-1].usage.completion_tokens_details.reasoning_tokens > 0


def test_sdk_tool_round_trip_streaming(sdk: openai.OpenAI) -> None:
    messages = [{"role": "user", "content": "weather in Rome"}]
    first = sdk.chat.completions.create(model="gpt-4o-mini", messages=messages, tools=TOOLS)
    call = first.choices[0].message.tool_calls[0]
    assert first.choices[0].finish_reason == "tool_calls" and json.loads(call.function.arguments)["city"]
    messages += [first.choices[0].message.model_dump(exclude_none=True), {"role": "tool", "tool_call_id": call.id, "content": "sunny"}]
    with sdk.chat.completions.stream(model="gpt-4o-mini", messages=messages, tools=TOOLS) as stream:
        final = stream.get_final_completion()
    assert "sunny" in final.choices[0].message.content


def test_sdk_streamed_tool_call_accumulates(sdk: openai.OpenAI) -> None:
    with sdk.chat.completions.stream(model="gpt-4o-mini", messages=[{"role": "user", "content": "weather in Oslo"}], tools=TOOLS) as stream:
        final = stream.get_final_completion()
    call = final.choices[0].message.tool_calls[0]
    assert call.function.name == "get_weather" and json.loads(call.function.arguments) == {"city": "Oslo"}


def test_sdk_errors(sdk: openai.OpenAI, gateway: RunningGateway) -> None:
    with pytest.raises(openai.NotFoundError):
        sdk.chat.completions.create(model="missing-model", messages=[{"role": "user", "content": "x"}])
    with pytest.raises(openai.AuthenticationError):
        openai.OpenAI(base_url=gateway.url + "/v1", api_key="wrong", max_retries=0).chat.completions.create(model="gx-2.5-flash", messages=[{"role": "user", "content": "x"}])
    with pytest.raises(openai.BadRequestError):
        sdk.chat.completions.create(model="gx-2.5-flash", messages=[{"role": "user", "content": "x"}], temperature=3)


def test_a_long_chinese_answer_streams_as_long_as_an_english_one(sdk: openai.OpenAI) -> None:
    """Chat's "Stop a long answer" example asked in Chinese (issue 40): Chinese has no spaces, so it streams a character or
    two a piece, and the story arrives in as many pieces as the English one's words, long enough to press Stop halfway."""
    counts = {}
    for language in ("en", "zh-CN"):
        stream = sdk.chat.completions.create(model="gx-2.5-flash", stream=True,
                                             messages=[{"role": "user", "content": CATALOGUE.texts[language]["chat.example.stop_message"]}])
        pieces = [chunk.choices[0].delta.content for chunk in stream if chunk.choices and chunk.choices[0].delta.content]
        counts[language] = len(pieces)
        assert all(len(piece.strip()) <= 16 for piece in pieces)
    assert counts["zh-CN"] > 0.6 * counts["en"] > 300, counts
