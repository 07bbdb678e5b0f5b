"""MCP servers as tools in a text tab: what the MCP panel's events run (`McpPanel` wires them).

Connect lists a server's tools (with their schemas); Offer writes the picked ones into the tab's
tools box in its format's shape (`client.mcp.formats`); when the model calls one of them, the
review shows the call with its arguments to edit, and Approve runs it on the server (Refuse does
not) and sends the result on as the tool result through the conversation's own tool-result
action, so what the chat shows and what the next request sends stay one state. Each MCP
operation's exchanges go to the panel's inspector box; an MCP failure is a banner in the panel
and the chat stays as it was (the call can be approved again, refused or answered by hand).
"""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator
from contextlib import aclosing
from dataclasses import dataclass, field
from typing import Any, cast

import gradio as gr

from playground.client.errors import GatewayError, RequestValidationError
from playground.client.exchange import Exchange
from playground.client.json_depth import deeper_than
from playground.client.mcp.formats import declarations, refused
from playground.client.mcp.session import MCPAddress, MCPLink, MCPTool, ToolOutcome
from playground.client.results import ToolCall
from playground.ui.conversation.handlers import ConversationHandlers
from playground.ui.conversation.turns import Session
from playground.ui.i18n import say
from playground.ui.shared.connection import ServerDefaults, checked_base_url
from playground.ui.shared.codegen import indented_json
from playground.ui.shared.own_addresses import shown_to_reader
from playground.ui.shared.render import error_text, inspector_request, inspector_response

MAX_ARGUMENTS_CHARS = 100_000
MAX_ARGUMENTS_DEPTH = 32
MAX_TOKEN_CHARS = 4_096
EXAMPLE_PROMPT = "What is 17*23 with the calculator?"
Update = tuple[Any, ...]


@dataclass
class McpState:
    """One browser session's MCP server: where it is (credential included, kept on the server)
    and the tools it listed."""

    address: MCPAddress | None = None
    tools: list[MCPTool] = field(default_factory=list)

    def tool(self, name: str) -> MCPTool | None:
        return next((tool for tool in self.tools if tool.name == name), None)


def address_of(defaults: ServerDefaults, url: str, token: str, header: str) -> MCPAddress:
    """The address typed (the server's own MCP server when empty), checked; the server's own
    credential goes only to its own MCP server. Raises `RequestValidationError`."""
    url = (url or "").strip() or defaults.mcp_url
    if not url:
        raise RequestValidationError([say("mcp.no_address")])
    checked_base_url(url)
    token, header = (token or "").strip(), (header or "").strip()
    if len(token) > MAX_TOKEN_CHARS or not token.isascii() or any(ord(c) < 32 or ord(c) == 127 for c in token):
        raise RequestValidationError([say("mcp.token_unusable")])
    if header and (len(header) > 100 or not all(c.isascii() and (c.isalnum() or c == "-") for c in header)):
        raise RequestValidationError([say("mcp.header_unusable")])
    if not token and url == defaults.mcp_url:
        token = defaults.mcp_token or ""
    return MCPAddress(url, token or None, header)


def exchanges_text(exchanges: list[Exchange]) -> str:
    """The MCP exchanges of one operation for the panel's inspector box: first one line per
    exchange (its JSON-RPC method and status), then each request and its answer in full."""
    summary = shown_to_reader(indented_json([_summary(exchange) for exchange in exchanges]))
    return "\n\n".join([summary, *(f"{inspector_request(exchange)}\n{inspector_response(exchange)}" for exchange in exchanges)])


def _summary(exchange: Exchange) -> dict[str, Any]:
    body = exchange.request_body if isinstance(exchange.request_body, dict) else {}
    params = body.get("params") if isinstance(body.get("params"), dict) else {}
    method = " ".join(str(part) for part in (body.get("method"), params.get("name")) if part)
    return {"mcp": method or exchange.method, "status": exchange.status, "error": exchange.error}


def schemas_text(tools: list[MCPTool]) -> str:
    return indented_json({tool.name: {"description": tool.description, "input_schema": tool.input_schema} for tool in tools})


def arguments_of(text: str) -> dict[str, Any]:
    """The arguments the person approved, checked whole: a JSON object, bounded. Raises `RequestValidationError`."""
    text = (text or "").strip() or "{}"
    if len(text) > MAX_ARGUMENTS_CHARS or deeper_than(text, MAX_ARGUMENTS_DEPTH):
        raise RequestValidationError([say("mcp.arguments_too_big", chars=MAX_ARGUMENTS_CHARS, depth=MAX_ARGUMENTS_DEPTH)])
    try:
        value = json.loads(text)
    except ValueError as error:
        raise RequestValidationError([say("mcp.arguments_not_json", error=str(error))]) from None
    if not isinstance(value, dict):
        raise RequestValidationError([say("mcp.arguments_not_object")])
    return value


def tools_in_box(tools_text: str) -> list[dict[str, Any]]:
    """The tab's tools box as its list of tool objects (empty for an empty box). Raises
    `RequestValidationError` when it holds something else."""
    text = (tools_text or "").strip()
    try:
        current = json.loads(text) if text else []
    except ValueError:
        raise RequestValidationError([say("mcp.tools_box_not_json")]) from None
    if not isinstance(current, list) or not all(isinstance(item, dict) for item in current):
        raise RequestValidationError([say("mcp.tools_box_not_json")])
    return current


def offered(tools_text: str, chosen: list[MCPTool], format: str) -> str:
    """The tab's tools box with `chosen` written in (a tool of the same name replaced, the rest kept).
    Raises `RequestValidationError` when the box holds something that is not a list of tools."""
    current = tools_in_box(tools_text)
    names = {tool.name for tool in chosen}
    new = declarations(chosen, format)
    if format == "native":  # the Native tab's box lists the declarations themselves (it wraps them in functionDeclarations)
        new = new[0]["functionDeclarations"] if new else []
    kept = [item for item in current if _declared_name(item) not in names]
    return json.dumps(kept + new, indent=2, ensure_ascii=False)


def _declared_name(item: dict[str, Any]) -> Any:
    function = item.get("function")
    return function.get("name") if isinstance(function, dict) else item.get("name")


def review_outputs(session: Session | None, state: McpState | None) -> Update:
    """The review (visible, its words, the arguments to edit) for the model's first unanswered call
    when it is a call of one of the MCP server's tools; hidden otherwise."""
    call = session.pending[0] if session is not None and session.pending else None
    if call is None or state is None or state.tool(call.name) is None:
        return gr.update(visible=False), "", gr.skip()
    return gr.update(visible=True), say("mcp.call_for", name=call.name), _pretty(call.arguments)


def _pretty(arguments: str) -> str:
    try:
        return json.dumps(json.loads(arguments or "{}"), indent=2, ensure_ascii=False)
    except ValueError:
        return arguments or "{}"


@dataclass(frozen=True)
class McpHandlers:
    """The MCP panel's handlers for one tab: its format, the process's MCP link, the server's
    defaults, and the conversation's handlers (whose tool-result action sends each result on)."""

    link: MCPLink
    defaults: ServerDefaults
    format: str
    conversation: ConversationHandlers

    async def connect(self, url: str, token: str, header: str, state: McpState | None) -> Update:
        """Connect: (state, tool picker, schemas, status, MCP exchanges)."""
        state = state or McpState()
        try:
            address = address_of(self.defaults, url, token, header)
            listing = await self.link.list_tools(address, quota=self.defaults.quotas.for_current_session())
        except GatewayError as error:
            return state, gr.skip(), gr.skip(), error_text(error), exchanges_text(getattr(error, "exchanges", []))
        state.address, state.tools = address, listing.tools
        names = [tool.name for tool in listing.tools]
        status = say("mcp.connected", count=len(names), server=listing.server or address.url)
        return state, gr.update(choices=names, value=names), schemas_text(listing.tools), status, exchanges_text(listing.exchanges)

    def offer(self, picked: list[str] | None, state: McpState | None, tools_text: str) -> Update:
        """Offer: (the tab's tools box, status)."""
        if state is None or state.address is None:
            return gr.skip(), say("mcp.connect_first")
        chosen = [tool for tool in state.tools if tool.name in (picked or [])]
        if not chosen:
            return gr.skip(), say("mcp.pick_first")
        try:
            return offered(tools_text, chosen, self.format), say("mcp.offered", names=", ".join(tool.name for tool in chosen))
        except GatewayError as error:
            return gr.skip(), error_text(error)

    async def example(self, url: str, token: str, header: str, state: McpState | None, tools_text: str) -> Update:
        """The example: connect, offer every tool and put a question that uses one in the message
        box: (state, picker, schemas, status, exchanges, tools box, message box)."""
        connected = await self.connect(url, token, header, state)
        state = connected[0]
        if state.address is None:
            return (*connected, gr.skip(), gr.skip())
        tools_box, status = self.offer([tool.name for tool in state.tools], state, tools_text)
        return (*connected[:3], f"{connected[3]} {status}", connected[4], tools_box, {"text": EXAMPLE_PROMPT, "files": []})

    def review(self, session: Session | None, state: McpState | None) -> Update:
        """After each turn: (review group, review words, arguments box)."""
        return review_outputs(session, state)

    async def approve(self, arguments: str, state: McpState | None, session: Session, *values: Any) -> AsyncGenerator[Update, None]:
        """Approve: the model's first unanswered call run on the MCP server with the arguments as
        edited, its result sent on as the tool result and the model's reply streamed."""
        call = self._reviewed(session, state)
        if call is None or state is None or state.address is None:
            yield self._mcp_only(say("mcp.no_call"))
            return
        try:
            outcome = await self.link.call_tool(state.address, call.name, arguments_of(arguments), quota=self.defaults.quotas.for_current_session())
        except GatewayError as error:
            yield self._mcp_only(error_text(error), exchanges_text(getattr(error, "exchanges", [])))
            return
        status = say("mcp.tool_failed" if outcome.is_error else "mcp.tool_answered", name=call.name)
        async with aclosing(self._answer(outcome, session, values, status, exchanges_text(outcome.exchanges), state)) as updates:
            async for update in updates:
                yield update

    async def refuse(self, state: McpState | None, session: Session, *values: Any) -> AsyncGenerator[Update, None]:
        """Refuse: the call is not run; the model is told so (as an error result) and replies."""
        call = self._reviewed(session, state)
        if call is None or state is None:
            yield self._mcp_only(say("mcp.no_call"))
            return
        async with aclosing(self._answer(refused(call.name), session, values, say("mcp.refused", name=call.name), gr.skip(), state)) as updates:
            async for update in updates:
                yield update

    def _reviewed(self, session: Session | None, state: McpState | None) -> ToolCall | None:
        call = session.pending[0] if session is not None and session.pending else None
        return call if call is not None and state is not None and state.tool(call.name) is not None else None

    def _mcp_only(self, status: str, exchanges: Any = None) -> Update:
        """An update that leaves the chat alone and writes the panel's status (and exchanges)."""
        return (*(gr.skip(),) * (1 + self.conversation.width), gr.skip(), gr.skip(), gr.skip(), status,
                exchanges if exchanges is not None else gr.skip())

    async def _answer(self, outcome: ToolOutcome, session: Session, values: tuple[Any, ...], status: str, exchanges: Any,
                      state: McpState) -> AsyncGenerator[Update, None]:
        hidden = (gr.update(visible=False), "", gr.skip(), status, exchanges)
        first = True
        answering = cast(AsyncGenerator[Update, None], self.conversation.tool_result(outcome.text, session, *values))
        async with aclosing(answering) as updates:
            async for update in updates:
                yield (*update, *(hidden if first else (gr.skip(),) * 5))
                first = False
        yield (*(gr.skip(),) * (1 + self.conversation.width), *review_outputs(session, state), gr.skip(), gr.skip())
