"""The demo MCP server: its tools registered on the SDK's `MCPServer`, its streamable-HTTP app, and a
thread to serve it in."""

from __future__ import annotations

import socket
import threading
import time
from dataclasses import dataclass
from typing import Annotated, Any

import uvicorn

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, InputRequiredResult
from pydantic import Field, ValidationError
from starlette.applications import Starlette

from playground.demo_mcp import tools

PATH = "/mcp"


def calculator(expression: Annotated[str, Field(description="An arithmetic expression, e.g. 17 * 23 or sqrt(2) + 1")]) -> dict[str, Any]:
    """Work out an arithmetic expression: numbers, + - * / // % **, brackets, sqrt(), abs(), round()."""
    return tools.calculate(expression)


def convert_units(value: Annotated[float, Field(description="The quantity to convert")],
                  from_unit: Annotated[str, Field(description="Its unit, e.g. km, mi, kg, lb, l, gal, C, F")],
                  to_unit: Annotated[str, Field(description="The unit wanted, of the same kind")]) -> dict[str, Any]:
    """Convert a quantity between units of length, mass, volume, time or temperature."""
    return tools.convert_units(value, from_unit, to_unit)


def lookup_element(query: Annotated[str, Field(description="An element's name, symbol or atomic number, e.g. oxygen, Na, 6")]) -> dict[str, Any]:
    """Look up one of the first twelve chemical elements: its symbol, atomic number, mass and group."""
    return tools.lookup_element(query)


class DemoServer(MCPServer):
    """`MCPServer` whose argument errors are sentences: which argument, what was wrong."""

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None) -> CallToolResult | InputRequiredResult:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as error:
            if isinstance(error.__cause__, ValidationError):
                raise ToolError(argument_problems(name, error.__cause__)) from None
            raise


def argument_problems(tool: str, error: ValidationError) -> str:
    """The tool's argument problems in words (no pydantic codes or links)."""
    problems = []
    for item in error.errors(include_url=False):
        where = ".".join(str(part) for part in item["loc"]) or "the arguments"
        if item["type"] == "missing":
            problems.append(f"'{where}' is missing")
        elif item["type"] == "extra_forbidden":
            problems.append(f"'{where}' is not an argument of this tool")
        else:
            problems.append(f"'{where}' is not usable: {item['msg'][:1].lower()}{item['msg'][1:]}")
    return f"The {tool} tool cannot use these arguments: {'; '.join(problems)}."


def build_server() -> MCPServer:
    """The server with its three tools."""
    server: MCPServer = DemoServer("playground-demo-tools", version="1.0",
                                  instructions="Offline demo tools: a calculator, a unit converter and a table of elements.")
    for tool in (calculator, convert_units, lookup_element):
        server.add_tool(tool, structured_output=False)
    return server


def create_app(host: str = "127.0.0.1") -> Starlette:
    """The ASGI app serving the tools at `/mcp` (stateless: every request stands alone)."""
    return build_server().streamable_http_app(streamable_http_path=PATH, stateless_http=True, host=host)


@dataclass
class RunningServer:
    """The demo MCP server serving in a thread of this process (tests, benchmarks)."""

    url: str
    server: uvicorn.Server
    thread: threading.Thread

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def start_in_thread(host: str = "127.0.0.1", port: int | None = None) -> RunningServer:
    """Start the server in a daemon thread and return once it accepts connections."""
    port = port or free_port(host)
    server = uvicorn.Server(uvicorn.Config(create_app(host), host=host, port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, name="demo-mcp", daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError(f"the demo MCP server did not start on {host}:{port}")
        time.sleep(0.02)
    return RunningServer(f"http://{host}:{port}{PATH}", server, thread)
