"""Messages tab behaviour: request building, tool round trip, token count and the cache lab."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from playground.client.gateway import GatewayClient
from playground.client.results import Usage
from playground.demo_gateway.server import RunningGateway
from playground.ui.shared.connection import ServerDefaults
from playground.ui.conversation.turns import Session
from playground.ui.tabs.messages.handlers import MessagesAdapter, MessagesForm, cache_report, count_draft_tokens
from playground.ui.shared.render import THINKING_TITLE, flatten_text
from tests.conftest import DEMO_KEY
from tests.ui.conversation.conversation_screen import send, tool_result

MODEL = "cl-sonnet-4-5-20250929"
TOOLS = json.dumps([{"name": "get_weather", "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}},
                    {"name": "get_time", "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}}}])


@pytest.fixture
def defaults(gateway: RunningGateway) -> ServerDefaults:
    return ServerDefaults(gateway.url, DEMO_KEY, demo=True)


def form(**fields: Any) -> MessagesForm:
    return MessagesForm(**{"model": MODEL, **fields})


def test_form_builds_breakpoints_tools_and_choices() -> None:
    messages = [{"role": "user", "content": "hello"}]
    body = form(system="sys", cache_system=True, cache_last_message=True, cache_type="persistent", tools_json=TOOLS, web_search=True,
                web_search_max_uses=3, web_search_city="Paris", tool_choice="get_time", disable_parallel=True, stop_sequences="END\nSTOP, HALT",
                thinking=True, budget_tokens=2048, top_k=5).request(messages).to_body()
    assert body["system"] == [{"type": "text", "text": "sys", "cache_control": {"type": "persistent"}}]
    assert body["messages"][0]["content"] == [{"type": "text", "text": "hello", "cache_control": {"type": "persistent"}}]
    assert messages == [{"role": "user", "content": "hello"}], "the session's messages are not modified"
    assert body["tools"][-1] == {"type": "web_search_20250305", "name": "web_search", "max_uses": 3, "user_location": {"type": "approximate", "city": "Paris"}}
    assert body["tool_choice"] == {"type": "tool", "name": "get_time", "disable_parallel_tool_use": True}
    assert body["stop_sequences"] == ["END", "STOP", "HALT"] and body["thinking"] == {"type": "enabled", "budget_tokens": 2048} and body["top_k"] == 5


async def test_thinking_budget_and_json_errors_are_explained(client: GatewayClient, defaults: ServerDefaults) -> None:
    bad_budget = await send(defaults, MessagesAdapter(client, form(thinking=True, budget_tokens=500)), "hi")
    assert "budget_tokens: Input should be greater than 1024" in bad_budget[0].error
    bad_json = await send(defaults, MessagesAdapter(client, form(tools_json="{")), "hi")
    assert "Tools: not valid JSON" in bad_json[0].error and bad_json[0].history == []


async def test_thinking_stream_and_two_tool_round_trip(client: GatewayClient, defaults: ServerDefaults) -> None:
    thinking = (await send(defaults, MessagesAdapter(client, form(thinking=True)), "Why is the sea salty?"))[-1]
    assert thinking.history[1]["metadata"]["title"] == THINKING_TITLE and "dissolved minerals" in flatten_text(thinking.history[-1]["content"])
    adapter = MessagesAdapter(client, form(tools_json=TOOLS, tool_choice="any"))
    first = (await send(defaults, adapter, "weather please"))[-1]
    assert first.pending_tool is not None and first.pending_tool.name == "get_weather"
    call_id = first.pending_tool.id
    final = (await tool_result(defaults, adapter, "cloudy", first.session))[-1]
    assert "cloudy" in flatten_text(final.history[-1]["content"])
    assert final.session.messages[2] == {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call_id, "content": "cloudy"}]}


async def test_images_go_as_base64_image_blocks(client: GatewayClient, defaults: ServerDefaults, tmp_path: Path) -> None:
    picture = tmp_path / "p.jpg"
    Image.new("RGB", (8, 8), "blue").save(picture)
    final = (await send(defaults, MessagesAdapter(client, form()), {"text": "look", "files": [str(picture)]}))[-1]
    block = final.session.messages[0]["content"][0]
    assert block["type"] == "image" and block["source"]["media_type"] == "image/jpeg" and "I received 1 image" in flatten_text(final.history[-1]["content"])


async def test_live_token_count(client: GatewayClient, defaults: ServerDefaults) -> None:
    empty = await count_draft_tokens(client, defaults, {"text": "", "files": []}, Session(), "", "", form(), debounce=0)
    assert "type a message" in empty
    counted = await count_draft_tokens(client, defaults, {"text": "one two three", "files": []}, Session(), "", "", form(system="be brief"), debounce=0)
    assert "**5** input tokens" in counted
    broken = await count_draft_tokens(client, defaults, "x", Session(), "", "", form(model="gpt-4o"), debounce=0)
    assert "Token count unavailable" in broken and "cl-" in broken


def test_cache_report_explains_each_outcome() -> None:
    assert "send again" in cache_report(MODEL, [])
    below = cache_report(MODEL, [Usage(input_tokens=300, output_tokens=5, cache_creation_tokens=0, cached_tokens=0)])
    assert "Nothing was cached" in below and "at least 1,024 tokens" in below
    haiku = cache_report("cl-haiku-4-5-20251001", [Usage(input_tokens=1500, output_tokens=5, cache_creation_tokens=0, cached_tokens=0)])
    assert "at least 2,048 tokens" in haiku
    lab = cache_report(MODEL, [Usage(input_tokens=3, output_tokens=5, cache_creation_tokens=1800, cached_tokens=0),
                               Usage(input_tokens=3, output_tokens=5, cache_creation_tokens=0, cached_tokens=1800)])
    assert "| 1 | 3 | 1,800 | 0 | 5 | — |" in lab and "| 2 | 3 | 0 | 1,800 | 5 | 90% cheaper |" in lab and "Cache hit" in lab
