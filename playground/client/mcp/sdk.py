"""Everything that touches the MCP SDK: one operation on a connected `Client`, the one error a
person reads for whatever the SDK and the HTTP layer raised, the listed tools checked and a
tool's result as text for the model. Imported by `session` on the first operation."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, TypeVar

import anyio
import httpx2
import mcp_types
from mcp import Client, MCPError
from mcp.client.streamable_http import streamable_http_client
from pydantic import ValidationError

from playground.client.egress import BlockedAddressError, EgressGuard
from playground.client.exchange import Exchange, Redactor
from playground.client.json_depth import deeper_than
from playground.client.mcp.errors import (
    MCPClosedError,
    MCPProtocolError,
    MCPServerError,
    MCPTimeoutError,
    MCPTooLargeError,
    MCPUnreachableError,
)
from playground.client.mcp.model import EMPTY_RESULT, MCPAddress, MCPTool, ToolListing, ToolOutcome, shown_url
from playground.client.mcp.wire import AnswerTooLarge, Recorder, http_client
from playground.client.texts import Text



class MCPLink(Protocol):
    """What an operation reads of `session.MCPLink`."""

    guard: EgressGuard | None
    connect_timeout: float
    max_answer_bytes: int

T = TypeVar("T")
MAX_TOOLS = 64
MAX_SCHEMA_DEPTH = 32
MAX_RESULT_CHARS = 200_000
"""A tool's result as it goes back to the model, at most (the answer itself is at most 1 MB)."""
EXCERPT_CHARS = 300
CLIENT_INFO = mcp_types.Implementation(name="gateway-playground", version="1")


async def list_tools(link: MCPLink, address: MCPAddress, seconds: float) -> ToolListing:
    """The server's tools, each checked (`checked_tools`)."""
    recorder = _recorder(address)

    async def work(client: Client) -> ToolListing:
        listed = await client.list_tools()
        name = client.server_info.name if client.server_info else ""
        return ToolListing(checked_tools(listed.tools), recorder.exchanges, name)

    return await operate(link, address.url.strip(), address, recorder, work, seconds)


async def call_tool(link: MCPLink, address: MCPAddress, name: str, arguments: dict[str, Any], seconds: float) -> ToolOutcome:
    """One call of a tool: its result as text for the model (`outcome_of`)."""
    recorder = _recorder(address)

    async def work(client: Client) -> ToolOutcome:
        result = await client.call_tool(name, arguments, read_timeout_seconds=seconds)
        outcome = outcome_of(result)
        outcome.exchanges = recorder.exchanges
        return outcome

    return await operate(link, address.url.strip(), address, recorder, work, seconds)


def _recorder(address: MCPAddress) -> Recorder:
    return Recorder(Redactor([address.credential]), frozenset(name.lower() for name in address.headers()))


async def operate(link: MCPLink, url: str, address: MCPAddress, recorder: Recorder, work: Callable[[Client], Awaitable[T]], seconds: float) -> T:
    """Run `work` on a connected SDK `Client` under `link`'s deadline and limits; any failure becomes one `MCPServerError`."""
    try:
        with anyio.fail_after(seconds + link.connect_timeout):
            async with http_client(recorder, link.guard, address.headers(), link.connect_timeout, seconds, link.max_answer_bytes) as http:
                transport = streamable_http_client(url, http_client=http, max_sse_event_size=link.max_answer_bytes)
                async with Client(transport, cache=None, read_timeout_seconds=seconds, client_info=CLIENT_INFO) as client:
                    return await work(client)
    except MCPServerError as error:
        error.exchanges = recorder.exchanges
        raise
    except Exception as error:
        failure = classify(error, url, seconds, recorder.exchanges[-1] if recorder.exchanges else None)
        failure.exchanges = recorder.exchanges
        if failure.exchanges:
            failure.exchange = failure.exchanges[-1]
            failure.exchange.finish(failure.message)
        raise failure from None


def _excerpt(text: str) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= EXCERPT_CHARS else text[:EXCERPT_CHARS] + "…"


def _leaves(error: BaseException) -> list[BaseException]:
    if isinstance(error, BaseExceptionGroup):
        return [leaf for inner in error.exceptions for leaf in _leaves(inner)]
    found = [error]
    cause = error.__cause__ or error.__context__
    if cause is not None and cause is not error and not isinstance(error, MCPError):
        found.extend(_leaves(cause))
    return found


def classify(error: BaseException, url: str, seconds: float, last: Exchange | None = None) -> MCPServerError:
    """The one error a person reads for whatever the SDK and the HTTP layer raised (`last`: the
    last HTTP exchange, whose status and body tell a server's own error from one the SDK made up)."""
    leaves = _leaves(error)
    for leaf in leaves:
        if isinstance(leaf, MCPServerError):
            return leaf
        if isinstance(leaf, AnswerTooLarge):
            return MCPTooLargeError(Text("mcp.answer_too_large", limit=leaf.limit))
        if isinstance(leaf, BlockedAddressError):
            return MCPUnreachableError(Text("mcp.address_refused", url=shown_url(url), reason=leaf.message))
    for leaf in leaves:
        if isinstance(leaf, TimeoutError | httpx2.TimeoutException) or (isinstance(leaf, MCPError) and leaf.error.code == mcp_types.REQUEST_TIMEOUT):
            return MCPTimeoutError(Text("mcp.no_answer_within", seconds=seconds))
        if isinstance(leaf, httpx2.ConnectError):
            return MCPUnreachableError(Text("mcp.could_not_connect", url=shown_url(url)))
        if isinstance(leaf, httpx2.HTTPStatusError):
            return MCPUnreachableError(Text("mcp.http_status", url=shown_url(url), status=leaf.response.status_code))
    for leaf in leaves:
        if isinstance(leaf, httpx2.RemoteProtocolError | httpx2.ReadError | anyio.ClosedResourceError | anyio.EndOfStream | anyio.BrokenResourceError):
            return MCPClosedError(Text("mcp.closed_mid_answer"))
        if isinstance(leaf, MCPError) and leaf.error.code == mcp_types.CONNECTION_CLOSED:
            return MCPClosedError(Text("mcp.closed_mid_answer"))
        if isinstance(leaf, MCPError):
            return _answered_error(leaf, url, last)
        if isinstance(leaf, ValidationError | ValueError):
            return MCPProtocolError(Text("mcp.not_mcp", detail=_excerpt(type(leaf).__name__)))
    return MCPProtocolError(Text("mcp.not_mcp", detail=type(leaves[-1]).__name__))


def _answered_error(error: MCPError, url: str, last: Exchange | None) -> MCPServerError:
    """An error response: the server's own (a JSON-RPC error object arrived), an HTTP error
    status, or an answer the SDK could not read."""
    if last is not None and last.status is not None and last.status >= 400:
        return MCPUnreachableError(Text("mcp.http_status", url=shown_url(url), status=last.status))
    body = last.response_body if last is not None else None
    sent_error = isinstance(body, dict) and isinstance(body.get("error"), dict)
    if not sent_error and last is not None and last.events:
        sent_error = any('"error"' in event.data for event in last.events)
    if sent_error:
        return MCPProtocolError(Text("mcp.server_error", code=error.error.code, message=_excerpt(error.error.message)))
    detail = Text("mcp.detail_not_json") if error.error.code == mcp_types.PARSE_ERROR else type(error).__name__
    return MCPProtocolError(Text("mcp.not_mcp", detail=detail))


def checked_tools(listed: list[mcp_types.Tool]) -> list[MCPTool]:
    """The listed tools, or `MCPProtocolError`: too many, a name the formats cannot carry, an
    argument schema that is not an object schema or nests too deep."""
    if len(listed) > MAX_TOOLS:
        raise MCPProtocolError(Text("mcp.too_many_tools", count=len(listed), limit=MAX_TOOLS))
    tools = []
    for tool in listed:
        schema = tool.input_schema if isinstance(tool.input_schema, dict) else {}
        if not _usable_name(tool.name):
            raise MCPProtocolError(Text("mcp.tool_name_unusable", name=_excerpt(tool.name)[:80]))
        if schema.get("type") != "object" or deeper_than(json.dumps(schema), MAX_SCHEMA_DEPTH):
            raise MCPProtocolError(Text("mcp.tool_schema_unusable", name=tool.name, depth=MAX_SCHEMA_DEPTH))
        tools.append(MCPTool(tool.name, (tool.description or "")[:2000], schema))
    return tools


def _usable_name(name: str) -> bool:
    """A name every format accepts: 1-64 letters, digits, `_` or `-`."""
    return 0 < len(name) <= 64 and all(c.isascii() and (c.isalnum() or c in "_-") for c in name)


def outcome_of(result: mcp_types.CallToolResult) -> ToolOutcome:
    """A tool's result as text for the model: its text blocks in order, other blocks named
    (an image, a resource), the structured value when no text came with it."""
    parts: list[str] = []
    for block in result.content:
        if isinstance(block, mcp_types.TextContent):
            parts.append(block.text)
        elif isinstance(block, mcp_types.ImageContent | mcp_types.AudioContent):
            parts.append(f"[{block.type}: {block.mime_type}, {len(block.data) * 3 // 4:,} bytes, not sent to the model]")
        elif isinstance(block, mcp_types.ResourceLink):
            parts.append(f"[resource link: {block.uri}]")
        elif isinstance(block, mcp_types.EmbeddedResource):
            resource = block.resource
            parts.append(resource.text if isinstance(resource, mcp_types.TextResourceContents) else f"[resource: {resource.uri}]")
    structured = result.structured_content
    if not parts and structured is not None:
        parts.append(json.dumps(structured, ensure_ascii=False))
    text = "\n".join(parts) or EMPTY_RESULT
    if len(text) > MAX_RESULT_CHARS:
        raise MCPTooLargeError(Text("mcp.result_too_long", chars=len(text), limit=MAX_RESULT_CHARS))
    return ToolOutcome(text, bool(result.is_error), structured)
