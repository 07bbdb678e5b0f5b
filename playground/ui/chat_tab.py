"""The Chat tab's layout and wiring (behaviour lives in `chat_handlers`)."""

from __future__ import annotations

from typing import Any

import gradio as gr

from playground.client import catalog
from playground.client.gateway import GatewayClient
from playground.ui.chat_handlers import ChatForm, ChatSession, ChatView, clear_chat, describe_pending, retry_last, send_message, send_tool_result
from playground.ui.connection import ServerDefaults
from playground.ui.widgets import Inspector, banner_update, error_banner, metrics_line, notice_banner

TOOLS_EXAMPLE = """[
  {"type": "function",
   "function": {"name": "get_weather", "description": "Current weather for a city",
                "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}
]"""
DEFAULT_MODEL = "gx-2.5-flash"


def build_chat_tab(client: GatewayClient, defaults: ServerDefaults, url_box: gr.Textbox, key_box: gr.Textbox) -> gr.Dropdown:
    """Lay out the tab and wire its events; returns the model picker (refreshed from the gateway)."""
    session = gr.State(ChatSession())
    with gr.Row():
        with gr.Column(scale=3):
            chatbot = gr.Chatbot(elem_id="chat-chatbot", height=520, placeholder="Send a message to start. Try a `-thinking` model to see reasoning.")
            error = error_banner("chat")
            notice = notice_banner("chat")
            with gr.Group(visible=False, elem_id="chat-tool-panel") as tool_panel:
                tool_label = gr.Markdown(elem_id="chat-tool-call")
                tool_result = gr.Textbox(label="Tool result", lines=3, elem_id="chat-tool-result", placeholder='e.g. {"temperature_c": 21}')
                tool_send = gr.Button("Send tool result and continue", variant="primary", elem_id="chat-tool-send")
            draft = gr.MultimodalTextbox(
                elem_id="chat-input", file_types=["image"], sources=["upload"], placeholder="Message (Enter to send; the clip attaches images)", show_label=False
            )
            with gr.Row():
                stop = gr.Button("Stop", elem_id="chat-stop", variant="stop")
                retry = gr.Button("Retry", elem_id="chat-retry")
                clear = gr.Button("Clear", elem_id="chat-clear")
            metrics = metrics_line("chat")
        with gr.Column(scale=2):
            model = gr.Dropdown(catalog.chat_model_ids(), value=DEFAULT_MODEL, label="Model", allow_custom_value=True, elem_id="chat-model")
            system = gr.Textbox(label="System prompt", lines=2, elem_id="chat-system")
            stream = gr.Checkbox(True, label="Stream the reply", elem_id="chat-stream")
            with gr.Accordion("Parameters", open=False):
                temperature = gr.Slider(0, 2, value=0.7, step=0.05, label="temperature", elem_id="chat-temperature")
                top_p = gr.Slider(0, 1, value=1.0, step=0.01, label="top_p", elem_id="chat-top-p")
                max_tokens = gr.Number(0, label="max_tokens (0 = not set)", precision=0, elem_id="chat-max-tokens")
                effort = gr.Dropdown(["", "low", "medium", "high"], value="", label="reasoning_effort", elem_id="chat-effort")
            with gr.Accordion("Tools and structured output", open=False):
                tools = gr.Code("", language="json", label="tools (JSON array; empty = no tools)", interactive=True, elem_id="chat-tools")
                example_tools = gr.Button("Insert an example tool", size="sm", elem_id="chat-tools-example")
                tool_choice = gr.Dropdown(["auto", "none", "required"], value="auto", allow_custom_value=True, label="tool_choice (or a tool name)", elem_id="chat-tool-choice")
                schema = gr.Code("", language="json", label="response_format json_schema (a JSON Schema; empty = free text)", interactive=True, elem_id="chat-schema")
            with gr.Accordion("Extension fields", open=False):
                extensions = gr.Code(
                    "", language="json", interactive=True, elem_id="chat-extensions",
                    label="JSON object with any of: thinking, enable_thinking, svc_thinking_to_content, parameters, extra_body, generationConfig, web_search_options, search_parameters",
                )
    inspector = Inspector.build("chat")

    form_inputs = [model, system, stream, temperature, top_p, max_tokens, tool_choice, tools, schema, extensions, effort]
    outputs = [chatbot, session, draft, tool_result, error, notice, metrics, tool_panel, tool_label, *inspector.components]

    def to_outputs(view: ChatView, clears: str) -> tuple[Any, ...]:
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
        )

    async def on_send(draft_value: Any, history: Any, state: ChatSession, url: str, key: str, *form: Any) -> Any:
        async for view in send_message(client, defaults, draft_value, history, state, url, key, ChatForm(*form)):
            yield to_outputs(view, "draft")

    async def on_tool(result_text: str, history: Any, state: ChatSession, url: str, key: str, *form: Any) -> Any:
        async for view in send_tool_result(client, defaults, result_text, history, state, url, key, ChatForm(*form)):
            yield to_outputs(view, "tool")

    async def on_retry(history: Any, state: ChatSession, url: str, key: str, *form: Any) -> Any:
        async for view in retry_last(client, defaults, history, state, url, key, ChatForm(*form)):
            yield to_outputs(view, "draft")

    connection = [url_box, key_box]
    send_event = draft.submit(on_send, [draft, chatbot, session, *connection, *form_inputs], outputs, concurrency_limit=None)
    tool_event = tool_send.click(on_tool, [tool_result, chatbot, session, *connection, *form_inputs], outputs, concurrency_limit=None)
    retry_event = retry.click(on_retry, [chatbot, session, *connection, *form_inputs], outputs, concurrency_limit=None)
    stop.click(None, cancels=[send_event, tool_event, retry_event])
    example_tools.click(lambda: TOOLS_EXAMPLE, None, tools, queue=False)
    clear.click(lambda: to_outputs(clear_chat(), "both"), None, outputs, queue=False)
    return model
