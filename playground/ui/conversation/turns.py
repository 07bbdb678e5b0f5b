"""Conversation behaviour shared by the text tabs: send, tool results, retry, clear, Stop.

Each tab supplies a `TurnAdapter` that knows its wire format (how to build the request, call
the client, and write assistant and tool-result messages); everything a person sees — streamed
updates at a bounded rate, thinking, tool calls, errors that keep the conversation, partial
replies kept on Stop — lives here once. Nothing here imports gradio: the begin steps and the turn
are composed into the page's events by `conversation_handlers`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from playground.client.batch.cost import Price
from playground.client.errors import GatewayError, RequestValidationError
from playground.client.media import image_data_url
from playground.client.results import TextResult, ToolCall, Usage
from playground.client.streaming import TextStream
from playground.client.transport import Connection, Exchange
from playground.client.validation import BROKEN_TEXT, is_utf8
from playground.ui.shared.connection import ServerDefaults, resolve_connection
from playground.ui.shared.forms import Pacing, Throttle
from playground.ui.i18n import say
from playground.ui.i18n.client_words import word
from playground.ui.shared.render import error_text, pretty_arguments, result_messages
from playground.ui.shared.metrics import metrics_text
from playground.ui.web.shown_files import adopt_upload

logger = logging.getLogger(__name__)
STREAM_UPDATE_INTERVAL = 0.05
PACING = Pacing(full_rate=20)
"""Twenty replies at once update every 50 ms each; a hundred, every 250 ms each."""
TOOL_RESULT_MARK = "Tool result of"
OLD_TOOL_RESULT_MARK = "\U0001f527 Result of"
"""How a tool's result was marked before (a saved session holds it): read as a tool result too."""
REPLYING = "note.replying"
"""The catalogue key of the note for a click while a reply is on its way."""


@dataclass(eq=False)
class Session:
    """The conversation as sent to the gateway (no system prompt), plus unanswered tool calls.

    `live` is the reply being received (so Stop can show its metrics and call), `ready` whether a
    begun turn is to be sent, `replying` whether a reply is arriving now (a second send waits for it)."""

    messages: list[dict[str, Any]] = field(default_factory=list)
    pending: list[ToolCall] = field(default_factory=list)
    usage_log: list[Usage] = field(default_factory=list)
    live: LiveReply | None = field(default=None, repr=False)
    ready: bool = False
    replying: bool = False
    stop: asyncio.Event | None = field(default=None, repr=False)
    """Set by Stop: the reply being received ends at its next step (or at once while waiting)."""
    shown: list[dict[str, Any]] = field(default_factory=list, repr=False)
    """What the chat shows, as the server last drew it (while a reply streams: what the turn
    showed before it, the reply is drawn below it). Every event that draws the chatbot keeps it;
    the actions read it instead of the page's copy, so a send does not upload the whole history
    (issue 25) and a page cannot hand back a history the server did not draw."""
    branches: list[dict[str, Any]] = field(default_factory=list)
    """Other lines of this conversation (`ui.branches`): {"shown", "sent"} each; `branch` is the one on screen."""
    branch: int = 0
    typed: str = ""
    """The last message sent as typed, `{{placeholders}}` kept ("Send to Batch" after the box was cleared)."""


@dataclass(eq=False)
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
    aside: bool = False
    """Only a note: nothing was sent and nothing on screen changes (a harmless click)."""
    request: Any = None
    """The request a begun turn was checked with, sent as it is (not validated a second time)."""

    @property
    def pending_tool(self) -> ToolCall | None:
        return self.session.pending[0] if self.session.pending else None


@dataclass(eq=False)
class LiveReply:
    """The reply being received: its result as it grows and its call (`exchange`, once the stream
    is open). It is kept in the conversation once: by the turn when it ends, or by Stop when the
    turn is slow to end; what Stop shows is then read from the result at the same moment."""

    adapter: TurnAdapter
    result: TextResult = field(default_factory=TextResult)
    exchange: Exchange | None = None
    recorded: bool = False

    def record(self, session: Session) -> None:
        if self.recorded:
            return
        self.recorded = True
        result = self.result
        if result.text or result.tool_calls:
            session.messages.append(self.adapter.assistant_message(result))
            session.pending = [call for call in result.tool_calls if call.id]
        if result.usage is not None:
            session.usage_log.append(result.usage)


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


def _note(history: list[dict[str, Any]], session: Session, key: str, aside: bool = True, **values: Any) -> View:
    """A calm one-line note (catalogue `key`, in the visitor's language) for a click that cannot do
    anything now; the conversation stays as it is (`aside`: the chatbot is left alone, or it shows
    `history` again, e.g. after a refused edit)."""
    return View(history, session, notice=say(key, **values), done=True, aside=aside)


def _problem(history: list[dict[str, Any]], session: Session, message: str) -> View:
    """A value that cannot be sent as it stands: the error banner names it; the conversation stays."""
    return View(history, session, error=error_text(RequestValidationError([message])), done=True, aside=True)


async def run_turn(
    session: Session, defaults: ServerDefaults, url: str, key: str, history: list[dict[str, Any]], request: Any = None,
    prices: dict[str, Price] | None = None,
) -> AsyncIterator[View]:
    """Send `session.messages` (as `request` when the begin step built it) and show the reply as
    it arrives, into `session.live` (set before the turn began, so a Stop that comes first finds
    it). Never loses what is on screen."""
    live = session.live
    assert live is not None
    adapter = live.adapter
    try:
        conn = resolve_connection(defaults, url, key)
        request = request if request is not None else adapter.build_request(session.messages)
        notice = " ".join(word(advice) for advice in request.advisories())
        if not request.stream:
            yield View(history, session, notice=notice, metrics=say("metrics.waiting"))
            live.result, live.exchange = await adapter.create(conn, request)
        else:
            throttle, shown = Throttle(lambda: PACING.interval(STREAM_UPDATE_INTERVAL)), False
            with PACING.streaming():
                async with adapter.stream(conn, request) as stream:
                    live.exchange, live.result = stream.exchange, stream.result
                    result = live.result
                    async for _event in stream:
                        first_words = not shown and bool(result.text or result.reasoning or result.tool_calls)
                        if first_words or throttle.due():  # the first words go out at once
                            shown = shown or first_words
                            yield View(history + result_messages(result, done=False), session, notice=notice)
        live.record(session)
        result, exchange = live.result, live.exchange
        yield View(history + result_messages(result, True), session, notice=notice, metrics=metrics_text(result, exchange, prices),
                   exchange=exchange, done=True, result=result)
    except GatewayError as error:
        partial = getattr(error, "partial", None)
        if isinstance(partial, TextResult):
            live.result = partial
        result, exchange = live.result, error.exchange or live.exchange
        live.record(session)
        shown = history + (result_messages(result, True) if (result.text or result.reasoning or result.tool_calls) else [])
        yield View(shown, session, error=error_text(error), metrics=metrics_text(result, exchange, prices) if exchange else "",
                   exchange=exchange, done=True, result=result)
    except (asyncio.CancelledError, GeneratorExit):
        live.record(session)
        raise
    except Exception as error:  # a bug must not cost the user the conversation
        logger.exception("conversation turn failed")
        live.record(session)
        yield View(history + result_messages(live.result, True), session, error=error_text(error), exchange=live.exchange, done=True)


def begin_send(adapter: TurnAdapter, draft: dict[str, Any] | str | None, history: list[dict[str, Any]] | None,
               session: Session | None) -> View:
    """Check and append the user's message (text and images); `session.ready` says whether to send."""
    history = list(history or [])
    session = session or Session()
    session.ready = False
    text, paths = _draft_parts(draft)
    if session.replying:
        return _note(history, session, REPLYING)
    if not text.strip() and not paths:
        return _note(history, session, "note.type_first")
    if session.pending:
        return _note(history, session, "note.tool_waiting", name=session.pending[0].name)
    try:
        if not is_utf8(text):
            raise RequestValidationError([f"message: {BROKEN_TEXT}"])
        attach = getattr(adapter, "attachments", None)  # adapters that take more than images say how
        urls = attach(paths) if attach else [image_data_url(p) for p in paths]
        message = adapter.user_message(text, urls)
        request = adapter.build_request([*session.messages, message])
        copies = [adopt_upload(p) for p in paths]
    except GatewayError as error:
        return View(history, session, error=error_text(error), done=True)
    session.messages.append(message)
    shown: Any = text if not paths else ([{"type": "text", "text": text}] if text else []) + [{"path": p} for p in copies]
    history.append({"role": "user", "content": shown})
    session.ready = True
    return View(history, session, clear_draft=True, request=request)


def begin_tool_result(adapter: TurnAdapter, result_text: str, history: list[dict[str, Any]] | None, session: Session | None) -> View:
    """Answer the first pending tool call; `session.ready` once none are left to answer."""
    history = list(history or [])
    session = session or Session()
    session.ready = False
    if session.replying:
        return _note(history, session, REPLYING)
    if not session.pending:
        return _note(history, session, "note.no_tool_call")
    if not (result_text or "").strip():
        return _note(history, session, "note.tool_result_first")
    if not is_utf8(result_text):
        return _problem(history, session, f"tool result: {BROKEN_TEXT}")
    first_of_round = session.messages[-1].get("role") == "assistant"
    call = session.pending.pop(0)
    adapter.add_tool_result(session.messages, call, result_text, first_of_round)
    history.append({"role": "user", "content": f"{TOOL_RESULT_MARK} `{call.name}`:\n```\n{result_text}\n```"})
    if session.pending:
        return View(history, session, clear_draft=True, done=True)
    session.ready = True
    return View(history, session, clear_draft=True)


def _last_index(items: list[dict[str, Any]], role: str) -> int | None:
    return next((i for i in range(len(items) - 1, -1, -1) if items[i].get("role") == role), None)


def begin_retry(history: list[dict[str, Any]] | None, session: Session | None) -> View:
    """Drop the reply to the last user turn (complete or not); `session.ready` to ask again."""
    history = list(history or [])
    session = session or Session()
    session.ready = False
    if session.replying:
        return _note(history, session, REPLYING)
    last_sent = max((i for i in (_last_index(session.messages, "user"), _last_index(session.messages, "tool")) if i is not None), default=None)
    shown_index = _last_index(history, "user")
    if last_sent is None or shown_index is None:
        return _note(history, session, "note.nothing_to_retry")
    del session.messages[last_sent + 1 :]
    session.pending = []
    session.ready = True
    return View(history[: shown_index + 1], session)


async def until_stopped(views: AsyncIterator[View], stop: asyncio.Event) -> AsyncIterator[View]:
    """Pass `views` on until `stop` is set; then the turn is cancelled where it waits (its
    partial reply is recorded) and nothing more is yielded. Stop works this way, inside the
    streaming event, instead of cancelling the event from the page: a cancel that reaches an
    event the page is still joining shows an error badge in the browser."""
    iterator = views.__aiter__()
    while True:
        step = asyncio.ensure_future(iterator.__anext__())
        halt = asyncio.ensure_future(stop.wait())
        await asyncio.wait({step, halt}, return_when=asyncio.FIRST_COMPLETED)
        if stop.is_set():  # a view that arrived with Stop is not shown: Stop draws the reply as it kept it
            step.cancel()
            try:
                await step
            except (asyncio.CancelledError, StopAsyncIteration):
                pass
            if hasattr(iterator, "aclose"):  # a turn cancelled before it ran its step is still open: it records now
                await iterator.aclose()
            return
        halt.cancel()
        try:
            view = step.result()
        except StopAsyncIteration:
            return
        yield view


def stopped(history: list[dict[str, Any]], session: Session) -> list[dict[str, Any]]:
    """The screen after Stop: the reply as far as it arrived, exactly as it was recorded to be
    sent (the last streamed update may be up to one update interval behind it)."""
    result = session.live.result if session.live else None
    return history + (result_messages(result, True) if result and (result.text or result.reasoning or result.tool_calls) else [])


def cleared() -> View:
    return View([], Session(), done=True, clear_draft=True)


TOOL_RESULT_KINDS = frozenset({"tool_result", "function_call_output", "functionResponse"})


def _is_user_turn(message: dict[str, Any]) -> bool:
    """A message the person typed (not a tool result sent back in a user-role message)."""
    if message.get("role") != "user":
        return False
    content = message.get("content", message.get("parts"))
    if isinstance(content, list) and content:
        kinds = {part.get("type") or next(iter(part), None) for part in content if isinstance(part, dict)}
        return not kinds <= TOOL_RESULT_KINDS
    return True


def _shown_user_turn(message: dict[str, Any]) -> bool:
    content = message.get("content")
    return message.get("role") == "user" and not (isinstance(content, str) and content.startswith((TOOL_RESULT_MARK, OLD_TOOL_RESULT_MARK)))


def _turns(history: list[dict[str, Any]], session: Session) -> tuple[list[int], list[int]] | None:
    """Where each turn starts on screen and in what is sent (None if they cannot be matched)."""
    shown = [i for i, message in enumerate(history) if _shown_user_turn(message)]
    sent = [i for i, message in enumerate(session.messages) if _is_user_turn(message)]
    return (shown, sent) if len(shown) == len(sent) else None


def _turn_of(index: int, starts: list[int]) -> int | None:
    before = [k for k, start in enumerate(starts) if start <= index]
    return before[-1] if before else None


def delete_turn(history: list[dict[str, Any]] | None, session: Session | None, index: int) -> View:
    """Remove the turn holding chatbot message `index` (the user's message and the replies to it)
    from the screen and from what the next request sends."""
    history = list(history or [])
    session = session or Session()
    turns = _turns(history, session)
    turn = _turn_of(index, turns[0]) if turns else None
    if turns is None or turn is None:
        return _note(history, session, "note.cannot_delete", aside=False)
    shown, sent = turns
    shown_end = shown[turn + 1] if turn + 1 < len(shown) else len(history)
    sent_end = sent[turn + 1] if turn + 1 < len(sent) else len(session.messages)
    del history[shown[turn] : shown_end]
    del session.messages[sent[turn] : sent_end]
    if turn == len(sent) - 1:
        session.pending = []
    return View(history, session, done=True, notice=say("note.deleted"))


def begin_edit(adapter: TurnAdapter, history: list[dict[str, Any]] | None, session: Session | None, index: int, text: str) -> View:
    """Edit one of the person's messages: the turns after it are dropped and it is sent again
    (an empty text deletes the turn instead)."""
    history = list(history or [])
    session = session or Session()
    session.ready = False
    if session.replying:
        return _note(history, session, REPLYING, aside=False)
    turns = _turns(history, session)
    if turns is None or index not in turns[0]:
        return _note(history, session, "note.only_own", aside=False)
    if not (text or "").strip():
        return delete_turn(history, session, index)
    turn = turns[0].index(index)
    original = history[index].get("content")
    files = [part for part in original if isinstance(part, dict) and part.get("path")] if isinstance(original, list) else []
    kept_history, kept_messages = history[:index], session.messages[: turns[1][turn]]
    edited = Session(messages=kept_messages, usage_log=session.usage_log)
    view = begin_send(adapter, {"text": text, "files": files}, kept_history, edited)
    if view.done:  # refused (a problem in the form, or a note): the screen stays as it was
        return View(history, session, error=view.error, notice=view.notice, done=True)
    session.messages, session.pending, session.ready = edited.messages, [], True
    return View(view.history, session, request=view.request)


def describe_pending(call: ToolCall | None) -> str:
    if call is None:
        return ""
    return (
        f"The model called **`{call.name}`** (id `{call.id}`) with:\n```json\n{pretty_arguments(call.arguments)}\n```\n"
        "Type what the tool returned and send it to continue."
    )
