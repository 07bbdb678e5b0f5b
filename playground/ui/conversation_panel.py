"""The conversation column every text tab shares: chatbot, banners, tool-result panel, input,
Stop/Retry/Clear, metrics and inspector, wired to `conversation`'s handlers."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import gradio as gr

from playground.ui import conversation
from playground.ui.connection import ServerDefaults
from playground.ui.conversation import Session, TurnAdapter, View, describe_pending
from playground.ui.render import settle_pending
from playground.ui.widgets import Inspector, banner_update, error_banner, metrics_line, notice_banner

AdapterFactory = Callable[..., TurnAdapter]


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

    @classmethod
    def build(cls, prefix: str, placeholder: str) -> ConversationPanel:
        """Lay out the column (call inside a `gr.Column`)."""
        session = gr.State(Session())
        chatbot = gr.Chatbot(elem_id=f"{prefix}-chatbot", height=520, placeholder=placeholder)
        error = error_banner(prefix)
        notice = notice_banner(prefix)
        with gr.Group(visible=False, elem_id=f"{prefix}-tool-panel") as tool_panel:
            tool_label = gr.Markdown(elem_id=f"{prefix}-tool-call")
            tool_result = gr.Textbox(label="Tool result", lines=3, elem_id=f"{prefix}-tool-result", placeholder='e.g. {"temperature_c": 21}')
            tool_send = gr.Button("Send tool result and continue", variant="primary", elem_id=f"{prefix}-tool-send")
        draft = gr.MultimodalTextbox(
            elem_id=f"{prefix}-input", file_types=["image"], file_count="multiple", sources=["upload"], show_label=False,
            placeholder="Message (Enter to send; the clip attaches images)",
        )
        with gr.Row():
            stop = gr.Button("Stop", elem_id=f"{prefix}-stop", variant="stop")
            retry = gr.Button("Retry", elem_id=f"{prefix}-retry")
            clear = gr.Button("Clear", elem_id=f"{prefix}-clear")
        metrics = metrics_line(prefix)
        return cls(prefix, session, chatbot, error, notice, tool_panel, tool_label, tool_result, tool_send, draft, stop, retry, clear, metrics)

    def wire(
        self,
        adapter_for: AdapterFactory,
        form_inputs: list[Any],
        defaults: ServerDefaults,
        connection: list[gr.Textbox],
        inspector: Inspector,
        extra: Callable[[View, TurnAdapter | None], tuple[Any, ...]] | None = None,
        extra_outputs: list[Any] | None = None,
    ) -> None:
        """Connect the events. `adapter_for(*form_values)` builds the tab's adapter per call;
        `extra(view, adapter)` feeds tab-specific `extra_outputs` (e.g. a cache report)."""
        extra_outputs = extra_outputs or []
        outputs = [self.chatbot, self.session, self.draft, self.tool_result, self.error, self.notice, self.metrics,
                   self.tool_panel, self.tool_label, *inspector.components, *extra_outputs]

        def to_outputs(view: View, clears: str, adapter: TurnAdapter | None = None) -> tuple[Any, ...]:
            clear_draft = view.clear_draft and clears in ("draft", "both")
            clear_tool = view.clear_draft and clears in ("tool", "both")
            return (
                view.history,
                view.session,
                gr.update(value={"text": "", "files": []}) if clear_draft else gr.skip(),
                "" if clear_tool else gr.skip(),
                banner_update(view.error),
                banner_update(view.notice),
                view.metrics if (view.done or view.metrics) else gr.skip(),
                gr.update(visible=view.pending_tool is not None),
                describe_pending(view.pending_tool),
                *Inspector.values(view.exchange),
                *(extra(view, adapter) if extra else ()),
            )

        n_form = len(form_inputs)

        def split(values: tuple[Any, ...]) -> tuple[TurnAdapter, str, str]:
            form, (url, key) = values[:n_form], values[n_form:]
            return adapter_for(*form), url, key

        async def on_send(draft: Any, history: Any, state: Session, *values: Any) -> Any:
            adapter, url, key = split(values)
            async for view in conversation.send_message(adapter, defaults, draft, history, state, url, key):
                yield to_outputs(view, "draft", adapter)

        async def on_tool(text: str, history: Any, state: Session, *values: Any) -> Any:
            adapter, url, key = split(values)
            async for view in conversation.send_tool_result(adapter, defaults, text, history, state, url, key):
                yield to_outputs(view, "tool", adapter)

        async def on_retry(history: Any, state: Session, *values: Any) -> Any:
            adapter, url, key = split(values)
            async for view in conversation.retry_last(adapter, defaults, history, state, url, key):
                yield to_outputs(view, "draft", adapter)

        tail = [*form_inputs, *connection]
        send_event = self.draft.submit(on_send, [self.draft, self.chatbot, self.session, *tail], outputs, concurrency_limit=None)
        tool_event = self.tool_send.click(on_tool, [self.tool_result, self.chatbot, self.session, *tail], outputs, concurrency_limit=None)
        retry_event = self.retry.click(on_retry, [self.chatbot, self.session, *tail], outputs, concurrency_limit=None)
        self.stop.click(settle_pending, self.chatbot, self.chatbot, cancels=[send_event, tool_event, retry_event], queue=False)
        self.clear.click(lambda: to_outputs(conversation.cleared(), "both"), None, outputs, queue=False)
