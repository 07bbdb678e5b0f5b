"""The MCP panel of a text tab: the server's address and credential, Connect, the tools with
their schemas and which to offer, the review of a call (arguments to edit, Approve, Refuse), the
MCP exchanges, and a one-click example; wired to `mcp_tools.McpHandlers`."""

from __future__ import annotations

from dataclasses import dataclass

import gradio as gr

from playground.client.mcp.session import MCPLink
from playground.ui.conversation.mcp_tools import McpHandlers, McpState
from playground.ui.conversation.panel import ConversationPanel
from playground.ui.i18n import t
from playground.ui.shared.connection import ServerDefaults


@dataclass
class McpPanel:
    prefix: str
    state: gr.State
    url: gr.Textbox
    token: gr.Textbox
    header: gr.Textbox
    connect: gr.Button
    example: gr.Button
    status: gr.Markdown
    picker: gr.CheckboxGroup
    offer: gr.Button
    schemas: gr.Code
    review: gr.Group
    review_label: gr.Markdown
    arguments: gr.Code
    approve: gr.Button
    refuse: gr.Button
    exchanges: gr.Code

    @classmethod
    def build(cls, prefix: str, defaults: ServerDefaults) -> McpPanel:
        """Lay out the panel (call inside the tab's settings column)."""
        state = gr.State(McpState())
        with gr.Accordion(t("mcp.panel"), open=False, elem_id=f"{prefix}-mcp"):
            gr.Markdown(t("mcp.explains_demo") if defaults.mcp_demo else t("mcp.explains"))
            built_in = defaults.hosted and defaults.mcp_demo  # its address is the server's own: nothing a visitor can use
            url = gr.Textbox("" if built_in else defaults.mcp_url, label=t("mcp.address"), elem_id=f"{prefix}-mcp-url",
                             placeholder=t("mcp.built_in_address") if built_in else None)
            with gr.Row():
                token = gr.Textbox("", label=t("mcp.token"), type="password", elem_id=f"{prefix}-mcp-token")
                header = gr.Textbox("", label=t("mcp.header"), elem_id=f"{prefix}-mcp-header")
            with gr.Row():
                connect = gr.Button(t("mcp.connect"), size="sm", elem_id=f"{prefix}-mcp-connect")
                example = gr.Button(t("mcp.example"), size="sm", elem_id=f"{prefix}-mcp-example")
            status = gr.Markdown(elem_id=f"{prefix}-mcp-status")
            picker = gr.CheckboxGroup([], label=t("mcp.tools"), elem_id=f"{prefix}-mcp-tools")
            offer = gr.Button(t("mcp.offer"), size="sm", variant="primary", elem_id=f"{prefix}-mcp-offer")
            schemas = gr.Code("", language="json", label=t("mcp.schemas"), interactive=False, elem_id=f"{prefix}-mcp-schemas")
            with gr.Group(visible=False, elem_id=f"{prefix}-mcp-review") as review:
                review_label = gr.Markdown(elem_id=f"{prefix}-mcp-call")
                arguments = gr.Code("", language="json", label=t("mcp.arguments"), interactive=True, elem_id=f"{prefix}-mcp-arguments")
                with gr.Row():
                    approve = gr.Button(t("mcp.approve"), variant="primary", elem_id=f"{prefix}-mcp-approve")
                    refuse = gr.Button(t("mcp.refuse"), variant="stop", elem_id=f"{prefix}-mcp-refuse")
            exchanges = gr.Code("", language="json", label=t("mcp.exchanges"), interactive=False, elem_id=f"{prefix}-mcp-exchanges")
        return cls(prefix, state, url, token, header, connect, example, status, picker, offer, schemas, review, review_label, arguments,
                   approve, refuse, exchanges)

    def wire(self, conversation: ConversationPanel, tools_box: gr.Code, format: str, link: MCPLink, defaults: ServerDefaults) -> McpHandlers:
        """Connect the panel's events (after `conversation.wire`): its tool results go through the
        conversation's own tool-result action; `tools_box` is the tab's tools field in `format`."""
        assert conversation.handlers is not None  # wire the conversation first
        handlers = McpHandlers(link, defaults, format, conversation.handlers)
        address = [self.url, self.token, self.header]
        listed = [self.state, self.picker, self.schemas, self.status, self.exchanges]
        self.connect.click(handlers.connect, [*address, self.state], listed, concurrency_limit=None)
        self.example.click(handlers.example, [*address, self.state, tools_box], [*listed, tools_box, conversation.draft], concurrency_limit=None)
        self.offer.click(handlers.offer, [self.picker, self.state, tools_box], [tools_box, self.status], queue=False)
        conversation.tool_label.change(handlers.review, [conversation.session, self.state], [self.review, self.review_label, self.arguments],
                                       queue=False)
        answered = [*conversation.action_outputs, self.review, self.review_label, self.arguments, self.status, self.exchanges]
        conversation.changed += [
            self.approve.click(handlers.approve, [self.arguments, self.state, conversation.session, *conversation.action_inputs], answered,
                               concurrency_limit=None, show_progress="hidden"),
            self.refuse.click(handlers.refuse, [self.state, conversation.session, *conversation.action_inputs], answered,
                              concurrency_limit=None, show_progress="hidden")]
        return handlers
