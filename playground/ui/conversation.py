"""Conversation behaviour shared by the text tabs: send, tool results, retry, clear, Stop.

Each tab supplies a `TurnAdapter` that knows its wire format (how to build the request, call
the client, and write assistant and tool-result messages); everything a person sees — streamed
updates at a bounded rate, thinking, tool calls, errors that keep the conversation, partial
replies kept on Stop — lives here once. Nothing here imports gradio, so tests drive it directly.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from playground.client.errors import GatewayError, RequestValidationError
from playground.client.media import image_data_url
from playground.client.results import TextResult, ToolCall, Usage
from playground.client.streaming import TextStream
from playground.client.transport import Connection, Exchange
from playground.ui.connection import ServerDefaults, resolve_connection
from playground.ui.forms import Throttle
from playground.ui.render import error_text, metrics_text, pretty_arguments, result_messages

logger = logging.getLogger(__name__)
STREAM_UPDATE_INTERVAL = 0.05


@dataclass
class Session:
    """The conversation as sent to the gateway (no system prompt), plus unanswered tool calls."""

    messages: list[dict[str, Any]] = field(default_factory=list)
    pending: list[ToolCall] = field(default_factory=list)
    usage_log: list[Usage] = field(default_factory=list)


@dataclass
class View:
    """One screenful: `exchange` is set only when a turn ended (the inspector updates then)."""

    history: list[dict[str, Any]]
    session: Session
    error: str = ""
    notice: str = ""
    metrics: str = ""
    exchange: Exchange | None = None
    clear_draft: bool = False
    done: bool = False
    result: TextResult | None = None

    @property
    def pending_tool(self) -> ToolCall | None:
        return self.session.pending[0] if self.session.pending else None


class TurnAdapter(Protocol):
    """What a tab tells the shared conversation about its interface."""

    def build_request(self, messages: list[dict[str, Any]]) -> Any:
        """Validated request (raises `RequestValidationError`); has `.stream` and `.advisories()`."""

    async def create(self, conn: Connection, request: Any) -> tuple[TextResult, Exchange]: ...

    def stream(self, conn: Connection, request: Any) -> TextStream: ...

    def user_message(self, text: str, image_urls: list[str]) -> dict[str, Any]: ...

    def assistant_message(self, result: TextResult) -> dict[str, Any]: ...

    def add_tool_result(self, messages: list[dict[str, Any]], call: ToolCall, text: str, first_of_round: bool) -> None: ...


def _draft_parts(draft: dict[str, Any] | str | None) -> tuple[str, list[str]]:
    """(text, file paths) of a multimodal input value."""
    if isinstance(draft, str) or draft is None:
        return (draft or ""), []
    paths = [f if isinstance(f, str) else f.get("path", "") for f in draft.get("files") or []]
    return draft.get("text") or "", [p for p in paths if p]


def _problem(history: list[dict[str, Any]], session: Session, message: str) -> View:
    return View(history, session, error=error_text(RequestValidationError([message])), done=True)


async def run_turn(
    adapter: TurnAdapter, defaults: ServerDefaults, url: str, key: str, history: list[dict[str, Any]], session: Session
) -> AsyncIterator[View]:
    """Send `session.messages` and show the reply as it arrives. Never loses what is on screen."""
    result = TextResult()
    exchange: Exchange | None = None
    recorded = False

    def record() -> None:
        nonlocal recorded
        if not recorded and (result.text or result.tool_calls):
            session.messages.append(adapter.assistant_message(result))
            session.pending = [call for call in result.tool_calls if call.id]
        if not recorded and result.usage is not None:
            session.usage_log.append(result.usage)
        recorded = True

    try:
        conn = resolve_connection(defaults, url, key)
        request = adapter.build_request(session.messages)
        notice = " ".join(request.advisories())
        if not request.stream:
            yield View(history, session, notice=notice, metrics="waiting for the gateway…")
            result, exchange = await adapter.create(conn, request)
        else:
            throttle = Throttle(STREAM_UPDATE_INTERVAL)
            async with adapter.stream(conn, request) as stream:
                exchange, result = stream.exchange, stream.result
                async for _event in stream:
                    if throttle.due():
                        yield View(history + result_messages(result, done=False), session, notice=notice)
        record()
        yield View(history + result_messages(result, True), session, notice=notice, metrics=metrics_text(result, exchange),
                   exchange=exchange, done=True, result=result)
    except GatewayError as error:
        partial = getattr(error, "partial", None)
        if isinstance(partial, TextResult):
            result = partial
        exchange = error.exchange or exchange
        record()
        shown = history + (result_messages(result, True) if (result.text or result.reasoning or result.tool_calls) else [])
        yield View(shown, session, error=error_text(error), metrics=metrics_text(result, exchange) if exchange else "",
                   exchange=exchange, done=True, result=result)
    except (asyncio.CancelledError, GeneratorExit):
        record()
        raise
    except Exception as error:  # a bug must not cost the user the conversation
        logger.exception("conversation turn failed")
        record()
        yield View(history + result_messages(result, True), session, error=error_text(error), exchange=exchange, done=True)


async def send_message(
    adapter: TurnAdapter, defaults: ServerDefaults, draft: dict[str, Any] | str | None,
    history: list[dict[str, Any]] | None, session: Session | None, url: str, key: str,
) -> AsyncIterator[View]:
    """Append the user's message (text and images) and stream the reply."""
    history = list(history or [])
    session = session or Session()
    text, paths = _draft_parts(draft)
    try:
        if not text.strip() and not paths:
            raise RequestValidationError(["type a message (or attach an image) first"])
        if session.pending:
            raise RequestValidationError([f"the model is waiting for the result of tool call {session.pending[0].name}; send it below or press Clear"])
        images = [image_data_url(p) for p in paths]
        message = adapter.user_message(text, images)
        adapter.build_request([*session.messages, message])
    except GatewayError as error:
        yield View(history, session, error=error_text(error), done=True)
        return
    session.messages.append(message)
    shown: Any = text if not paths else ([{"type": "text", "text": text}] if text else []) + [{"path": p} for p in paths]
    history.append({"role": "user", "content": shown})
    yield View(history, session, clear_draft=True)
    async for view in run_turn(adapter, defaults, url, key, history, session):
        yield view


async def send_tool_result(
    adapter: TurnAdapter, defaults: ServerDefaults, result_text: str,
    history: list[dict[str, Any]] | None, session: Session | None, url: str, key: str,
) -> AsyncIterator[View]:
    """Answer the first pending tool call; once none are left, continue the conversation."""
    history = list(history or [])
    session = session or Session()
    if not session.pending:
        yield _problem(history, session, "there is no tool call waiting for a result")
        return
    if not (result_text or "").strip():
        yield _problem(history, session, "type the tool's result first")
        return
    first_of_round = session.messages[-1].get("role") == "assistant"
    call = session.pending.pop(0)
    adapter.add_tool_result(session.messages, call, result_text, first_of_round)
    history.append({"role": "user", "content": f"🔧 Result of `{call.name}`:\n```\n{result_text}\n```"})
    if session.pending:
        yield View(history, session, clear_draft=True, done=True)
        return
    yield View(history, session, clear_draft=True)
    async for view in run_turn(adapter, defaults, url, key, history, session):
        yield view


def _last_index(items: list[dict[str, Any]], role: str) -> int | None:
    return next((i for i in range(len(items) - 1, -1, -1) if items[i].get("role") == role), None)


async def retry_last(
    adapter: TurnAdapter, defaults: ServerDefaults, history: list[dict[str, Any]] | None, session: Session | None, url: str, key: str,
) -> AsyncIterator[View]:
    """Drop the reply to the last user turn (complete or not) and ask again."""
    history = list(history or [])
    session = session or Session()
    last_sent = max((i for i in (_last_index(session.messages, "user"), _last_index(session.messages, "tool")) if i is not None), default=None)
    shown_index = _last_index(history, "user")
    if last_sent is None or shown_index is None:
        yield _problem(history, session, "there is no message to retry yet")
        return
    del session.messages[last_sent + 1 :]
    session.pending = []
    history = history[: shown_index + 1]
    yield View(history, session)
    async for view in run_turn(adapter, defaults, url, key, history, session):
        yield view


def cleared() -> View:
    return View([], Session(), done=True, clear_draft=True)


def describe_pending(call: ToolCall | None) -> str:
    if call is None:
        return ""
    return (
        f"The model called **`{call.name}`** (id `{call.id}`) with:\n```json\n{pretty_arguments(call.arguments)}\n```\n"
        "Type what the tool returned and send it to continue."
    )
