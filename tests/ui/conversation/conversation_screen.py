"""The conversation column as the page shows it, driven through the handlers its events run
(`ConversationHandlers`, the same bound methods `ConversationPanel.wire` connects).

Each update a handler yields is applied as Gradio applies it (`gr.skip()` and an update without
a value leave a component as it was) and read back by name (`Screen`). The tab's form is one
value here, the adapter itself (`adapter_for` returns it), and the tab's one extra output is the
`View` a turn ended with, as a tab's `extra` is handed it: tests read the exchange and result from
there."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field, replace
from typing import Any

import gradio as gr

from playground.client.results import TextResult, ToolCall
from playground.client.transport import Exchange
from playground.ui.shared.connection import ServerDefaults
from playground.ui.conversation.turns import Session, TurnAdapter, View
from playground.ui.conversation.handlers import BEGIN_OUTPUTS, INSPECTOR_SIZE, STOP_OUTPUTS, ConversationHandlers, stop_reply

NO_VARIABLES = None
"""The Variables table's value with no placeholder in sight."""


def handlers(defaults: ServerDefaults) -> ConversationHandlers:
    """What a tab supplies, for a test: the form is the adapter; the extra output is the turn's last `View`."""
    return ConversationHandlers(lambda adapter: adapter, defaults, n_form=1, extra=lambda view, _adapter: (view,), n_extra=1)


@dataclass
class Screen:
    """The column after one update. `cleared_draft` and `drew_chat` say what that update did."""

    history: list[dict[str, Any]]
    session: Session
    error: str = ""
    notice: str = ""
    metrics: str = ""
    tool_panel: bool = False
    tool_label: str = ""
    inspector: tuple[Any, ...] = ("",) * INSPECTOR_SIZE
    placeholder: Any = None
    outcome: View | None = None
    """The `View` the tab's extras were handed when a turn ended (None before any)."""
    cleared_draft: bool = False
    drew_chat: bool = False
    updates: int = field(default=0, repr=False)

    @property
    def exchange(self) -> Exchange | None:
        return self.outcome.exchange if self.outcome is not None else None

    @property
    def result(self) -> TextResult | None:
        return self.outcome.result if self.outcome is not None else None

    @property
    def pending_tool(self) -> ToolCall | None:
        return self.session.pending[0] if self.session.pending else None


def _skipped(value: Any) -> bool:
    return isinstance(value, dict) and value.get("__type__") == "update" and "value" not in value


def _value(value: Any, before: Any) -> Any:
    if isinstance(value, dict) and value.get("__type__") == "update":
        return value.get("value", before)
    return value


def apply(screen: Screen, update: tuple[Any, ...]) -> Screen:
    """`screen` after an action's update: chatbot, `BEGIN_OUTPUTS`, inspector, the one extra."""
    assert len(update) == 1 + len(BEGIN_OUTPUTS) + INSPECTOR_SIZE + 1, f"{len(update)} outputs"
    chat, rest = update[0], dict(zip(BEGIN_OUTPUTS, update[1:]))
    inspector, extra = update[1 + len(BEGIN_OUTPUTS):-1], update[-1]
    draft = rest["draft"]
    panel = rest["tool_panel"]
    return replace(
        screen,
        history=_value(chat, screen.history),
        session=_value(rest["session"], screen.session),
        error=_value(rest["error"], screen.error),
        notice=_value(rest["notice"], screen.notice),
        metrics=_value(rest["metrics"], screen.metrics),
        tool_panel=panel.get("visible", screen.tool_panel) if isinstance(panel, dict) else bool(panel),
        tool_label=_value(rest["tool_label"], screen.tool_label),
        inspector=tuple(_value(new, old) for new, old in zip(inspector, screen.inspector, strict=True)),
        placeholder=draft.get("placeholder", screen.placeholder) if isinstance(draft, dict) else screen.placeholder,
        outcome=_value(extra, screen.outcome),
        cleared_draft=isinstance(draft, dict) and draft.get("value") == {"text": "", "files": []},
        drew_chat=not _skipped(chat),
        updates=screen.updates + 1,
    )


async def play(updates: AsyncIterator[tuple[Any, ...]], session: Session) -> list[Screen]:
    """The screen after each update of an action that started on `session`'s chat."""
    screens: list[Screen] = []
    screen = Screen(list(session.shown), session)
    async for update in updates:
        screen = apply(screen, update)
        screens.append(screen)
    return screens


def new_session(history: list[dict[str, Any]] | None = None, **fields: Any) -> Session:
    """A session whose chat the server drew as `history`."""
    return Session(shown=list(history or []), **fields)


async def send(defaults: ServerDefaults, adapter: TurnAdapter, draft: Any, session: Session | None = None, url: str = "",
               key: str = "", table: Any = NO_VARIABLES) -> list[Screen]:
    """The message box's submit, as the page runs it."""
    session = session if session is not None else Session()
    return await play(handlers(defaults).send(draft, session, adapter, table, url, key), session)


async def tool_result(defaults: ServerDefaults, adapter: TurnAdapter, text: str, session: Session, url: str = "", key: str = "") -> list[Screen]:
    """The tool panel's send."""
    return await play(handlers(defaults).tool_result(text, session, adapter, NO_VARIABLES, url, key), session)


async def retry(defaults: ServerDefaults, adapter: TurnAdapter, session: Session, url: str = "", key: str = "") -> list[Screen]:
    """Retry."""
    return await play(handlers(defaults).retry(session, adapter, NO_VARIABLES, url, key), session)


async def edit(defaults: ServerDefaults, adapter: TurnAdapter, session: Session, index: int, text: str) -> list[Screen]:
    """The chatbot's edit of message `index` to `text`."""
    data = gr.EditData(None, {"index": index, "value": text, "previous_value": ""})
    return await play(handlers(defaults).edit(data, session, adapter, NO_VARIABLES, "", ""), session)


async def stop(session: Session) -> dict[str, Any]:
    """Stop: its outputs by name (`STOP_OUTPUTS`, then "inspector")."""
    update = await stop_reply(session)
    named = dict(zip(STOP_OUTPUTS, update))
    named["inspector"] = update[len(STOP_OUTPUTS):]
    return named
