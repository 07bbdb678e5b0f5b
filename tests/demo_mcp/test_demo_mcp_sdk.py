"""The demo MCP server through the official SDK's client, over a real socket: list, call, tool errors in words."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator

import pytest
from mcp import Client
from mcp_types import TextContent

from playground.demo_mcp.server import RunningServer, free_port, start_in_thread


@pytest.fixture(scope="module")
def server() -> Iterator[RunningServer]:
    running = start_in_thread()
    yield running
    running.stop()


def _text(result: object) -> str:
    content = result.content  # type: ignore[attr-defined]
    assert len(content) == 1 and isinstance(content[0], TextContent)
    return str(content[0].text)


async def test_lists_three_tools_with_schemas(server: RunningServer) -> None:
    async with Client(server.url) as client:
        listed = await client.list_tools()
    tools = {tool.name: tool for tool in listed.tools}
    assert set(tools) == {"calculator", "convert_units", "lookup_element"}
    assert tools["calculator"].input_schema["required"] == ["expression"]
    assert tools["convert_units"].input_schema["properties"]["value"]["type"] == "number"
    assert all(tool.description for tool in tools.values())


async def test_calls_each_tool(server: RunningServer) -> None:
    async with Client(server.url) as client:
        product = await client.call_tool("calculator", {"expression": "17 * 23"})
        miles = await client.call_tool("convert_units", {"value": 10, "from_unit": "km", "to_unit": "mi"})
        sodium = await client.call_tool("lookup_element", {"query": "Na"})
        carbon = await client.call_tool("lookup_element", {"query": "Look up the element carbon, please"})
    assert not product.is_error and json.loads(_text(product))["result"] == 391
    assert json.loads(_text(miles))["result"] == pytest.approx(6.213712)
    assert json.loads(_text(sodium))["name"] == "sodium"
    assert json.loads(_text(carbon))["number"] == 6


@pytest.mark.parametrize(("tool", "arguments", "words"), [
    ("calculator", {"expression": "__import__('os')"}, "is not something this calculator knows"),
    ("calculator", {"expression": "1 / 0"}, "divides by zero"),
    ("calculator", {"expression": "9 ** 999999"}, "exponent 999999 is too large"),
    ("convert_units", {"value": 5, "from_unit": "km", "to_unit": "kg"}, "they measure different things"),
    ("convert_units", {"value": "five", "from_unit": "km", "to_unit": "mi"}, "'value' is not usable"),
    ("convert_units", {"value": 5, "from_unit": "km"}, "'to_unit' is missing"),
    ("lookup_element", {"query": "unobtainium"}, "is not in this table"),
])
async def test_unusable_arguments_answer_a_tool_error_in_words(server: RunningServer, tool: str, arguments: dict[str, object], words: str) -> None:
    async with Client(server.url) as client:
        result = await client.call_tool(tool, arguments)
    text = _text(result)
    assert result.is_error
    assert words in text
    assert "pydantic" not in text and "type=" not in text


def test_runs_on_its_own_as_a_module() -> None:
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "playground.demo_mcp", "--port", str(port)])
    try:
        import asyncio

        async def call_when_up() -> str:
            for _ in range(300):
                try:
                    async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                        return _text(await client.call_tool("calculator", {"expression": "2 + 2"}))
                except Exception:
                    if process.poll() is not None:
                        raise
                    await asyncio.sleep(0.1)
            raise AssertionError("the server did not answer")

        assert json.loads(asyncio.run(call_when_up()))["result"] == 4
    finally:
        process.terminate()
        process.wait(10)
