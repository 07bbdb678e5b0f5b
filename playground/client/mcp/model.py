"""What the client knows of an MCP server without the SDK: its address (with the credential,
never shown), a tool as listed, a listing and a tool's outcome."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from playground.client.exchange import Exchange

EMPTY_RESULT = "(the tool returned no content)"


@dataclass(frozen=True)
class MCPAddress:
    """Where the MCP server is and how to show who we are: `credential` goes as a bearer token, or
    as the value of `header` when one is named. It is treated like the gateway key: never shown."""

    url: str
    credential: str | None = field(default=None, repr=False)
    header: str = ""

    def headers(self) -> dict[str, str]:
        if not self.credential:
            return {}
        if self.header.strip():
            return {self.header.strip(): self.credential}
        return {"Authorization": f"Bearer {self.credential}"}


@dataclass(frozen=True)
class MCPTool:
    """A tool as the server lists it: its name, what it does and the JSON Schema of its arguments."""

    name: str
    description: str
    input_schema: dict[str, Any]


@dataclass
class ToolListing:
    tools: list[MCPTool]
    exchanges: list[Exchange]
    server: str = ""


@dataclass
class ToolOutcome:
    """What a tool answered: its text for the model (`is_error` when the tool failed), its
    structured value when it sent one, and the exchanges of the call."""

    text: str
    is_error: bool
    structured: Any = None
    exchanges: list[Exchange] = field(default_factory=list)



def shown_url(url: str) -> str:
    """The address without any user:password part."""
    parts = urlsplit(url)
    if parts.username or parts.password:
        return parts._replace(netloc=parts.hostname or "").geturl()
    return url
