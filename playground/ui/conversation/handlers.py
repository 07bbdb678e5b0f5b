"""The handlers the conversation column's events run (`ConversationPanel.wire` connects them).

`ConversationHandlers` holds what a tab supplies (its adapter factory, the server defaults, the
shape of its form, its extra outputs); its methods are the handlers, and the tests call them as
the page does. Send, tool result, retry and edit are one streaming event each (`_act`): the
first update checks, shows the person's message and clears the input; the reply streams into the
chatbot with every other output skipped (a skip costs nothing, `gradio_fixes`); the last update
carries banners, metrics, tool panel, inspector and extras. Stop and Clear answer at once.

Every action's inputs are its own value (the draft, the tool result, the edit), the session, then
`values`: the tab's form values, the Variables table, base URL and key. Its outputs are the
chatbot, `BEGIN_OUTPUTS`, the inspector and the tab's extras; Stop's are `STOP_OUTPUTS` and the
inspector.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from contextlib import aclosing
from dataclasses import dataclass
from typing import Any

import gradio as gr

from playground import gradio_compat
from playground.client.batch.cost import Price
from playground.client.errors import GatewayError
from playground.ui.conversation import turns as conversation
from playground.ui.i18n.client_words import word
from playground.ui.shared.connection import ServerDefaults
from playground.ui.conversation.turns import Session, TurnAdapter, View, describe_pending
from playground.ui.i18n import say, t
from playground.ui.shared.render import error_text, flatten_text, settle_pending
from playground.ui.shared.metrics import metrics_text
from playground.ui.shared.prices import SessionPrices
from playground.ui.web.shown_files import shown_history
from playground.ui.conversation.template_vars import fill_draft, fill_form, text_of
from playground.ui.shared.widgets import Inspector, banner_update

AdapterFactory = Callable[..., TurnAdapter]
Extra = Callable[[View, TurnAdapter | None], tuple[Any, ...]]
Target = tuple[TurnAdapter, str, str]
"""The adapter built from the form, base URL and key: what a begun turn is sent with."""
Begun = tuple[View, str, Target | None]
"""What an action's begin step decided: the screen, which box it clears, and what to send with."""
Update = tuple[Any, ...]
STOP_SETTLE_S = 3.0
IDLE_PLACEHOLDER = t("conversation.idle")
REPLYING_PLACEHOLDER = t("conversation.replying")
BEGIN_OUTPUTS = ("session", "draft", "tool_result", "error", "notice", "metrics", "tool_panel", "tool_label")
"""The panel's components an action writes after the chatbot, in order (its first update writes only these)."""
STOP_OUTPUTS = ("chatbot", "draft", "error", "notice", "metrics")
"""The panel's components Stop writes before the inspector, in order."""
INSPECTOR_SIZE = len(Inspector.values(None))


async def after_stop(state: Session) -> None:
    """An action right after Stop waits (briefly) for the stopped reply to end, so Stop then
    Retry behaves as a person expects; a send during a reply that was not stopped is refused."""
    deadline = asyncio.get_running_loop().time() + STOP_SETTLE_S
    while state.replying and state.stop is not None and state.stop.is_set() and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.02)


def begin_outputs(view: View, clears: str) -> Update:
    """`BEGIN_OUTPUTS` for `view`; `clears` says which box a begun turn empties ("draft", "tool", "both", "none")."""
    clear_draft = view.clear_draft and clears in ("draft", "both")
    clear_tool = view.clear_draft and clears in ("tool", "both")
    placeholder = REPLYING_PLACEHOLDER if view.session.ready else IDLE_PLACEHOLDER
    return (
        view.session,
        gr.update(value={"text": "", "files": []}, placeholder=placeholder) if clear_draft else gr.update(placeholder=placeholder),
        "" if clear_tool else gr.skip(),  # a plain value: an update of the value alone would rebuild the component in Gradio
        banner_update(view.error),
        banner_update(view.notice),
        gr.skip() if view.aside else view.metrics if (view.done or view.metrics) else "",
        gr.update(visible=view.pending_tool is not None),
        word(describe_pending(view.pending_tool)),
    )


def refused(error: GatewayError, state: Session) -> Begun:
    """A begin step that could not build what to send (the form, a missing variable): nothing is sent."""
    state.ready = False
    return View(list(state.shown), state, error=error_text(error), done=True), "none", None


async def stop_reply(state: Session, prices: dict[str, Price] | None = None) -> Update:
    """Stop: the reply on its way ends where it is and is shown exactly as it is kept to be sent
    (its metrics costed from `prices`, the session's price table)."""
    already_stopped = state.replying and state.stop is not None and state.stop.is_set()  # the first Stop drew it
    if not (state.ready or state.replying) or already_stopped:  # nothing is running: Stop changes nothing
        return (gr.skip(),) * (len(STOP_OUTPUTS) + INSPECTOR_SIZE)
    was_replying = state.replying
    state.ready = False
    if state.stop is not None:
        state.stop.set()
    await after_stop(state)  # the stopped reply records itself as it ends
    live = state.live
    if was_replying and live is not None:
        live.record(state)  # a turn slow to end (a busy machine) is kept as far as it arrived, as it is shown now
    shown = state.shown = conversation.stopped(state.shown, state) if was_replying else settle_pending(state.shown)
    exchange = live.exchange if live is not None else None
    metrics = say("metrics.stopped")
    if live is not None and exchange is not None:
        metrics = metrics_text(live.result, exchange, prices) + " · " + metrics
    hidden = banner_update("")  # a note about the running reply (or an older error) is over now
    return (shown, gr.update(placeholder=IDLE_PLACEHOLDER), hidden, hidden, metrics, *Inspector.values(exchange))


@dataclass(frozen=True)
class ConversationHandlers:
    """What a tab supplies: `adapter_for(*form_values)` builds its adapter per call; the first
    `n_form` of an action's `values` are its form, the system prompt at `system_at` (named
    `system_name` in a refusal) has its `{{name}}` placeholders filled from the Variables table
    like the message; `extra(view, adapter)` feeds the tab's `n_extra` extra outputs."""

    adapter_for: AdapterFactory
    defaults: ServerDefaults
    n_form: int
    system_at: int | None = None
    system_name: str = "the system prompt"
    extra: Extra | None = None
    n_extra: int = 0
    prices: SessionPrices | None = None
    """The page's price tables: each reply's metrics line carries its cost from the session's."""

    @property
    def width(self) -> int:
        """How many outputs an action writes after the chatbot."""
        return len(BEGIN_OUTPUTS) + INSPECTOR_SIZE + self.n_extra

    def _prices(self) -> dict[str, Price]:
        return self.prices.current() if self.prices is not None else {}

    async def stop(self, state: Session) -> Update:
        """Stop (`stop_reply`), the stopped reply's cost from the session's price table."""
        return await stop_reply(state, self._prices())

    # The events. Each reads the chat as the server drew it (`state.shown`; the page's copy is
    # not an input), waits for a stopped reply first and refuses (nothing sent) when the form or
    # a variable cannot be sent.

    async def send(self, draft: Any, state: Session, *values: Any) -> AsyncIterator[Update]:
        """The message box's submit: the message (its placeholders filled) and the reply to it."""
        async with aclosing(self._act(state, self.begin_send, draft, state, values)) as updates:
            async for update in updates:
                yield update

    async def tool_result(self, text: str, state: Session, *values: Any) -> AsyncIterator[Update]:
        """The tool panel's send: the result of the first pending call; the reply once none is left."""
        async with aclosing(self._act(state, self.begin_tool_result, text, state, values)) as updates:
            async for update in updates:
                yield update

    async def retry(self, state: Session, *values: Any) -> AsyncIterator[Update]:
        """Retry: the last turn asked again, with the form as it is now."""
        async with aclosing(self._act(state, self.begin_retry, state, values)) as updates:
            async for update in updates:
                yield update

    async def edit(self, evt: gr.EditData, state: Session, *values: Any) -> AsyncIterator[Update]:
        """An edited message of the person's: the turns after it dropped and it is sent again (empty: the turn deleted)."""
        async with aclosing(self._act(state, self.begin_edit, evt, state, values)) as updates:
            async for update in updates:
                yield update

    def clear(self) -> Update:
        """Clear: an empty chat and a new session."""
        view = conversation.cleared()
        return (view.history, *self.view_outputs(view, "both", None))

    def chatbot_cleared(self) -> Update:
        """The chatbot's own trash button (the page emptied the chat itself): a new session."""
        return self.view_outputs(conversation.cleared(), "both", None)

    # The begin steps: each decides the screen and what to send.

    def target(self, values: tuple[Any, ...]) -> Target:
        """The adapter from the form, its system prompt filled (raises `GatewayError` naming a
        missing variable, or the visitor's limit a send would go over: then the message is not
        shown as sent and stays in its box)."""
        quota = self.defaults.quotas.for_current_session()
        over = quota.refusal() if quota is not None else None
        if over is not None:
            raise over
        form, table, (url, key) = values[:self.n_form], values[self.n_form], values[self.n_form + 1:]
        return self.adapter_for(*fill_form(form, self.system_at, table, self.system_name)), url, key

    def begin_send(self, draft: Any, state: Session, values: tuple[Any, ...]) -> Begun:
        typed = text_of(draft)
        state.typed = typed if typed.strip() else state.typed  # even if refused: the page's Variables key counts on it (`draft_keys`)
        draft, target = fill_draft(draft, values[self.n_form]), self.target(values)
        return conversation.begin_send(target[0], draft, state.shown, state), "draft", target

    def begin_tool_result(self, text: str, state: Session, values: tuple[Any, ...]) -> Begun:
        target = self.target(values)
        return conversation.begin_tool_result(target[0], text, state.shown, state), "tool", target

    def begin_retry(self, state: Session, values: tuple[Any, ...]) -> Begun:
        target = self.target(values)
        return conversation.begin_retry(state.shown, state), "draft", target

    def begin_edit(self, evt: gr.EditData, state: Session, values: tuple[Any, ...]) -> Begun:
        index = evt.index if isinstance(evt.index, int) else evt.index[0]
        target = self.target(values)
        return conversation.begin_edit(target[0], state.shown, state, index, flatten_text(evt.value)), "none", target

    # What the page shows.

    def view_outputs(self, view: View, clears: str, adapter: TurnAdapter | None) -> Update:
        """Every output after the chatbot: `BEGIN_OUTPUTS`, the inspector and the tab's extras."""
        return (*begin_outputs(view, clears), *Inspector.values(view.exchange),
                *(self.extra(view, adapter) if self.extra else (gr.skip(),) * self.n_extra))

    def first_update(self, view: View, clears: str) -> Update:
        """An action's first update; it leaves the inspector and the tab's extras alone: nothing has been sent yet."""
        not_yet = (gr.skip(),) * (self.width - len(BEGIN_OUTPUTS))
        if view.aside:  # a note leaves the chat (and a reply arriving in it) alone
            return (gr.skip(), *begin_outputs(view, clears), *not_yet)
        view.session.shown = shown_history(view.history)
        return (view.session.shown, *begin_outputs(view, clears), *not_yet)

    async def _act(self, state: Session, begin: Callable[..., Begun], *args: Any) -> AsyncGenerator[Update, None]:
        """One event per action: the begin step's screen, then the reply drawn below it; the last
        update carries banners, metrics, inspector and extras. Stopped, the event ends without
        it: Stop draws the screen."""
        await after_stop(state)
        try:
            view, clears, target = begin(*args)
        except GatewayError as error:
            view, clears, target = refused(error, state)
        first = self.first_update(view, clears)
        state = view.session
        if not state.ready or target is None:
            yield first
            return
        adapter, url, key = target
        stop = asyncio.Event()
        state.ready, state.replying, state.stop = False, True, stop
        state.live = conversation.LiveReply(adapter)  # nothing of it yet: a Stop now keeps nothing of it
        turn = conversation.run_turn(state, self.defaults, url, key, list(state.shown), view.request, self._prices())
        streaming = (gr.skip(),) * self.width
        outcome = None
        try:
            yield first
            async for view in conversation.until_stopped(turn, stop):
                if view.done:
                    outcome = view
                else:
                    yield (view.history, *streaming)
        finally:
            state.replying = False
        if outcome is not None and not stop.is_set():  # stopped, Stop draws the chat from `state.shown`
            state.shown = outcome.history
            yield (outcome.history, *self.view_outputs(outcome, "none", adapter))
            # Gradio's closing message repeats each output's last value: after a last update
            # of skips it repeats nothing, not the whole chat (issue 25: O(history) per send).
            # Only with updates streamed whole: else its diffs empty the last update's banners
            # before the page shows them (`gradio_compat.updates`).
            if gradio_compat.applied("whole_updates"):
                yield (gr.skip(), *streaming)
