"""The Chat tab's layout: the shared conversation column plus chat-completions settings."""

from __future__ import annotations

from typing import Any

import gradio as gr

from playground.client import catalog
from playground.client.curl_import import CurlRequest
from playground.ui.chat_handlers import ChatAdapter, ChatForm, chat_form_values
from playground.ui.context import TabContext
from playground.ui.conversation_panel import ConversationPanel
from playground.ui.curl_panel import FormImport, conversation_from
from playground.ui.developer import developer_section
from playground.ui.examples import Example, ExampleRow
from playground.ui.forms import named_fields
from playground.ui.presets import PresetBar
from playground.ui.session_file import SessionFileBar
from playground.ui.widgets import Inspector

TOOLS_EXAMPLE = """[
  {"type": "function",
   "function": {"name": "get_weather", "description": "Current weather for a city",
                "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}
]"""
DEFAULT_MODEL = "gx-2.5-flash"
SCHEMA_EXAMPLE = """{"type": "object",
 "properties": {"name": {"type": "string"}, "legs": {"type": "integer"}, "sound": {"type": "string"}},
 "required": ["name", "legs", "sound"]}"""
EXAMPLES = [
    Example("Ask a thinking model a riddle", "See the model reason in a **Thinking** section before it answers.",
            {"model": "gx-2.5-flash-thinking", "tools": "", "schema": "",
             "draft": {"text": "What has keys but can't open locks? Think it through.", "files": []}}),
    Example("Let the model call a weather tool", "The model asks for `get_weather`; you type the result and it answers with it.",
            {"model": DEFAULT_MODEL, "tools": TOOLS_EXAMPLE, "tool_choice": "auto", "schema": "",
             "draft": {"text": "What's the weather in Paris right now?", "files": []}}),
    Example("Answer as JSON", "Structured output: the reply follows a JSON Schema you give.",
            {"model": DEFAULT_MODEL, "tools": "", "schema": SCHEMA_EXAMPLE, "draft": {"text": "Describe a cat.", "files": []}}),
    Example("Stop a long answer", "A long reply: press **Stop** (or Esc) halfway; what arrived stays on screen.",
            {"model": DEFAULT_MODEL, "tools": "", "schema": "", "draft": {"text": "Write a long story about a lighthouse.", "files": []}}),
]


def build_chat_tab(ctx: TabContext) -> gr.Dropdown:
    """Lay out the tab and wire its events; returns the model picker (refreshed from the gateway)."""
    with gr.Row():
        with gr.Column(scale=3):
            panel = ConversationPanel.build("chat", "Send a message to start. Try a `-thinking` model to see reasoning.")
            examples = ExampleRow.build("chat", EXAMPLES)
        with gr.Column(scale=2):
            model = gr.Dropdown(catalog.chat_model_ids(), value=DEFAULT_MODEL, label="Model", allow_custom_value=True, elem_id="chat-model")
            system = gr.Textbox(label="System prompt", lines=2, elem_id="chat-system")
            with gr.Row():
                stream = gr.Checkbox(True, label="Stream the reply", elem_id="chat-stream")
                stream_usage = gr.Checkbox(True, label="Ask for usage in the stream", elem_id="chat-stream-usage",
                                           info="stream_options.include_usage: OpenAI-style gateways send token counts only when asked")
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
            with developer_section("chat"):
                extensions = gr.Code(
                    "", language="json", interactive=True, elem_id="chat-extensions",
                    label="JSON object with any of: thinking, enable_thinking, svc_thinking_to_content, parameters, extra_body, generationConfig, web_search_options, search_parameters",
                )
            presets = PresetBar.build("chat")
            session_file = SessionFileBar.build("chat")
    examples.wire({"model": model, "tools": tools, "tool_choice": tool_choice, "schema": schema, "draft": panel.draft})
    inspector = Inspector.build("chat")
    form_inputs = [model, system, stream, temperature, top_p, max_tokens, tool_choice, tools, schema, extensions, effort, stream_usage]
    panel.wire(lambda *form: ChatAdapter(ctx.client, ChatForm(*form)), form_inputs, ctx.defaults, ctx.connection, inspector)
    if ctx.presets is not None:
        presets.wire(ctx.presets, named_fields(ChatForm, form_inputs))
    session_file.wire(named_fields(ChatForm, form_inputs), panel.chatbot, panel.session)

    def from_curl(request: CurlRequest) -> list[Any]:
        values = chat_form_values(request.body)
        draft, history, session = conversation_from(request.body.get("messages") or [])
        return [*values.values(), draft, history, session]

    ctx.imports.register(FormImport("chat", "Chat", ("chat",), [*form_inputs, panel.draft, panel.chatbot, panel.session], from_curl))
    example_tools.click(lambda: TOOLS_EXAMPLE, None, tools, queue=False)
    return model
