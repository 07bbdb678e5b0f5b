"""The Responses tab's layout: the shared conversation column, responses settings (reasoning,
tools, web search), the two ways to continue a conversation, and file attachments."""

from __future__ import annotations

from functools import partial

import gradio as gr

from playground.client import catalog
from playground.ui.tabs.context import TabContext, TabParts, each
from playground.ui.conversation.mcp_panel import McpPanel
from playground.ui.conversation.prompt_library import PromptLibrary
from playground.ui.conversation.prompt_panel import PromptPanel
from playground.ui.conversation.mock_panel import MockPanel
from playground.ui.conversation.panel import ConversationPanel
from playground.ui.shared.curl_panel import FormImport
from playground.ui.conversation.imported import sent_before
from playground.ui.shared.developer import developer_section
from playground.ui.shared.examples import Example, ExampleRow, Said
from playground.ui.shared.form_check import turn_check
from playground.ui.shared.forms import named_fields
from playground.ui.i18n import choices, t
from playground.ui.shared.presets import PresetBar
from playground.ui.shared.schema_editor import SchemaEditor
from playground.ui.shared.schema_form import example_json
from playground.ui.tabs.responses import handlers
from playground.ui.tabs.responses.handlers import TOOL_FORMATS, ResponsesForm
from playground.ui.session_files.panel import SessionFileBar
from playground.ui.shared.widgets import Inspector

DEFAULT_MODEL = "o4-mini"
TOOLS_EXAMPLE = """[
  {"type": "function",
   "function": {"name": "get_weather", "description": "Current weather for a city",
                "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}
]"""
EXAMPLES = [
    Example(t("responses.example.summary"), t("responses.example.summary_explains"),
            {"model": "o4-mini", "summary": "auto", "draft": {"text": Said("responses.example.summary_message"), "files": []}}),
    Example(t("responses.example.chain"), t("responses.example.chain_explains"),
            {"model": "gpt-4.1", "summary": "", "chain": True, "draft": {"text": Said("responses.example.chain_message"), "files": []}}),
    Example(t("responses.example.search"), t("responses.example.search_explains"),
            {"model": "gpt-4.1", "summary": "", "web_search": True, "draft": {"text": Said("responses.example.search_message"), "files": []}}),
    Example(t("responses.example.weather"), t("responses.example.weather_explains"),
            {"model": "gpt-4.1", "summary": "", "tools_json": TOOLS_EXAMPLE, "draft": {"text": Said("responses.example.weather_message"), "files": []}}),
    Example(t("responses.example.schema"), t("responses.example.schema_explains"),
            {"model": "gpt-4.1", "summary": "", "schema_json": example_json("responses"),
             "draft": {"text": Said("chat.example.schema_message"), "files": []}}),
]


def _models() -> list[str]:
    return [info.id for info in catalog.CHAT_MODELS if "responses" in info.interfaces or info.reasoning]


def build_responses_tab(ctx: TabContext) -> TabParts:
    with gr.Row():
        with gr.Column(scale=3):
            panel = ConversationPanel.build("responses", t("responses.placeholder"),
                                            file_types=["image", ".pdf", ".txt", ".md", ".csv", ".json"])
            status = gr.Markdown(t("responses.chain_stateless"), elem_id="responses-chain-status", elem_classes=["metrics-line"])
            verdict = SchemaEditor.verdict_line("responses")
            examples = ExampleRow.build("responses", EXAMPLES, shows="responses-chatbot")
        with gr.Column(scale=2):
            model = gr.Dropdown(_models(), value=DEFAULT_MODEL, label=t("chat.model"), allow_custom_value=True, elem_id="responses-model")
            instructions = gr.Textbox(label=t("responses.instructions"), lines=2, elem_id="responses-instructions")
            with gr.Row():
                stream = gr.Checkbox(True, label=t("chat.stream"), elem_id="responses-stream")
                chain = gr.Checkbox(False, label=t("responses.chain"), elem_id="responses-chain",
                                    info=t("responses.chain_info"))
            with gr.Accordion(t("responses.reasoning"), open=False):
                gr.Markdown(t("responses.reasoning_note"))
                effort = gr.Dropdown(["", "none", "low", "medium", "high"], value="", label=t("responses.effort"), elem_id="responses-effort")
                summary = gr.Dropdown(["", "auto", "none", "detailed"], value="auto", label=t("responses.summary"), elem_id="responses-summary")
            with gr.Accordion(t("chat.parameters"), open=False):
                temperature = gr.Slider(0, 2, value=1.0, step=0.05, label=t("chat.temperature"), elem_id="responses-temperature")
                top_p = gr.Slider(0, 1, value=0.98, step=0.01, label=t("chat.top_p"), elem_id="responses-top-p")
                max_tokens = gr.Number(0, label=t("responses.max_tokens"), elem_id="responses-max-tokens")
            with gr.Accordion(t("responses.tools_panel"), open=False):
                tools = gr.Code("", language="json", label=t("responses.tools"), interactive=True, elem_id="responses-tools")
                tool_format = gr.Radio(choices(TOOL_FORMATS), value=TOOL_FORMATS[0], label=t("responses.tool_format"), elem_id="responses-tool-format")
                tool_choice = gr.Dropdown(["auto", "none"], value="auto", allow_custom_value=True, label=t("chat.tool_choice"), elem_id="responses-tool-choice")
                with gr.Row():
                    web_search = gr.Checkbox(False, label=t("responses.web_search"), elem_id="responses-web-search")
                    context_size = gr.Dropdown(["low", "medium", "high"], value="medium", label=t("responses.context_size"), elem_id="responses-context-size")
                editor = SchemaEditor.build("responses", "responses", "responses.schema")
            mcp = McpPanel.build("responses", ctx.defaults)
            library = PromptPanel.build("responses")
            mock = MockPanel.build("responses")
            with developer_section("responses"):
                extensions = gr.Code("", language="json", interactive=True, elem_id="responses-extensions",
                                     label=t("responses.extensions"))
            presets = PresetBar.build("responses")
            session_file = SessionFileBar.build("responses")
    inspector = Inspector.build("responses")
    form_inputs = [model, instructions, stream, temperature, top_p, max_tokens, effort, summary, tools, web_search, context_size,
                   tool_choice, tool_format, chain, extensions, editor.json]
    fields = named_fields(ResponsesForm, form_inputs)

    panel.wire(partial(handlers.responses_adapter, ctx.client), form_inputs, ctx.defaults, ctx.connection, inspector,
               extra=handlers.chain_line, extra_outputs=[status, verdict], system=instructions, prompts=ctx.prompts, prices=ctx.prices)
    editor.wire()
    mcp.wire(panel, tools, "responses", ctx.client.mcp, ctx.defaults)
    mock.wire(panel, tools, "responses")
    examples.wire({**fields, "draft": panel.draft})
    if ctx.presets is not None:
        presets.wire(ctx.presets, fields)
    check = turn_check(partial(handlers.responses_adapter_of, ctx.client))
    library.wire(fields, panel, PromptLibrary.of(ctx.settings), check)
    session_file.wire(fields, panel, check=check)

    ctx.imports.register(FormImport("responses", "Responses", ("responses",), [*form_inputs, *panel.imported], handlers.form_from_curl,
                                    tuple(fields), check, sent_before))
    chain.change(handlers.chain_changed, [chain, panel.session], status, queue=False)
    assert panel.variables is not None
    return TabParts(after_load=editor.after, after_language=partial(each, (editor.after, panel.variables.reword)),
                    conversation=panel)
