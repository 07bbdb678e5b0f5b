"""Every block the gateway sent in an assistant turn goes back unchanged next turn: thinking with
its signature before a tool_use, as messages-format gateways require for thinking + tools."""

from __future__ import annotations

import pytest

from playground.client.errors import BadRequestError
from playground.client.gateway import GatewayClient
from playground.client.messages import MessagesRequest
from playground.demo_gateway.server import RunningGateway
from playground.ui.shared.connection import ServerDefaults
from playground.ui.tabs.messages.handlers import MessagesAdapter, MessagesForm
from tests.conftest import DEMO_KEY
from tests.ui.conversation.conversation_screen import send, tool_result

TOOLS = '[{"name": "get_weather", "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}}}]'


@pytest.fixture
def defaults(gateway: RunningGateway) -> ServerDefaults:
    return ServerDefaults(gateway.url, DEMO_KEY, demo=True)


@pytest.mark.parametrize("stream", [True, False], ids=["streaming", "whole"])
async def test_thinking_and_tool_use_are_replayed_with_the_signature(client: GatewayClient, defaults: ServerDefaults, stream: bool) -> None:
    adapter = MessagesAdapter(client, MessagesForm(model="cl-sonnet-4-5-20250929", max_tokens=4096, stream=stream, thinking=True,
                                                   budget_tokens=2048, tools_json=TOOLS))
    first = (await send(defaults, adapter, "what's the weather in Oslo?"))[-1]
    assert not first.error and first.pending_tool is not None
    turn = first.session.messages[-1]["content"]
    assert [block["type"] for block in turn] == ["thinking", "tool_use"] and turn[0]["signature"].startswith("sig_")
    final = (await tool_result(defaults, adapter, '{"temp_c": 3}', first.session))[-1]
    assert not final.error, final.error
    sent = final.exchange.request_body["messages"][-2]["content"]
    assert sent == turn and final.result is not None and final.result.text


async def test_the_demo_refuses_a_tool_turn_without_its_thinking(client: GatewayClient, conn: object) -> None:
    request = MessagesRequest.build(
        model="cl-sonnet-4-5-20250929", max_tokens=4096, thinking={"type": "enabled", "budget_tokens": 2048},
        messages=[{"role": "user", "content": "weather?"},
                  {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {}}]},
                  {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "3 C"}]}],
        tools=[{"name": "get_weather", "input_schema": {"type": "object"}}])
    with pytest.raises(BadRequestError) as caught:
        await client.messages.create(conn, request)  # type: ignore[arg-type]
    assert "must start with its thinking block" in str(caught.value)


@pytest.mark.parametrize("stream", [True, False], ids=["streaming", "whole"])
async def test_a_web_search_turn_goes_back_with_its_server_tool_blocks(client: GatewayClient, defaults: ServerDefaults, stream: bool) -> None:
    adapter = MessagesAdapter(client, MessagesForm(model="cl-sonnet-4-5-20250929", max_tokens=4096, stream=stream, web_search=True))
    first = (await send(defaults, adapter, "what happened in AI this week?"))[-1]
    kinds = [block["type"] for block in first.session.messages[-1]["content"]]
    assert not first.error and "server_tool_use" in kinds and "web_search_tool_result" in kinds
    second = (await send(defaults, adapter, "and the week before?", first.session))[-1]
    assert not second.error, second.error  # was: "Input tag 'server_tool_use' ... does not match any of the expected tags"
    assert [block["type"] for block in second.exchange.request_body["messages"][1]["content"]] == kinds
