"""What goes wrong talking to an MCP server, as errors a person can act on.

    GatewayError
    └── MCPServerError                anything wrong between us and an MCP server
        ├── MCPUnreachableError       nothing answered: refused, DNS, TLS, an HTTP error status
        ├── MCPTimeoutError           the server did not answer within the call's time
        ├── MCPClosedError            the connection closed before the answer was complete
        ├── MCPProtocolError          an answer that is not MCP (not JSON-RPC, wrong shape, an error)
        └── MCPTooLargeError          an answer over the size limit (not read further)

A tool that runs and fails is not an error here: its result comes back with `is_error` set.
"""

from __future__ import annotations

from typing import Any

from playground.client.errors import GatewayError
from playground.client.texts import Text


class MCPServerError(GatewayError):
    title = Text("mcp.error_title")
    hint = Text("mcp.error_hint")
    exchanges: list[Any]

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.exchanges = []
        """The HTTP exchanges with the MCP server so far (`wire.Recorder`), for the inspector."""


class MCPUnreachableError(MCPServerError):
    title = Text("mcp.unreachable_title")
    hint = Text("mcp.unreachable_hint")


class MCPTimeoutError(MCPServerError):
    title = Text("mcp.timeout_title")
    hint = Text("mcp.timeout_hint")


class MCPClosedError(MCPServerError):
    title = Text("mcp.closed_title")
    hint = Text("mcp.closed_hint")


class MCPProtocolError(MCPServerError):
    title = Text("mcp.protocol_title")
    hint = Text("mcp.protocol_hint")


class MCPTooLargeError(MCPServerError):
    title = Text("mcp.too_large_title")
    hint = Text("mcp.too_large_hint")
