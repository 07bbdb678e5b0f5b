"""The conversation column every text tab shares: chatbot, banners, tool-result panel, input,
Stop/Retry/Clear, metrics and inspector, wired to `conversation_handlers`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import gradio as gr

from playground import gradio_compat
from playground.ui.conversation import draft_keys
from playground.ui.conversation.branches import BranchBar
from playground.ui.conversation.chatbot import Chatbot
from playground.ui.shared.connection import ServerDefaults
from playground.ui.conversation.turns import Session
from playground.ui.conversation.handlers import (
    BEGIN_OUTPUTS,
    IDLE_PLACEHOLDER,
    STOP_OUTPUTS,
    AdapterFactory,
    ConversationHandlers,
    Extra,
)
from playground.ui.i18n import english, t
from playground.ui.shared.prices import SessionPrices
from playground.ui.conversation.prompt_move import PromptRegistry, PromptSource
from playground.ui.conversation.template_vars import VariablesPanel
from playground.ui.shared.widgets import Inspector, banner_update, error_banner, metrics_line, notice_banner


def box_name(system: Any | None) -> str:
    """How a refusal names the tab's system prompt box."""
    label_key = gradio_compat.translation_key(getattr(system, "label", None))
    return f"the “{english(label_key)}” box" if label_key is not None else "the system prompt"


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
    handlers: ConversationHandlers | None = None
    """The handlers `wire` connected (the MCP panel sends its tool results through them)."""
    action_inputs: list[Any] = field(default_factory=list)
    """What an action reads after its own value and the session: the form, the Variables table, base URL and key."""
    action_outputs: list[Any] = field(default_factory=list)
    """What an action writes: the chatbot, `BEGIN_OUTPUTS`, the inspector and the tab's extras."""
    changed: list[Any] = field(default_factory=list)
    """The events after which the conversation may differ (this panel's, its branch bar's, and those the tab's
    tool panels, session file and curl import add): what the browser keeps is written again after each."""

    @property
    def imported(self) -> list[Any]:
        """The components an imported conversation fills (`imported.panel_values`)."""
        return [self.draft, self.chatbot, self.session, self.metrics]

    @classmethod
    def build(cls, prefix: str, placeholder: str, file_types: list[str] | None = None) -> ConversationPanel:
        """Lay out the column (call inside a `gr.Column`)."""
        session = gr.State(Session())
        chatbot = Chatbot(elem_id=f"{prefix}-chatbot", height=520, placeholder=placeholder, editable="user", label=t("conversation.chatbot"),
                          show_label=False)  # named for screen readers; a label drawn over the chat covered its first line
        error = error_banner(prefix)
        notice = notice_banner(prefix)
        with gr.Group(visible=False, elem_id=f"{prefix}-tool-panel") as tool_panel:
            tool_label = gr.Markdown("", elem_id=f"{prefix}-tool-call")  # empty, as a send writes it: no `change` at a first send
            tool_result = gr.Textbox(label=t("conversation.tool_result"), lines=3, elem_id=f"{prefix}-tool-result", placeholder=t("conversation.tool_example"))
            tool_send = gr.Button(t("conversation.tool_send"), variant="primary", elem_id=f"{prefix}-tool-send")
        draft = gr.MultimodalTextbox(
            elem_id=f"{prefix}-input", file_types=file_types or ["image"], file_count="multiple", sources=["upload"], show_label=False, label=t("conversation.message"),
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
        extra: Extra | None = None,
        extra_outputs: list[Any] | None = None,
        system: Any | None = None,
        prompts: PromptRegistry | None = None,
        prices: SessionPrices | None = None,
    ) -> None:
        """Connect the events to `ConversationHandlers` (see there). `adapter_for(*form_values)`
        builds the tab's adapter per call; `extra(view, adapter)` feeds tab-specific
        `extra_outputs` (e.g. a cache report). `system` (one of `form_inputs`: the system prompt or
        instructions box) has its `{{name}}` placeholders filled from the Variables panel, like the
        message, before any request; with `prompts`, "Send to Batch" moves both templates and the
        values to the Batch tab. One event per action instead of three saves two requests and
        two rounds of input processing per send (issue 25)."""
        extra_outputs = extra_outputs or []
        self.changed += self.branches.wire(self.chatbot, self.session, self.notice, self.error, banner_update)
        assert self.variables is not None
        self.variables.watch(self.draft, system, self.session)
        if prompts is not None and system is not None and self.to_batch is not None:
            prompts.add(PromptSource(self.prefix, self.to_batch, self.draft, system, self.variables.table, self.variables.group,
                                     self.session))
        handlers = ConversationHandlers(adapter_for, defaults, len(form_inputs), form_inputs.index(system) if system is not None else None,
                                        box_name(system), extra, len(extra_outputs), prices)
        tail = [*form_inputs, self.variables.table, *connection]
        outputs = [self.chatbot, *(getattr(self, name) for name in BEGIN_OUTPUTS), *inspector.components, *extra_outputs]
        self.handlers, self.action_inputs, self.action_outputs = handlers, tail, outputs
        for trigger, handler, inputs, js in (
            (self.draft.submit, handlers.send, [self.draft, self.session, *tail], draft_keys.record_js(self.prefix)),
            (self.tool_send.click, handlers.tool_result, [self.tool_result, self.session, *tail], None),
            (self.retry.click, handlers.retry, [self.session, *tail], None),
            (self.chatbot.edit, handlers.edit, [self.session, *tail], None),
        ):  # "multiple": a second send while a reply streams is answered with a note, not ignored
            self.changed.append(trigger(handler, inputs, outputs, concurrency_limit=None, show_progress="hidden", trigger_mode="multiple", js=js))
        self.stop.click(handlers.stop, [self.session], [*(getattr(self, name) for name in STOP_OUTPUTS), *inspector.components], queue=False)
        self.changed += [self.clear.click(handlers.clear, None, outputs, queue=False),
                         self.chatbot.clear(handlers.chatbot_cleared, None, outputs[1:], queue=False)]
