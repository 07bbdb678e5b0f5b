"""Messages client: request rules, and create/stream/count_tokens against the demo gateway."""

from __future__ import annotations

import json
from typing import Any

import pytest

from playground.client import errors
from playground.client.gateway import GatewayClient
from playground.client.messages import MessagesRequest
from playground.client.results import ReasoningDelta, TextDelta
from playground.client.transport import Connection

MODEL = "cl-sonnet-4-5-20250929"
USER = [{"role": "user", "content": "hi"}]
TOOL = {"name": "get_weather", "description": "Weather", "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}


def build(**overrides: Any) -> MessagesRequest:
    return MessagesRequest.build(**{"model": MODEL, "messages": USER, "max_tokens": 256, **overrides})


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        ({"model": "gpt-4o"}, "begins with 'cl-'"),
        ({"messages": []}, "messages: List should have at least 1 item"),
        ({"messages": [{"role": "system", "content": "x"}]}, "messages[0].role"),
        ({"max_tokens": 0}, "max_tokens: Input should be greater than 0"),
        ({"max_tokens": None}, "max_tokens: Field required"),
        ({"temperature": 1.5}, "temperature: Input should be less than or equal to 1"),
        ({"top_p": -0.5}, "top_p: Input should be greater than or equal to 0"),
        ({"top_k": 0}, "top_k"),
        ({"thinking": {"type": "enabled", "budget_tokens": 1024}}, "thinking.budget_tokens: Input should be greater than 1024"),
        ({"thinking": {"type": "disabled", "budget_tokens": 2000}}, "thinking.type"),
        ({"tools": [{"type": "web_search_20250305", "name": "search"}]}, "Input should be 'web_search'"),
        ({"tools": [{"type": "web_search_2024", "name": "web_search"}]}, "Input should be 'web_search_20250305'"),
        ({"tools": [{"type": "web_search_20250305", "name": "web_search", "max_uses": 0}]}, "max_uses"),
        ({"tools": [{"name": "f", "input_schema": {"type": "string"}}]}, "input_schema must be a JSON Schema with type 'object'"),
        ({"tool_choice": {"type": "any"}}, "needs at least one tool"),
        ({"tools": [TOOL], "tool_choice": {"type": "tool"}}, "needs the tool's name"),
        ({"tools": [TOOL], "tool_choice": {"type": "tool", "name": "other"}}, "not among the tools"),
        ({"tools": [TOOL], "tool_choice": {"type": "sometimes"}}, "tool_choice.type"),
        ({"cache_control": {"type": "forever"}}, "cache_control.type"),
        ({"system": [{"type": "text", "text": "s", "cache_control": {"type": "1h"}}]}, "system"),
        ({"messages": [{"role": "user", "content": [{"type": "image", "source": {"type": "base64", "media_type": "image/bmp", "data": "x"}}]}]}, "media_type"),
        ({"messages": [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_x", "content": "1"}]}]}, "does not match an earlier tool_use id"),
        ({"messages": [{"role": "user", "content": []}]}, "must not be an empty list"),
        ({"stop_sequences": [""]}, "stop_sequences"),
    ],
)
def test_rule_violations(overrides: dict[str, Any], expected: str) -> None:
    fields = {"model": MODEL, "messages": USER, "max_tokens": 256, **overrides}
    with pytest.raises(errors.RequestValidationError) as caught:
        MessagesRequest.build(**{k: v for k, v in fields.items()})
    assert expected in str(caught.value)


def test_every_field_of_the_spec_is_accepted_and_advisories_follow_the_spec() -> None:
    request = build(
        system=[{"type": "text", "text": "Be brief", "cache_control": {"type": "persistent"}}],
        messages=[{"role": "user", "content": [{"type": "text", "text": "see", "cache_control": {"type": "ephemeral"}},
                                               {"type": "image", "source": {"type": "url", "url": "https://example.com/a.png"}}]}],
        temperature=0.5, top_p=0.9, top_k=5, stream=True, stop_sequences=["END"],
        tools=[TOOL, {"type": "web_search_20250305", "name": "web_search", "max_uses": 3, "user_location": {"type": "approximate", "city": "Paris", "country": "FR", "region": "IDF", "timezone": "Europe/Paris"}}],
        tool_choice={"type": "auto", "disable_parallel_tool_use": True}, thinking={"type": "enabled", "budget_tokens": 2048},
        metadata={"user_id": "u1"}, mcp_servers=[{"type": "url", "url": "https://mcp.example", "name": "m"}], context_management={"edits": []},
        cache_control={"type": "ephemeral"},
    )
    body = request.to_body()
    assert body["tools"][1]["name"] == "web_search" and body["system"][0]["cache_control"] == {"type": "persistent"}
    assert set(request.count_body()) == {"model", "messages", "system", "tools"}
    notes = " ".join(request.advisories())
    assert "temperature 1.0 is recommended" in notes and "top_p 0" in notes and "budget_tokens is not below max_tokens" in notes


async def test_create_and_stream_with_thinking(client: GatewayClient, conn: Connection) -> None:
    request = build(thinking={"type": "enabled", "budget_tokens": 2048}, max_tokens=4096,
                    messages=[{"role": "user", "content": "What is the capital of Peru?"}])
    plain, _ = await client.messages.create(conn, request)
    assert "Lima" in plain.reasoning and "The capital of Peru is Lima." in plain.text and plain.finish_reason == "end_turn"
    events = []
    async with client.messages.stream(conn, request) as stream:
        async for event in stream:
            events.append(event)
    kinds = [type(e) for e in events]
    assert kinds.index(ReasoningDelta) < kinds.index(TextDelta)
    assert stream.result.text == plain.text and stream.result.reasoning == plain.reasoning and stream.result.complete
    assert stream.result.usage.output_tokens == plain.usage.output_tokens and stream.result.usage.input_tokens == 7


async def test_tool_round_trip_streaming(client: GatewayClient, conn: Connection) -> None:
    first = build(messages=[{"role": "user", "content": "weather in Madrid"}], tools=[TOOL])
    async with client.messages.stream(conn, first) as stream:
        async for _ in stream:
            pass
    call = stream.result.tool_calls[0]
    assert stream.result.finish_reason == "tool_use" and call.id.startswith("toolu_") and json.loads(call.arguments)["city"]
    follow = build(tools=[TOOL], messages=[
        {"role": "user", "content": "weather in Madrid"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": call.id, "name": call.name, "input": json.loads(call.arguments)}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call.id, "content": "30 degrees"}]},
    ])
    answer, _ = await client.messages.create(conn, follow)
    assert "30 degrees" in answer.text and answer.finish_reason == "end_turn"


async def test_stop_sequences_and_max_tokens(client: GatewayClient, conn: Connection) -> None:
    stopped, exchange = await client.messages.create(conn, build(stop_sequences=["offline demo"]))
    assert stopped.finish_reason == "stop_sequence" and stopped.text.rstrip() == "Hello! This is the playground's"
    assert exchange.response_body["stop_sequence"] == "offline demo"
    cut, _ = await client.messages.create(conn, build(max_tokens=3))
    assert cut.finish_reason == "max_tokens" and cut.usage.output_tokens <= 3


async def test_web_search_tool_is_simulated(client: GatewayClient, conn: Connection) -> None:
    result, exchange = await client.messages.create(conn, build(tools=[{"type": "web_search_20250305", "name": "web_search", "max_uses": 2}]))
    kinds = [b["type"] for b in exchange.response_body["content"]]
    assert kinds == ["server_tool_use", "web_search_tool_result", "text"] and "searched the web" in result.text


async def test_count_tokens_matches_usage_and_counts_images_and_tools(client: GatewayClient, conn: Connection) -> None:
    image = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}
    base = build(system="You are terse.", messages=[{"role": "user", "content": "count these words please"}])
    with_image = build(system="You are terse.", messages=[{"role": "user", "content": [{"type": "text", "text": "count these words please"}, image]}])
    with_tool = build(system="You are terse.", messages=[{"role": "user", "content": "count these words please"}], tools=[TOOL])
    counted = [(await client.messages.count_tokens(conn, r))[0] for r in (base, with_image, with_tool)]
    assert counted[1] - counted[0] == 1000 and counted[2] > counted[0]
    result, _ = await client.messages.create(conn, base)
    assert counted[0] == result.usage.input_tokens
    assert (await client.messages.count_tokens(conn, build(max_tokens=9999)))[0] == (await client.messages.count_tokens(conn, build(max_tokens=1)))[0]


@pytest.mark.parametrize(
    ("marker", "error_class", "error_type"),
    [("rate_limit:3", errors.RateLimitError, "rate_limit_error"), ("server_error:3", errors.ServerError, "upstream_error"), ("unavailable:3", errors.ServerError, "svc_api_error")],
)
async def test_error_table_types(client: GatewayClient, conn: Connection, marker: str, error_class: type, error_type: str) -> None:
    with pytest.raises(error_class) as caught:
        await client.messages.create(conn, build(messages=[{"role": "user", "content": f"x [[fault:{marker}]]"}]))
    assert caught.value.error_type == error_type


async def test_invalid_request_and_auth_errors(client: GatewayClient, conn: Connection, gateway: Any) -> None:
    with pytest.raises(errors.BadRequestError) as caught:
        await client.transport.request_json(conn, "POST", "/v1/messages", {"model": MODEL, "messages": USER})
    assert caught.value.error_type == "invalid_request" and "max_tokens" in str(caught.value)
    with pytest.raises(errors.AuthenticationError) as auth:
        await client.messages.create(Connection(gateway.url, "sk-bad-key-000"), build())
    assert auth.value.error_type == "authentication_error"
    with pytest.raises(errors.BadRequestError) as missing:
        await client.transport.request_json(conn, "POST", "/v1/messages/count_tokens", {"model": MODEL})
    assert missing.value.error_type == "invalid_request_error" and missing.value.body["type"] == "error"
    with pytest.raises(errors.AuthenticationError) as count_auth:
        await client.messages.count_tokens(Connection(gateway.url, "sk-bad-key-000"), build())
    assert count_auth.value.error_type == "invalid_request_error" and "type" not in count_auth.value.body


async def test_in_stream_error_event_keeps_partial(client: GatewayClient, conn: Connection) -> None:
    with pytest.raises(errors.StreamEventError, match="upstream_error") as caught:
        async with client.messages.stream(conn, build(messages=[{"role": "user", "content": "go [[fault:stream_error]]"}])) as stream:
            async for _ in stream:
                pass
    assert caught.value.partial.text and not stream.result.complete
