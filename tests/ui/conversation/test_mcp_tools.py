"""MCP tools in the conversation, through the handlers the MCP panel's events run, against the
demo gateway (which calls the tools) and the demo MCP server (which runs them), for every text
format: connect, offer, then approve one call, edit the arguments of a second, refuse a third; each
result goes back in the format's own tool-result shape and the model's answer uses it. A server
that fails leaves the chat as it was, with the error in the panel."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from playground.client.egress import EgressGuard
from playground.client.errors import RequestValidationError
from playground.client.gateway import GatewayClient
from playground.client.mcp.formats import tool_result
from playground.client.mcp.session import MCPLink, MCPTool, ToolOutcome
from playground.demo_mcp.server import RunningServer, start_in_thread
from playground.ui.conversation.mcp_tools import McpHandlers, McpState, arguments_of, offered
from playground.ui.conversation.turns import Session
from playground.ui.shared.connection import ServerDefaults
from playground.ui.tabs.chat.handlers import chat_adapter_of
from playground.ui.tabs.messages.handlers import messages_adapter_of
from playground.ui.tabs.native.handlers import native_adapter_of
from playground.ui.tabs.responses.handlers import responses_adapter_of
from tests.client.mcp.misbehaving import RunningMisbehaving, start
from tests.conftest import DEMO_KEY
from tests.ui.conversation.conversation_screen import NO_VARIABLES, handlers

TABS = {
    "chat": (chat_adapter_of, "tools_json", "gpt-4o-mini"),
    "responses": (responses_adapter_of, "tools_json", "gpt-4.1"),
    "messages": (messages_adapter_of, "tools_json", "cl-sonnet-4-5-20250929"),
    "native": (native_adapter_of, "functions_json", "gx-2.5-flash"),
}


@pytest.fixture(scope="module")
def demo_mcp() -> Iterator[RunningServer]:
    running = start_in_thread()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def misbehaving() -> Iterator[RunningMisbehaving]:
    running = start()
    yield running
    running.stop()


async def drain(updates: AsyncIterator[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    return [update async for update in updates]


def last_tool_result(format: str, messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The tool result the conversation will send, as it is kept in the session."""
    for message in reversed(messages):
        if format == "chat" and message.get("role") == "tool":
            return message
        if format == "responses" and message.get("type") == "function_call_output":
            return message
        if format == "messages" and message.get("role") == "user" and isinstance(message.get("content"), list):
            return message["content"][-1]
        if format == "native" and message.get("role") == "user" and "functionResponse" in message["parts"][-1]:
            return message["parts"][-1]
    raise AssertionError("no tool result")


@pytest.mark.parametrize("format", TABS)
async def test_approve_edit_and_refuse_calls_of_the_demo_tools(defaults: ServerDefaults, demo_mcp: RunningServer, format: str) -> None:
    client = GatewayClient()
    conversation = handlers(defaults)
    mcp = McpHandlers(MCPLink(), defaults, format, conversation)
    state, _picker, schemas, status, exchanges = await mcp.connect(demo_mcp.url, "", "", None)
    assert "3 tools" in status and '"calculator"' in schemas and "tools/list" in exchanges
    tools_box, status = mcp.offer(["calculator", "convert_units", "lookup_element"], state, "")
    adapter_of, field, model = TABS[format]
    adapter = adapter_of(client, {"model": model, field: tools_box, "stream": format != "responses"})
    session = Session()
    values = (adapter, NO_VARIABLES, defaults.base_url, DEMO_KEY)

    async def ask(text: str, tool: str) -> str:
        await drain(conversation.send({"text": text, "files": []}, session, *values))
        call = session.pending[0]
        assert call.name == tool
        visible, words, arguments = mcp.review(session, state)
        assert visible["visible"] and tool in words
        return str(arguments)

    arguments = await ask("What is 17*23 with the calculator?", "calculator")
    assert json.loads(arguments) == {"expression": "17*23"}
    call = session.pending[0]
    updates = await drain(mcp.approve(arguments, state, session, *values))
    assert "calculator answered" in updates[0][-2] and "tools/call" in updates[0][-1]
    assert last_tool_result(format, session.messages) == tool_result(format, call.id, "calculator", ToolOutcome(json.dumps({"expression": "17*23", "result": 391}, indent=2), False))
    assert "391" in session.shown[-1]["content"] and not session.pending

    arguments = await ask("Convert 10 km to mi with convert_units", "convert_units")
    edited = json.dumps({**json.loads(arguments), "value": 20})
    await drain(mcp.approve(edited, state, session, *values))
    assert "12.42" in session.shown[-1]["content"]

    await ask("Look up the element sodium with lookup_element", "lookup_element")
    call = session.pending[0]
    updates = await drain(mcp.refuse(state, session, *values))
    assert "refused" in updates[0][-2]
    sent = last_tool_result(format, session.messages)
    assert "refused this call" in json.dumps(sent) and "sodium" not in session.shown[-1]["content"].split("refused")[0].lower()
    assert "refused" in session.shown[-1]["content"]
    await client.aclose()


async def test_a_failing_mcp_server_leaves_the_chat_usable(defaults: ServerDefaults, misbehaving: RunningMisbehaving) -> None:
    client = GatewayClient()
    conversation = handlers(defaults)
    mcp = McpHandlers(MCPLink(call_timeout=1.0), defaults, "chat", conversation)
    state, *_ = await mcp.connect(misbehaving.url, "", "", None)
    tool = {"type": "function", "function": {"name": "close", "description": "breaks", "parameters": {"type": "object", "properties": {}}}}
    state.tools.append(MCPTool("close", "breaks", {"type": "object", "properties": {}}))
    adapter = chat_adapter_of(client, {"model": "gpt-4o-mini", "tools_json": json.dumps([tool]), "tool_choice": "required"})
    session = Session()
    values = (adapter, NO_VARIABLES, defaults.base_url, DEMO_KEY)
    await drain(conversation.send({"text": "please close", "files": []}, session, *values))
    shown = list(session.shown)
    updates = await drain(mcp.approve("{}", state, session, *values))
    assert len(updates) == 1 and "closed the connection" in updates[0][-2]
    assert session.shown == shown and session.pending and session.pending[0].name == "close"  # still waiting: approve again, refuse or answer by hand
    await drain(mcp.refuse(state, session, *values))
    assert not session.pending
    await client.aclose()


def test_offering_replaces_a_tool_of_the_same_name_and_keeps_the_others() -> None:
    calc = MCPTool("calculator", "new", {"type": "object", "properties": {}})
    mine = {"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}
    old = {"type": "function", "function": {"name": "calculator", "description": "old", "parameters": {"type": "object"}}}
    chat = json.loads(offered(json.dumps([mine, old]), [calc], "chat"))
    assert [entry["function"]["name"] for entry in chat] == ["get_weather", "calculator"] and chat[1]["function"]["description"] == "new"
    native = json.loads(offered(json.dumps([{"name": "get_weather"}, {"name": "calculator"}]), [calc], "native"))
    assert native == [{"name": "get_weather"}, {"name": "calculator", "description": "new", "parameters": {"type": "object", "properties": {}}}]
    with pytest.raises(Exception, match="tools box"):
        offered('{"not": "a list"}', [calc], "messages")


@pytest.mark.parametrize("text", ["[1, 2]", "not json", "{" * 40 + "}" * 40, '{"a": "' + "x" * 100_001 + '"}'])
def test_edited_arguments_are_checked_whole(text: str) -> None:
    with pytest.raises(Exception, match="arguments"):
        arguments_of(text)


async def test_hosted_mode_refuses_a_private_mcp_address_in_the_panel(defaults: ServerDefaults, demo_mcp: RunningServer) -> None:
    mcp = McpHandlers(MCPLink(guard=EgressGuard()), defaults, "chat", handlers(defaults))
    state, _picker, _, status, _ = await mcp.connect(demo_mcp.url, "", "", McpState())
    assert "is not used" in status and state.address is None


async def test_the_credential_is_sent_but_never_shown_and_the_servers_own_goes_only_to_its_own_server(misbehaving: RunningMisbehaving) -> None:
    own = ServerDefaults("http://127.0.0.1:9", "sk-unused", demo=True, mcp_url=misbehaving.url, mcp_token="own-mcp-token-5150")
    mcp = McpHandlers(MCPLink(), own, "chat", handlers(own))
    outputs = await mcp.connect(misbehaving.url, "", "", None)
    assert misbehaving.app.headers[-1]["authorization"] == "Bearer own-mcp-token-5150"
    typed = await mcp.connect(misbehaving.url, "visitor-token-8080", "X-Tools-Key", None)
    assert misbehaving.app.headers[-1]["x-tools-key"] == "visitor-token-8080"
    shown = repr(outputs) + repr(typed)
    assert "own-mcp-token-5150" not in shown and "visitor-token-8080" not in shown and "***" in shown
    other = misbehaving.url.replace("127.0.0.1", "localhost")
    await mcp.connect(other, "", "", None)
    assert "authorization" not in misbehaving.app.headers[-1]


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=20)


@settings(max_examples=200, deadline=None)
@given(value=JSON, raw=st.text(max_size=200))
def test_the_panels_readers_refuse_any_input_in_words_and_never_crash(value: Any, raw: str) -> None:
    tool = MCPTool("calculator", "", {"type": "object"})
    for text in (json.dumps(value), raw):
        for reader in (arguments_of, lambda text: offered(text, [tool], "chat"), lambda text: offered(text, [tool], "native")):
            try:
                reader(text)
            except RequestValidationError as error:
                assert error.problems
