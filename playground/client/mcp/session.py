"""One operation on a streamable-HTTP MCP server: list its tools, or call one. Each opens its own
connection (the address and credential belong to the visitor's session, never to the process), is
checked by hosted mode's guard before anything connects, counts against the visitor's quota, runs
under a deadline, and ends in a result or one `MCPServerError` whose words say what happened;
every HTTP exchange is kept for the inspector. The SDK itself (`sdk`) is imported on the first
operation: it takes about 2 s to import, which the app's start does not wait for."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, nullcontext
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from playground.client.egress import EgressGuard, host_problem
from playground.client.limits import SessionQuota
from playground.client.mcp.errors import MCPUnreachableError
from playground.client.mcp.model import MCPAddress, MCPTool, ToolListing, ToolOutcome, shown_url
from playground.client.mcp.wire import MAX_ANSWER_BYTES
from playground.client.texts import Text

__all__ = ["MCPAddress", "MCPLink", "MCPTool", "ToolListing", "ToolOutcome"]


@dataclass
class MCPLink:
    """How this process talks to MCP servers: the guard (hosted mode), the timeouts and the
    answer limit. Shared by every session; the address comes with each call."""

    guard: EgressGuard | None = None
    connect_timeout: float = 5.0
    list_timeout: float = 15.0
    call_timeout: float = 30.0
    max_answer_bytes: int = MAX_ANSWER_BYTES

    async def list_tools(self, address: MCPAddress, quota: SessionQuota | None = None) -> ToolListing:
        """The server's tools (at most `sdk.MAX_TOOLS`), each checked; with `quota` (hosted mode) it
        counts as one of the visitor's calls."""
        async with self._admitted(address, quota) as sdk:
            return await sdk.list_tools(self, address, self.list_timeout)

    async def call_tool(self, address: MCPAddress, name: str, arguments: dict[str, Any], timeout: float | None = None,
                        quota: SessionQuota | None = None) -> ToolOutcome:
        """Call `name` with `arguments`; a tool that fails comes back as a result with `is_error`."""
        async with self._admitted(address, quota) as sdk:
            return await sdk.call_tool(self, address, name, arguments, timeout or self.call_timeout)

    @asynccontextmanager
    async def _admitted(self, address: MCPAddress, quota: SessionQuota | None) -> AsyncIterator[ModuleType]:
        """The SDK module, once the address passed the guard (nothing connected before) and while
        the call holds one of the visitor's slots (a limit reached: its own `LimitError`)."""
        url = address.url.strip()
        problem = await host_problem(url, self.guard)
        if problem is not None:
            raise MCPUnreachableError(Text("mcp.address_refused", url=shown_url(url), reason=problem))
        from playground.client.mcp import sdk  # imported on first use (see the module's docstring)

        async with quota.call("POST") if quota is not None else nullcontext():
            yield sdk
