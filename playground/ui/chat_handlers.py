"""Chat tab behaviour as plain async functions: send, tool results, retry, clear.

Each yields `ChatView`s (what the tab shows); the layout in `chat_tab` maps them to components.
Nothing here imports gradio, so tests drive it directly.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from playground.client.chat import ChatRequest
from playground.client.errors import GatewayError, RequestValidationError
from playground.client.gateway import GatewayClient
from playground.client.media import image_data_url
from playground.client.results import TextResult, ToolCall
from playground.client.transport import Exchange
from playground.ui.connection import ServerDefaults, resolve_connection
from playground.ui.forms import Throttle, optional_positive, parse_json_field
from playground.ui.render import error_text, metrics_text, pretty_arguments, result_messages

logger = logging.getLogger(__name__)
STREAM_UPDATE_INTERVAL = 0.05
EXTENSION_FIELDS = (
    "thinking",
    "enable_thinking",
    "svc_thinking_to_content",
    "parameters",
    "extra_body",
    "generationConfig",
    "web_search_options",
    "search_parameters",
)
TOOL_CHOICES = ("auto", "none", "required")


@dataclass
class ChatSession:
    """The conversation as sent to the gateway (no system message), plus unanswered tool calls."""

    messages: list[dict[str, Any]] = field(default_factory=list)
    pending: list[ToolCall] = field(default_factory=list)


@dataclass
class ChatForm:
    model: str
    system: str = ""
    stream: bool = True
    temperature: float | None = None
    top_p: float | None = None
    max_tokens: float | None = None
    tool_choice: str = "auto"
    tools_json: str = ""
    schema_json: str = ""
    extensions_json: str = ""
    reasoning_effort: str = ""

    def request(self, messages: list[dict[str, Any]]) -> ChatRequest:
        problems: list[str] = []
        tools = parse_json_field("Tools", self.tools_json, list, problems)
        schema = parse_json_field("Response schema", self.schema_json, dict, problems)
        extensions = parse_json_field("Extension fields", self.extensions_json, dict, problems) or {}
        unknown = sorted(set(extensions) - set(EXTENSION_FIELDS))
        if unknown:
            problems.append(f"Extension fields: unknown field(s) {', '.join(unknown)}; allowed: {', '.join(EXTENSION_FIELDS)}")
        if problems:
            raise RequestValidationError(problems)
        choice = (self.tool_choice or "").strip()
        tool_choice: Any = None
        if tools and choice:
            tool_choice = choice if choice in TOOL_CHOICES else {"type": "function", "function": {"name": choice}}
        response_format = None
        if schema is not None:
            json_schema = schema if {"name", "schema"} <= set(schema) else {"name": "response", "schema": schema}
            response_format = {"type": "json_schema", "json_schema": json_schema}
        system = [{"role": "system", "content": self.system}] if self.system.strip() else []
        return ChatRequest.build(
            model=self.model,
            messages=system + messages,
            stream=self.stream,
            temperature=self.temperature,
            top_p=self.top_p,
            max_tokens=optional_positive(self.max_tokens),
            tools=tools or None,
            tool_choice=tool_choice,
            response_format=response_format,
            reasoning_effort=self.reasoning_effort or None,
            **{name: extensions[name] for name in EXTENSION_FIELDS if name in extensions},
        )


@dataclass
class ChatView:
    """One screenful: `exchange` is set only when the turn ended (the inspector updates then)."""

    history: list[dict[str, Any]]
    session: ChatSession
    error: str = ""
    notice: str = ""
    metrics: str = ""
    exchange: Exchange | None = None
    clear_draft: bool = False
    done: bool = False

    @property
    def pending_tool(self) -> ToolCall | None:
        return self.session.pending[0] if self.session.pending else None


def _user_content(draft: dict[str, Any] | str | None) -> tuple[str, list[str], list[str]]:
    """(text, image data URLs, file paths) of the multimodal input."""
    if isinstance(draft, str) or draft is None:
        return (draft or ""), [], []
    text = draft.get("text") or ""
    paths = [f if isinstance(f, str) else f.get("path", "") for f in draft.get("files") or []]
    paths = [p for p in paths if p]
    return text, [image_data_url(p) for p in paths], paths


def _assistant_message(result: TextResult) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": result.text}
    if result.tool_calls:
        message["tool_calls"] = [
            {"id": call.id, "type": "function", "function": {"name": call.name, "arguments": call.arguments}}
            for call in result.tool_calls
        ]
        message["content"] = result.text or None
    return message


async def _run_turn(
    client: GatewayClient, defaults: ServerDefaults, url: str, key: str, form: ChatForm,
    history: list[dict[str, Any]], session: ChatSession,
) -> AsyncIterator[ChatView]:
    """Send `session.messages` and show the reply as it arrives. Never loses what is on screen."""
    result = TextResult()
    exchange: Exchange | None = None
    recorded = False

    def record() -> None:
        nonlocal recorded
        if not recorded and (result.text or result.tool_calls):
            session.messages.append(_assistant_message(result))
            session.pending = [call for call in result.tool_calls if call.id]
        recorded = True

    try:
        conn = resolve_connection(defaults, url, key)
        request = form.request(session.messages)
        notice = " ".join(request.advisories())
        if not request.stream:
            yield ChatView(history, session, notice=notice, metrics="waiting for the gateway…")
            result, exchange = await client.chat.create(conn, request)
        else:
            throttle = Throttle(STREAM_UPDATE_INTERVAL)
            async with client.chat.stream(conn, request) as stream:
                exchange = stream.exchange
                result = stream.result
                async for _event in stream:
                    if throttle.due():
                        yield ChatView(history + result_messages(result, done=False), session, notice=notice)
        record()
        yield ChatView(history + result_messages(result, True), session, notice=notice,
                       metrics=metrics_text(result, exchange), exchange=exchange, done=True)
    except GatewayError as error:
        partial = getattr(error, "partial", None)
        if isinstance(partial, TextResult):
            result = partial
        record()
        shown = history + (result_messages(result, True) if (result.text or result.reasoning or result.tool_calls) else [])
        yield ChatView(shown, session, error=error_text(error), metrics=metrics_text(result, exchange) if exchange else "",
                       exchange=exchange, done=True)
    except (asyncio.CancelledError, GeneratorExit):
        record()
        raise
    except Exception as error:  # a bug must not cost the user the conversation
        logger.exception("chat turn failed")
        record()
        yield ChatView(history + result_messages(result, True), session, error=error_text(error), exchange=exchange, done=True)


async def send_message(
    client: GatewayClient, defaults: ServerDefaults, draft: dict[str, Any] | str | None,
    history: list[dict[str, Any]] | None, session: ChatSession | None, url: str, key: str, form: ChatForm,
) -> AsyncIterator[ChatView]:
    """Append the user's message (text and images) and stream the reply."""
    history = list(history or [])
    session = session or ChatSession()
    try:
        text, images, paths = _user_content(draft)
        if not text.strip() and not images:
            raise RequestValidationError(["type a message (or attach an image) first"])
        if session.pending:
            raise RequestValidationError([f"the model is waiting for the result of tool call {session.pending[0].name}; send it below or press Clear"])
        form.request(session.messages + [{"role": "user", "content": text or "."}])
    except GatewayError as error:
        yield ChatView(history, session, error=error_text(error), done=True)
        return
    content: Any = text
    if images:
        content = ([{"type": "text", "text": text}] if text else []) + [{"type": "image_url", "image_url": {"url": u}} for u in images]
    session.messages.append({"role": "user", "content": content})
    shown_user: Any = text if not paths else ([{"type": "text", "text": text}] if text else []) + [{"path": p} for p in paths]
    history.append({"role": "user", "content": shown_user})
    yield ChatView(history, session, clear_draft=True)
    async for view in _run_turn(client, defaults, url, key, form, history, session):
        yield view


async def send_tool_result(
    client: GatewayClient, defaults: ServerDefaults, result_text: str,
    history: list[dict[str, Any]] | None, session: ChatSession | None, url: str, key: str, form: ChatForm,
) -> AsyncIterator[ChatView]:
    """Answer the first pending tool call; once none are left, continue the conversation."""
    history = list(history or [])
    session = session or ChatSession()
    if not session.pending:
        yield ChatView(history, session, error=error_text(RequestValidationError(["there is no tool call waiting for a result"])), done=True)
        return
    if not (result_text or "").strip():
        yield ChatView(history, session, error=error_text(RequestValidationError(["type the tool's result first"])), done=True)
        return
    call = session.pending.pop(0)
    session.messages.append({"role": "tool", "tool_call_id": call.id, "name": call.name, "content": result_text})
    history.append({"role": "user", "content": f"🔧 Result of `{call.name}`:\n```\n{result_text}\n```"})
    if session.pending:
        yield ChatView(history, session, clear_draft=True, done=True)
        return
    yield ChatView(history, session, clear_draft=True)
    async for view in _run_turn(client, defaults, url, key, form, history, session):
        yield view


def _last_user_index(items: list[dict[str, Any]], is_user: Any) -> int | None:
    return next((i for i in range(len(items) - 1, -1, -1) if is_user(items[i])), None)


async def retry_last(
    client: GatewayClient, defaults: ServerDefaults,
    history: list[dict[str, Any]] | None, session: ChatSession | None, url: str, key: str, form: ChatForm,
) -> AsyncIterator[ChatView]:
    """Drop the reply to the last user message (complete or not) and ask again."""
    history = list(history or [])
    session = session or ChatSession()
    api_index = _last_user_index(session.messages, lambda m: m.get("role") in ("user", "tool"))
    shown_index = _last_user_index(history, lambda m: m.get("role") == "user")
    if api_index is None or shown_index is None:
        yield ChatView(history, session, error=error_text(RequestValidationError(["there is no message to retry yet"])), done=True)
        return
    del session.messages[api_index + 1 :]
    session.pending = []
    history = history[: shown_index + 1]
    yield ChatView(history, session)
    async for view in _run_turn(client, defaults, url, key, form, history, session):
        yield view


def clear_chat() -> ChatView:
    return ChatView([], ChatSession(), done=True, clear_draft=True)


def describe_pending(call: ToolCall | None) -> str:
    if call is None:
        return ""
    return (
        f"The model called **`{call.name}`** (id `{call.id}`) with:\n```json\n{pretty_arguments(call.arguments)}\n```\n"
        "Type what the tool returned and send it to continue."
    )
