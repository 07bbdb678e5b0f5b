"""The Mocked tools panel of a text tab: declare a tool with its mock answer (fixed JSON, a template
over the arguments, or "ask me"), edit or remove it, a one-click example, and the log of the answers
the mocks gave; wired to `mock_tools.MockHandlers`."""

from __future__ import annotations

from dataclasses import dataclass

import gradio as gr

from playground.client.tools.mock import KINDS
from playground.ui.conversation.mock_tools import MockHandlers, MockState
from playground.ui.conversation.panel import ConversationPanel
from playground.ui.i18n import t


@dataclass
class MockPanel:
    prefix: str
    state: gr.State
    declared: gr.Dropdown
    name: gr.Textbox
    description: gr.Textbox
    parameters: gr.Code
    kind: gr.Radio
    answer: gr.Code
    save: gr.Button
    remove: gr.Button
    example: gr.Button
    status: gr.Markdown
    listing: gr.Code
    log: gr.Code

    @classmethod
    def build(cls, prefix: str) -> MockPanel:
        """Lay out the panel (call inside the tab's settings column)."""
        state = gr.State(MockState())
        with gr.Accordion(t("mock.panel"), open=False, elem_id=f"{prefix}-mock"):
            gr.Markdown(t("mock.explains"))
            example = gr.Button(t("mock.example"), size="sm", elem_id=f"{prefix}-mock-example")
            declared = gr.Dropdown([], value=None, label=t("mock.declared"), elem_id=f"{prefix}-mock-declared")
            name = gr.Textbox("", label=t("mock.name"), elem_id=f"{prefix}-mock-name")
            description = gr.Textbox("", label=t("mock.description"), elem_id=f"{prefix}-mock-description")
            parameters = gr.Code("", language="json", label=t("mock.parameters"), interactive=True, elem_id=f"{prefix}-mock-parameters")
            kind = gr.Radio([(t(f"mock.kind.{kind}"), kind) for kind in KINDS], value="template", label=t("mock.kind"),
                            elem_id=f"{prefix}-mock-kind")
            answer = gr.Code("", language="json", label=t("mock.answer"), interactive=True, elem_id=f"{prefix}-mock-answer")
            with gr.Row():
                save = gr.Button(t("mock.save"), size="sm", variant="primary", elem_id=f"{prefix}-mock-save")
                remove = gr.Button(t("mock.remove"), size="sm", variant="stop", elem_id=f"{prefix}-mock-remove")
            status = gr.Markdown(elem_id=f"{prefix}-mock-status")
            listing = gr.Code("", language="json", label=t("mock.listing"), interactive=False, elem_id=f"{prefix}-mock-json")
            log = gr.Code("", language="json", label=t("mock.log"), interactive=False, elem_id=f"{prefix}-mock-log")
        return cls(prefix, state, declared, name, description, parameters, kind, answer, save, remove, example, status, listing, log)

    def wire(self, conversation: ConversationPanel, tools_box: gr.Code, format: str) -> MockHandlers:
        """Connect the panel's events (after `conversation.wire`): a mock's answer goes through the
        conversation's own tool-result action; `tools_box` is the tab's tools field in `format`."""
        assert conversation.handlers is not None  # wire the conversation first
        handlers = MockHandlers(format, conversation.handlers)
        form = [self.name, self.description, self.parameters, self.kind, self.answer]
        written = [self.state, self.declared, tools_box, self.status, self.listing]
        self.save.click(handlers.save, [*form, self.state, tools_box], written, queue=False)
        self.remove.click(handlers.remove, [self.name, self.state, tools_box], written, queue=False)
        self.declared.input(handlers.pick, [self.declared, self.state], form, queue=False)
        self.example.click(handlers.example, [self.state, tools_box], [*form, *written, conversation.draft], queue=False)
        conversation.changed.append(conversation.tool_label.change(handlers.auto, [self.state, conversation.session, *conversation.action_inputs],
                                                                   [*conversation.action_outputs, self.status, self.log],
                                                                   concurrency_limit=None, show_progress="hidden"))
        return handlers
