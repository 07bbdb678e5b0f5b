"""The conversation column every text tab shares: chatbot, banners, tool-result panel, input,
Stop/Retry/Clear, metrics and inspector, wired to `conversation`'s handlers."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import gradio as gr
from gradio.i18n import I18nData

from playground.ui.chatbot import Chatbot
from playground.ui import conversation
from playground.client.errors import GatewayError
from playground.ui.branches import BranchBar
from playground.ui.client_words import word
from playground.ui.connection import ServerDefaults
from playground.ui.conversation import Session, TurnAdapter, View, describe_pending
from playground.ui.i18n import english, say, t
from playground.ui.render import error_text, flatten_text, metrics_text, settle_pending
from playground.ui.shown_files import shown_history
from playground.ui.prompt_move import PromptRegistry, PromptSource
from playground.ui.template_vars import VariablesPanel, fill_draft, fill_form, text_of
from playground.ui.widgets import Inspector, banner_update, error_banner, metrics_line, notice_banner

AdapterFactory = Callable[..., TurnAdapter]
Begun = tuple[View, str, tuple[TurnAdapter, str, str] | None]
"""What an action's begin step decided: the screen, which box it clears, and (adapter, base URL, key) to send with."""
STOP_SETTLE_S = 3.0
IDLE_PLACEHOLDER = t("conversation.idle")
REPLYING_PLACEHOLDER = t("conversation.replying")


async def after_stop(state: Session) -> None:
    """An action right after Stop waits (briefly) for the stopped reply to end, so Stop then
    Retry behaves as a person expects; a send during a reply that was not stopped is refused."""
    deadline = asyncio.get_running_loop().time() + STOP_SETTLE_S
    while state.replying and state.stop is not None and state.stop.is_set() and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.02)


@dataclass
class ConversationPanel:
    prefix: str
    session: gr.State
    chatbot: gr.Chatbot
    error: gr.Markdown
    notice: gr.Markdown
    tool_panel: gr.Group
    tool_label: gr.Markdown
    tool_result: gr.Textbox
    tool_send: gr.Button
    draft: gr.MultimodalTextbox
    stop: gr.Button
    retry: gr.Button
    clear: gr.Button
    metrics: gr.Markdown
    branches: BranchBar
    variables: VariablesPanel | None = None
    to_batch: gr.Button | None = None

    @classmethod
    def build(cls, prefix: str, placeholder: str, file_types: list[str] | None = None) -> ConversationPanel:
        """Lay out the column (call inside a `gr.Column`)."""
        session = gr.State(Session())
        chatbot = Chatbot(elem_id=f"{prefix}-chatbot", height=520, placeholder=placeholder, editable="user")
        error = error_banner(prefix)
        notice = notice_banner(prefix)
        with gr.Group(visible=False, elem_id=f"{prefix}-tool-panel") as tool_panel:
            tool_label = gr.Markdown(elem_id=f"{prefix}-tool-call")
            tool_result = gr.Textbox(label=t("conversation.tool_result"), lines=3, elem_id=f"{prefix}-tool-result", placeholder=t("conversation.tool_example"))
            tool_send = gr.Button(t("conversation.tool_send"), variant="primary", elem_id=f"{prefix}-tool-send")
        draft = gr.MultimodalTextbox(
            elem_id=f"{prefix}-input", file_types=file_types or ["image"], file_count="multiple", sources=["upload"], show_label=False,
            placeholder=IDLE_PLACEHOLDER,
        )
        variables = VariablesPanel.build(prefix)
        with gr.Row():
            stop = gr.Button(t("conversation.stop"), elem_id=f"{prefix}-stop", variant="stop")
            retry = gr.Button(t("conversation.retry"), elem_id=f"{prefix}-retry")
            clear = gr.Button(t("conversation.clear"), elem_id=f"{prefix}-clear")
        to_batch = gr.Button(t("conversation.to_batch"), size="sm", elem_id=f"{prefix}-to-batch")
        metrics = metrics_line(prefix)
        branches = BranchBar(prefix)
        return cls(prefix, session, chatbot, error, notice, tool_panel, tool_label, tool_result, tool_send, draft, stop, retry, clear, metrics,
                   branches, variables, to_batch)

    def wire(
        self,
        adapter_for: AdapterFactory,
        form_inputs: list[Any],
        defaults: ServerDefaults,
        connection: list[gr.Textbox],
        inspector: Inspector,
        extra: Callable[[View, TurnAdapter | None], tuple[Any, ...]] | None = None,
        extra_outputs: list[Any] | None = None,
        system: Any | None = None,
        prompts: PromptRegistry | None = None,
    ) -> None:
        """Connect the events. `adapter_for(*form_values)` builds the tab's adapter per call;
        `extra(view, adapter)` feeds tab-specific `extra_outputs` (e.g. a cache report).
        `system` (one of `form_inputs`: the system prompt or instructions box) has its `{{name}}`
        placeholders filled from the Variables panel, like the message, before any request;
        with `prompts`, "Send to Batch" moves both templates and the values to the Batch tab.

        Each action (send, tool result, retry, edit) is one streaming event: its first update
        checks, shows the user's message and clears the input; then the reply streams into the
        chatbot with every other output skipped (a skip costs nothing, `gradio_fixes`); the last
        update carries banners, metrics, tool panel, inspector and extras. One event instead of
        three saves two requests and two rounds of input processing per send (issue 25)."""
        extra_outputs = extra_outputs or []
        self.branches.wire(self.chatbot, self.session, self.notice, self.error, banner_update)
        # The first update leaves the inspector and the tab's extras alone: nothing has been sent yet.
        begins = [self.session, self.draft, self.tool_result, self.error, self.notice, self.metrics, self.tool_panel, self.tool_label]
        ends = [*begins, *inspector.components, *extra_outputs]
        not_yet = (gr.skip(),) * (len(ends) - len(begins))
        streaming = (gr.skip(),) * len(ends)
        assert self.variables is not None
        self.variables.watch(self.draft, system, self.session)
        if prompts is not None and system is not None and self.to_batch is not None:
            prompts.add(PromptSource(self.prefix, self.to_batch, self.draft, system, self.variables.table, self.variables.group,
                                     self.session))
        n_form = len(form_inputs)
        system_at = form_inputs.index(system) if system is not None else None
        label = getattr(system, "label", None)
        system_name = f"the “{english(label.key)}” box" if isinstance(label, I18nData) else "the system prompt"
        tail = [*form_inputs, self.variables.table, *connection]

        def split(values: tuple[Any, ...]) -> tuple[TurnAdapter, str, str]:
            """The adapter from the form, its system prompt filled (raises `GatewayError` naming a missing variable)."""
            form, table, (url, key) = values[:n_form], values[n_form], values[n_form + 1:]
            return adapter_for(*fill_form(form, system_at, table, system_name)), url, key

        def begin_outputs(view: View, clears: str) -> tuple[Any, ...]:
            clear_draft = view.clear_draft and clears in ("draft", "both")
            clear_tool = view.clear_draft and clears in ("tool", "both")
            placeholder = REPLYING_PLACEHOLDER if view.session.ready else IDLE_PLACEHOLDER
            return (
                view.session,
                gr.update(value={"text": "", "files": []}, placeholder=placeholder) if clear_draft else gr.update(placeholder=placeholder),
                gr.update(value="") if clear_tool else gr.skip(),
                banner_update(view.error),
                banner_update(view.notice),
                gr.skip() if view.aside else view.metrics if (view.done or view.metrics) else "",
                gr.update(visible=view.pending_tool is not None),
                word(describe_pending(view.pending_tool)),
            )

        def view_outputs(view: View, clears: str, adapter: TurnAdapter | None) -> tuple[Any, ...]:
            return (*begin_outputs(view, clears), *Inspector.values(view.exchange),
                    *(extra(view, adapter) if extra else (gr.skip(),) * len(extra_outputs)))

        def begun(view: View, clears: str) -> tuple[Any, ...]:
            if view.aside:  # a note leaves the chat (and a reply arriving in it) alone
                return (gr.skip(), *begin_outputs(view, clears), *not_yet)
            view.session.shown = shown_history(view.history)
            return (view.session.shown, *begin_outputs(view, clears), *not_yet)

        def refused(error: GatewayError, state: Session) -> Begun:
            state.ready = False
            return View(list(state.shown), state, error=error_text(error), done=True), "none", None

        # The begin steps: each decides the screen and what to send, from the chat as the server
        # drew it (`state.shown`; the page's copy is not an input); `action` waits for a stopped
        # reply first and refuses (nothing sent) when the form or a variable cannot be sent.
        def on_send(draft: Any, state: Session, *values: Any) -> Begun:
            typed = text_of(draft)
            draft, target = fill_draft(draft, values[n_form]), split(values)
            state.typed = typed if typed.strip() else state.typed
            return conversation.begin_send(target[0], draft, state.shown, state), "draft", target

        def on_tool(text: str, state: Session, *values: Any) -> Begun:
            target = split(values)
            return conversation.begin_tool_result(target[0], text, state.shown, state), "tool", target

        def on_retry(state: Session, *values: Any) -> Begun:
            target = split(values)
            return conversation.begin_retry(state.shown, state), "draft", target

        def on_edit(evt: gr.EditData, state: Session, *values: Any) -> Begun:
            index = evt.index if isinstance(evt.index, int) else evt.index[0]
            target = split(values)
            return conversation.begin_edit(target[0], state.shown, state, index, flatten_text(evt.value)), "none", target

        def action(begin: Callable[..., Begun]) -> Callable[..., AsyncIterator[tuple[Any, ...]]]:
            """One event per action: the begin step's screen, then the reply drawn below it; the
            last update carries banners, metrics, inspector and extras. Stopped, the event ends
            without it: Stop draws the screen. Every action's inputs end with the session and
            `tail`."""
            @functools.wraps(begin)
            async def run(*args: Any) -> AsyncIterator[tuple[Any, ...]]:
                state = args[-len(tail) - 1]
                await after_stop(state)
                try:
                    view, clears, target = begin(*args)
                except GatewayError as error:
                    view, clears, target = refused(error, state)
                first = begun(view, clears)
                state = view.session
                if not state.ready or target is None:
                    yield first
                    return
                adapter, url, key = target
                stop = asyncio.Event()
                state.ready, state.replying, state.stop = False, True, stop
                turn = conversation.run_turn(adapter, defaults, url, key, list(state.shown), state, view.request)
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
                    yield (outcome.history, *view_outputs(outcome, "none", adapter))
                    # Gradio's closing message repeats each output's last value: after a last update
                    # of skips it repeats nothing, not the whole chat (issue 25: O(history) per send)
                    yield (gr.skip(), *streaming)
            return run

        async def on_stop(state: Session) -> tuple[Any, ...]:
            if not (state.ready or state.replying):  # nothing is running: Stop changes nothing
                return (gr.skip(),) * (5 + len(inspector.components))
            was_replying = state.replying
            state.ready = False
            if state.stop is not None:
                state.stop.set()
            await after_stop(state)  # the stopped reply is recorded: show it exactly as it is kept to be sent
            shown = state.shown = conversation.stopped(state.shown, state) if was_replying else settle_pending(state.shown)
            result, exchange = state.live or (None, None)
            metrics = metrics_text(result, exchange) + " · " + say("metrics.stopped") if result is not None else say("metrics.stopped")
            hidden = banner_update("")  # a note about the running reply (or an older error) is over now
            return (shown, gr.update(placeholder=IDLE_PLACEHOLDER), hidden, hidden, metrics, *Inspector.values(exchange))

        for trigger, begin, inputs in (
            (self.draft.submit, on_send, [self.draft, self.session, *tail]),
            (self.tool_send.click, on_tool, [self.tool_result, self.session, *tail]),
            (self.retry.click, on_retry, [self.session, *tail]),
            (self.chatbot.edit, on_edit, [self.session, *tail]),
        ):  # "multiple": a second send while a reply streams is answered with a note, not ignored
            trigger(action(begin), inputs, [self.chatbot, *ends], concurrency_limit=None, show_progress="hidden", trigger_mode="multiple")
        self.stop.click(on_stop, [self.session],
                        [self.chatbot, self.draft, self.error, self.notice, self.metrics, *inspector.components], queue=False)
        cleared_outputs = [self.chatbot, *ends]
        self.clear.click(lambda: (conversation.cleared().history, *view_outputs(conversation.cleared(), "both", None)), None,
                         cleared_outputs, queue=False)
        self.chatbot.clear(lambda: view_outputs(conversation.cleared(), "both", None), None, ends, queue=False)
