"""The chat client against the demo gateway over a real socket: results, streams, faults."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest

from playground.client import errors
from playground.client.chat import ChatRequest
from playground.client.gateway import GatewayClient
from playground.client.results import ReasoningDelta, TextDelta, TextResult
from playground.client.transport import Connection, Transport
from playground.demo_gateway.server import free_port
from tests.conftest import DEMO_KEY, READ_TIMEOUT, RecordingSleep

WEATHER_TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Weather for a city",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string", "minLength": 2}, "unit": {"type": "string", "enum": ["c", "f"]}, "days": {"type": "integer", "minimum": 1, "maximum": 7}},
            "required": ["city", "unit"],
        },
    },
}


def ask(text: str, **fields: Any) -> ChatRequest:
    return ChatRequest.build(model=fields.pop("model", "gpt-4o-mini"), messages=[{"role": "user", "content": text}], **fields)


async def stream_all(client: GatewayClient, conn: Connection, request: ChatRequest) -> tuple[TextResult, list[Any]]:
    events = []
    async with client.chat.stream(conn, request) as stream:
        async for event in stream:
            events.append(event)
    return stream.result, events


async def test_non_streaming_reply_answers_the_prompt_with_the_parameters_sent(client: GatewayClient, conn: Connection) -> None:
    result, exchange = await client.chat.create(conn, ask("What is a gateway?", temperature=0.2))
    assert result.text.startswith("A gateway is one API in front of many model families") and "What is a gateway?" not in result.text
    assert exchange.request_body["temperature"] == 0.2
    assert result.complete and result.finish_reason == "stop"
    assert result.usage.input_tokens > 0 and result.usage.total_tokens == result.usage.input_tokens + result.usage.output_tokens
    assert exchange.status == 200 and exchange.request_body["stream"] is False


async def test_stream_delivers_text_in_many_deltas_and_a_final_usage(client: GatewayClient, conn: Connection) -> None:
    result, events = await stream_all(client, conn, ask("Tell me something"))
    deltas = [e.text for e in events if isinstance(e, TextDelta)]
    assert len(deltas) > 5 and "".join(deltas) == result.text
    assert result.complete and result.usage is not None and result.usage.output_tokens >= len(deltas)
    # its rate (tests/client/test_token_rate.py) needs pieces apart in time, which a busy machine may read in one go
    assert result.first_token_at is not None and result.last_token_at is not None and result.last_token_at >= result.first_token_at


async def test_thinking_model_streams_reasoning_separately(client: GatewayClient, conn: Connection) -> None:
    result, events = await stream_all(client, conn, ask("Why is the sky blue?", model="gx-2.5-flash-thinking"))
    first_reasoning = next(i for i, e in enumerate(events) if isinstance(e, ReasoningDelta))
    first_text = next(i for i, e in enumerate(events) if isinstance(e, TextDelta))
    assert first_reasoning < first_text
    assert "Rayleigh scattering" in result.reasoning and "Rayleigh scattering" in result.text and result.reasoning not in result.text
    assert result.usage.reasoning_tokens and result.usage.reasoning_tokens > 0


async def test_reasoning_is_not_returned_without_streaming_but_is_counted(client: GatewayClient, conn: Connection) -> None:
    result, _ = await client.chat.create(conn, ask("Think", model="gx-2.5-flash-thinking-high"))
    assert result.reasoning == "" and result.usage.reasoning_tokens > 0


async def test_nothinking_suffix_and_effort(client: GatewayClient, conn: Connection) -> None:
    off, _ = await stream_all(client, conn, ask("Think", model="gx-2.5-pro-nothinking"))
    low, _ = await stream_all(client, conn, ask("Think", model="gx-2.5-flash", reasoning_effort="low"))
    high, _ = await stream_all(client, conn, ask("Think", model="gx-2.5-flash", reasoning_effort="high"))
    budget, _ = await stream_all(client, conn, ask("Think", model="gx-2.5-flash-thinking-8"))
    assert off.reasoning == ""
    assert 0 < len(low.reasoning) < len(high.reasoning)
    assert 0 < budget.usage.reasoning_tokens <= 8


async def test_enable_thinking_only_with_stream_and_inlining(client: GatewayClient, conn: Connection) -> None:
    streamed, _ = await stream_all(client, conn, ask("Hi", model="qwen-plus", enable_thinking=True))
    unstreamed, _ = await client.chat.create(conn, ask("Hi", model="qwen-plus", enable_thinking=True))
    inlined, _ = await stream_all(client, conn, ask("Hi", model="qwen-plus", enable_thinking=True, svc_thinking_to_content=True))
    assert streamed.reasoning and not unstreamed.usage.reasoning_tokens
    assert inlined.reasoning == "" and inlined.text.startswith("<think>")


async def test_tool_round_trip_streams_both_calls(client: GatewayClient, conn: Connection) -> None:
    first = ask("What is the weather in Paris?", tools=[WEATHER_TOOL])
    result, _ = await stream_all(client, conn, first)
    assert result.finish_reason == "tool_calls" and len(result.tool_calls) == 1
    call = result.tool_calls[0]
    assert call.name == "get_weather" and call.id.startswith("call_")
    jsonschema.validate(json.loads(call.arguments), WEATHER_TOOL["function"]["parameters"])
    follow_up = ChatRequest.build(
        model="gpt-4o-mini",
        tools=[WEATHER_TOOL],
        messages=[
            {"role": "user", "content": "What is the weather in Paris?"},
            {"role": "assistant", "content": None, "tool_calls": [{"id": call.id, "type": "function", "function": {"name": call.name, "arguments": call.arguments}}]},
            {"role": "tool", "tool_call_id": call.id, "content": '{"temp": 21}'},
        ],
    )
    answer, events = await stream_all(client, conn, follow_up)
    assert "get_weather reports temp 21." in answer.text and answer.finish_reason == "stop" and len(events) > 3


async def test_auto_tool_choice_skips_unrelated_prompts_and_required_forces(client: GatewayClient, conn: Connection) -> None:
    plain, _ = await client.chat.create(conn, ask("Hello", tools=[WEATHER_TOOL]))
    forced, _ = await client.chat.create(conn, ask("Hello", tools=[WEATHER_TOOL], tool_choice="required"))
    assert plain.tool_calls == [] and forced.tool_calls[0].name == "get_weather"


async def test_json_schema_output_validates(client: GatewayClient, conn: Connection) -> None:
    schema = {
        "type": "object",
        "properties": {"title": {"type": "string"}, "score": {"type": "number", "minimum": 0, "maximum": 10}, "tags": {"type": "array", "items": {"type": "string"}, "minItems": 2}, "ok": {"type": "boolean"}},
        "required": ["title", "score", "tags", "ok"],
        "additionalProperties": False,
    }
    request = ask("Rate this", response_format={"type": "json_schema", "json_schema": {"name": "rating", "schema": schema}})
    streamed, _ = await stream_all(client, conn, request)
    plain, _ = await client.chat.create(conn, request)
    for result in (streamed, plain):
        jsonschema.validate(json.loads(result.text), schema)


async def test_max_tokens_is_respected(client: GatewayClient, conn: Connection) -> None:
    result, _ = await client.chat.create(conn, ask("Please write a long answer", max_tokens=7))
    assert result.finish_reason == "length" and result.usage.output_tokens <= 7


async def test_wrong_key_is_an_authentication_error_without_the_key(client: GatewayClient, gateway: Any) -> None:
    secret = "sk-wrong-key-ABCDEFG"
    with pytest.raises(errors.AuthenticationError) as caught:
        await client.chat.create(Connection(gateway.url, secret), ask("hi"))
    assert caught.value.status == 401 and caught.value.error_type == "authentication_error"
    assert secret not in str(caught.value) and secret not in caught.value.user_message


async def test_unknown_model_is_not_found(client: GatewayClient, conn: Connection) -> None:
    with pytest.raises(errors.NotFoundError, match="does not exist"):
        await client.chat.create(conn, ask("hi", model="no-such-model"))
    with pytest.raises(errors.NotFoundError):
        async with client.chat.stream(conn, ask("hi", model="gpt-4o-mini-thinking")) as stream:
            async for _ in stream:
                pass


async def test_rate_limit_is_retried_honouring_retry_after(client: GatewayClient, conn: Connection, sleeps: RecordingSleep) -> None:
    result, exchange = await client.chat.create(conn, ask("hi [[fault:rate_limit]]"))
    assert result.complete and exchange.attempts == 2 and sleeps.waits == [0.02]


async def test_persistent_rate_limit_gives_up_after_two_retries(client: GatewayClient, conn: Connection, sleeps: RecordingSleep) -> None:
    with pytest.raises(errors.RateLimitError) as caught:
        await client.chat.create(conn, ask("hi [[fault:rate_limit:5]]"))
    assert caught.value.status == 429 and len(sleeps.waits) == 2


@pytest.mark.parametrize(("fault", "status"), [("server_error", 500), ("unavailable", 503)])
async def test_server_errors_are_retried_with_backoff(client: GatewayClient, conn: Connection, sleeps: RecordingSleep, fault: str, status: int) -> None:
    async with client.chat.stream(conn, ask(f"hi [[fault:{fault}:2]]")) as stream:
        async for _ in stream:
            pass
    assert stream.result.complete and stream.exchange.attempts == 3
    assert 0.375 <= sleeps.waits[0] <= 0.625 and 0.75 <= sleeps.waits[1] <= 1.25
    with pytest.raises(errors.ServerError) as caught:
        await client.chat.create(conn, ask(f"again [[fault:{fault}:3]]"))
    assert caught.value.status == status


@pytest.mark.parametrize(
    ("fault", "error_class", "message"),
    [
        ("cut", errors.IncompleteStreamError, "connection was cut"),
        ("stall", errors.IncompleteStreamError, f"went silent for {READ_TIMEOUT:g} s"),
        ("malformed", errors.MalformedEventError, "not JSON"),
        ("stream_error", errors.StreamEventError, "upstream_error"),
    ],
)
async def test_broken_streams_keep_the_partial_text_and_are_not_resent(client: GatewayClient, conn: Connection, sleeps: RecordingSleep, fault: str, error_class: type, message: str) -> None:
    with pytest.raises(error_class, match=message) as caught:
        async with client.chat.stream(conn, ask(f"hello [[fault:{fault}]]")) as stream:
            async for _ in stream:
                pass
    partial = caught.value.partial
    assert partial is stream.result and partial.text and "Hello! This is the playground's offline demo gateway".startswith(partial.text) and not partial.complete
    assert stream.exchange.attempts == 1 and sleeps.waits == []
    assert "Retry" in caught.value.user_message


async def test_connection_refused_is_a_connection_error(sleeps: RecordingSleep) -> None:
    client = GatewayClient(Transport(connect_timeout=1, read_timeout=1, sleep=sleeps))
    with pytest.raises(errors.APIConnectionError, match="Could not reach"):
        await client.chat.create(Connection(f"http://127.0.0.1:{free_port()}", DEMO_KEY), ask("hi"))
    assert len(sleeps.waits) == 2
    await client.aclose()


async def test_exchange_records_events_with_the_key_redacted(client: GatewayClient, conn: Connection) -> None:
    _result, _ = await stream_all(client, conn, ask("hi"))
    async with client.chat.stream(conn, ask("hi")) as stream:
        async for _ in stream:
            pass
    exchange = stream.exchange
    assert exchange.request_headers["authorization"] == "Bearer ***"
    assert DEMO_KEY not in repr(exchange) and DEMO_KEY not in json.dumps(exchange.request_body)
    assert exchange.events[-1].data == "[DONE]" and all(b.at >= a.at for a, b in zip(exchange.events, exchange.events[1:]))
    assert exchange.events[0].data  # keep-alive comments are not recorded as events


async def test_list_models(client: GatewayClient, conn: Connection) -> None:
    ids, exchange = await client.list_models(conn)
    assert "gx-2.5-flash" in ids and "cl-sonnet-4-5-20250929" in ids and exchange.status == 200
