"""An MCP tool offered in each text format and its result sent back in that format's shape: the
declarations pass each format's request model, and against the demo gateway (which calls the tool)
and the demo MCP server (which runs it) the model's answer reads out the tool's result."""

from __future__ import annotations

import json
from typing import Any

import pytest

from playground.client.chat import ChatRequest
from playground.client.gateway import GatewayClient
from playground.client.mcp.formats import FORMATS, declarations, native_response, refused, tool_result
from playground.client.mcp.session import MCPAddress, MCPLink, MCPTool, ToolOutcome
from playground.client.messages import MessagesRequest
from playground.client.native import NativeRequest
from playground.client.responses import ResponsesRequest
from playground.client.transport import Connection
from playground.demo_mcp.server import RunningServer

PROMPT = "What is 17*23 with the calculator?"
MODELS = {"chat": "gpt-4o-mini", "responses": "gpt-4.1", "messages": "cl-sonnet-4-5-20250929", "native": "gx-2.5-flash"}


def request(format: str, turns: list[Any], tools: list[dict[str, Any]]) -> Any:
    model = MODELS[format]
    if format == "chat":
        return ChatRequest.build(model=model, messages=turns, tools=tools)
    if format == "responses":
        return ResponsesRequest.build(model=model, input=turns, tools=tools)
    if format == "messages":
        return MessagesRequest.build(model=model, messages=turns, tools=tools, max_tokens=512)
    return NativeRequest.build(model=model, contents=turns, tools=tools)


def first_turn(format: str) -> list[Any]:
    if format == "native":
        return [{"role": "user", "parts": [{"text": PROMPT}]}]
    return [{"role": "user", "content": PROMPT}]


def answered(format: str, turns: list[Any], result: Any, block: dict[str, Any]) -> list[Any]:
    """The turns after the model's tool call and the tool's result, as each format carries them."""
    call = result.tool_calls[0]
    if format == "chat":
        assistant = {"role": "assistant", "content": None, "tool_calls": [{"id": call.id, "type": "function", "function": {"name": call.name, "arguments": call.arguments}}]}
        return [*turns, assistant, block]
    if format == "responses":
        return [*turns, *result.turn_items, block]
    if format == "messages":
        return [*turns, {"role": "assistant", "content": result.turn_items}, {"role": "user", "content": [block]}]
    return [*turns, result.turn_items[0], {"role": "user", "parts": [block]}]


async def api_create(client: GatewayClient, conn: Connection, format: str, body: Any) -> Any:
    api = {"chat": client.chat, "responses": client.responses, "messages": client.messages, "native": client.native}[format]
    return (await api.create(conn, body))[0]


@pytest.mark.parametrize("format", FORMATS)
async def test_the_demo_calls_the_mcp_tool_and_answers_with_its_result(client: GatewayClient, conn: Connection, demo_mcp: RunningServer, format: str) -> None:
    address = MCPAddress(demo_mcp.url)
    link = MCPLink()
    tools = declarations((await link.list_tools(address)).tools, format)
    turns = first_turn(format)
    first = await api_create(client, conn, format, request(format, turns, tools))
    call = first.tool_calls[0]
    assert call.name == "calculator" and json.loads(call.arguments) == {"expression": "17*23"}
    outcome = await link.call_tool(address, call.name, json.loads(call.arguments))
    block = tool_result(format, call.id, call.name, outcome)
    second = await api_create(client, conn, format, request(format, answered(format, turns, first, block), tools))
    assert "391" in second.text


def test_each_format_declares_the_tool_in_its_own_shape() -> None:
    tool = MCPTool("convert_units", "Convert units", {"type": "object", "title": "Args", "properties": {"value": {"type": "number", "title": "Value"}},
                                                     "required": ["value"], "additionalProperties": False})
    chat, = declarations([tool], "chat")
    assert chat == {"type": "function", "function": {"name": "convert_units", "description": "Convert units", "parameters": tool.input_schema}}
    messages, = declarations([tool], "messages")
    assert messages == {"name": "convert_units", "description": "Convert units", "input_schema": tool.input_schema}
    native, = declarations([tool], "native")
    assert native == {"functionDeclarations": [{"name": "convert_units", "description": "Convert units",
                                                "parameters": {"type": "object", "properties": {"value": {"type": "number"}}, "required": ["value"]}}]}
    assert declarations([], "native") == []


def test_each_format_answers_the_call_in_its_own_shape() -> None:
    good = ToolOutcome('{"result": 391}', is_error=False)
    failed = ToolOutcome("Cannot convert km to kg.", is_error=True)
    assert tool_result("chat", "call_1", "calculator", good) == {"role": "tool", "tool_call_id": "call_1", "name": "calculator", "content": '{"result": 391}'}
    assert tool_result("responses", "call_1", "calculator", good) == {"type": "function_call_output", "call_id": "call_1", "output": '{"result": 391}'}
    assert tool_result("messages", "toolu_1", "calculator", good) == {"type": "tool_result", "tool_use_id": "toolu_1", "content": '{"result": 391}'}
    assert tool_result("messages", "toolu_1", "convert_units", failed)["is_error"] is True
    assert tool_result("native", "", "calculator", good) == {"functionResponse": {"name": "calculator", "response": {"result": 391}}}
    assert native_response(failed) == {"error": "Cannot convert km to kg."}
    assert native_response(ToolOutcome("plain words", False)) == {"result": "plain words"}
    assert native_response(ToolOutcome("[1, 2]", False)) == {"result": [1, 2]}
    no = refused("calculator")
    assert no.is_error and "refused" in no.text
