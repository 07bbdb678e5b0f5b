"""The Chat tab's layout: the shared conversation column plus chat-completions settings."""

from __future__ import annotations

from functools import partial

import gradio as gr

from playground.client import catalog
from playground.ui.tabs.chat import handlers
from playground.ui.tabs.chat.handlers import ChatForm
from playground.ui.tabs.context import TabContext, TabParts, each
from playground.ui.conversation.mcp_panel import McpPanel
from playground.ui.conversation.prompt_library import PromptLibrary
from playground.ui.conversation.prompt_panel import PromptPanel
from playground.ui.conversation.mock_panel import MockPanel
from playground.ui.conversation.panel import ConversationPanel
from playground.ui.shared.curl_panel import FormImport
from playground.ui.conversation.imported import sent_before
from playground.ui.shared.developer import developer_section
from playground.ui.shared.form_check import turn_check
from playground.ui.shared.examples import Example, ExampleRow, Said
from playground.ui.shared.forms import named_fields
from playground.ui.i18n import t
from playground.ui.shared.presets import PresetBar
from playground.ui.shared.schema_editor import SchemaEditor
from playground.ui.shared.schema_form import example_json
from playground.ui.session_files.panel import SessionFileBar
from playground.ui.shared.widgets import Inspector

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
    Example(t("chat.example.riddle"), t("chat.example.riddle_explains"),
            {"model": "gx-2.5-flash-thinking", "draft": {"text": Said("chat.example.riddle_message"), "files": []}}),
    Example(t("chat.example.weather"), t("chat.example.weather_explains"),
            {"tools_json": TOOLS_EXAMPLE, "tool_choice": "auto", "draft": {"text": Said("chat.example.weather_message"), "files": []}}),
    Example(t("chat.example.json"), t("chat.example.json_explains"),
            {"schema_json": SCHEMA_EXAMPLE, "draft": {"text": Said("chat.example.json_message"), "files": []}}),
    Example(t("chat.example.schema"), t("chat.example.schema_explains"),
            {"schema_json": example_json("chat"), "draft": {"text": Said("chat.example.schema_message"), "files": []}}),
    Example(t("chat.example.stop"), t("chat.example.stop_explains"),
            {"draft": {"text": Said("chat.example.stop_message"), "files": []}}),
]


def build_chat_tab(ctx: TabContext) -> TabParts:
    """Lay out the tab and wire its events; hands back the model picker (refreshed from the gateway)."""
    with gr.Row():
        with gr.Column(scale=3):
            panel = ConversationPanel.build("chat", t("chat.placeholder"))
            verdict = SchemaEditor.verdict_line("chat")
            examples = ExampleRow.build("chat", EXAMPLES, shows="chat-chatbot")
        with gr.Column(scale=2):
            model = gr.Dropdown(catalog.chat_model_ids(), value=DEFAULT_MODEL, label=t("chat.model"), allow_custom_value=True, elem_id="chat-model")
            system = gr.Textbox(label=t("chat.system"), lines=2, elem_id="chat-system")
            with gr.Row():
                stream = gr.Checkbox(True, label=t("chat.stream"), elem_id="chat-stream")
                stream_usage = gr.Checkbox(True, label=t("chat.usage"), elem_id="chat-stream-usage",
                                           info=t("chat.usage_info"))
            with gr.Accordion(t("chat.parameters"), open=False):
                temperature = gr.Slider(0, 2, value=0.7, step=0.05, label=t("chat.temperature"), elem_id="chat-temperature")
                top_p = gr.Slider(0, 1, value=1.0, step=0.01, label=t("chat.top_p"), elem_id="chat-top-p")
                max_tokens = gr.Number(0, label=t("chat.max_tokens"), elem_id="chat-max-tokens")
                effort = gr.Dropdown(["", "low", "medium", "high"], value="", label=t("chat.effort"), elem_id="chat-effort")
            with gr.Accordion(t("chat.tools_panel"), open=False):
                tools = gr.Code("", language="json", label=t("chat.tools"), interactive=True, elem_id="chat-tools")
                example_tools = gr.Button(t("chat.insert_tool"), size="sm", elem_id="chat-tools-example")
                tool_choice = gr.Dropdown(["auto", "none", "required"], value="auto", allow_custom_value=True, label=t("chat.tool_choice"), elem_id="chat-tool-choice")
                editor = SchemaEditor.build("chat", "chat", "chat.schema")
                schema = editor.json
            mcp = McpPanel.build("chat", ctx.defaults)
            library = PromptPanel.build("chat")
            mock = MockPanel.build("chat")
            with developer_section("chat"):
                extensions = gr.Code(
                    "", language="json", interactive=True, elem_id="chat-extensions",
                    label=t("chat.extensions"),
                )
            presets = PresetBar.build("chat")
            session_file = SessionFileBar.build("chat")
    inspector = Inspector.build("chat")
    form_inputs = [model, system, stream, temperature, top_p, max_tokens, tool_choice, tools, schema, extensions, effort, stream_usage]
    examples.wire({**named_fields(ChatForm, form_inputs), "draft": panel.draft})
    panel.wire(partial(handlers.chat_adapter, ctx.client), form_inputs, ctx.defaults, ctx.connection, inspector,
               extra=handlers.schema_line, extra_outputs=[verdict], system=system, prompts=ctx.prompts, prices=ctx.prices)
    editor.wire()
    mcp.wire(panel, tools, "chat", ctx.client.mcp, ctx.defaults)
    mock.wire(panel, tools, "chat")
    if ctx.presets is not None:
        presets.wire(ctx.presets, named_fields(ChatForm, form_inputs))
    fields = named_fields(ChatForm, form_inputs)
    check = turn_check(partial(handlers.chat_adapter_of, ctx.client))
    library.wire(fields, panel, PromptLibrary.of(ctx.settings), check)
    session_file.wire(fields, panel, check=check)

    ctx.imports.register(FormImport("chat", "Chat", ("chat",), [*form_inputs, *panel.imported], handlers.form_from_curl,
                                    tuple(fields), check, sent_before))
    example_tools.click(lambda: TOOLS_EXAMPLE, None, tools, queue=False)
    assert panel.variables is not None
    return TabParts(models=model, after_load=editor.after, after_language=partial(each, (editor.after, panel.variables.reword)),
                    conversation=panel)
