"""The Messages tab's layout: the shared conversation column, messages settings, a live token
count and the prompt-cache lab."""

from __future__ import annotations

from functools import partial
from typing import Any

import gradio as gr

from playground.client import catalog
from playground.ui.tabs.context import TabContext, TabParts
from playground.ui.conversation import draft_keys
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
from playground.ui.i18n import t
from playground.ui.shared.presets import PresetBar
from playground.ui.session_files.panel import SessionFileBar
from playground.ui.tabs.messages import handlers
from playground.ui.tabs.messages.handlers import MessagesForm
from playground.ui.shared.widgets import Inspector

LONG_DOCUMENT = " ".join(f"Section {i}: the gateway routes each request to the model family named by its model id." for i in range(1, 101))
TOOLS_EXAMPLE = """[{"name": "get_weather", "description": "Current weather for a city",
  "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}]"""
EXAMPLES = [
    Example(t("messages.example.think"), t("messages.example.think_explains"),
            {"thinking": True, "budget_tokens": 2048, "draft": {"text": Said("chat.example.riddle_message"), "files": []}}),
    Example(t("messages.example.cache"), t("messages.example.cache_explains"),
            {"system": LONG_DOCUMENT, "cache_system": True, "draft": {"text": Said("messages.example.cache_message"), "files": []}}),
    Example(t("chat.example.weather"), t("messages.example.weather_explains"),
            {"tools_json": TOOLS_EXAMPLE, "draft": {"text": Said("chat.example.weather_message"), "files": []}}),
    Example(t("responses.example.search"), t("messages.example.search_explains"),
            {"web_search": True, "draft": {"text": Said("messages.example.search_message"), "files": []}}),
]
THINKING_ADVICE = t("messages.thinking_advice")


def _tools() -> tuple[Any, ...]:
    """The tools accordion: (tools JSON, web search, max uses, city, country, tool choice, no parallel calls)."""
    with gr.Accordion(t("responses.tools_panel"), open=False):
        tools = gr.Code("", language="json", interactive=True, elem_id="messages-tools",
                        label=t("messages.tools"))
        web_search = gr.Checkbox(False, label=t("messages.web_search"), elem_id="messages-web-search")
        with gr.Row():
            max_uses = gr.Number(None, label=t("messages.max_uses"), elem_id="messages-max-uses")
            city = gr.Textbox(label=t("messages.city"), elem_id="messages-city")
            country = gr.Textbox(label=t("messages.country"), elem_id="messages-country")
        tool_choice = gr.Dropdown(["auto", "any", "none"], value="auto", allow_custom_value=True, label=t("chat.tool_choice"), elem_id="messages-tool-choice")
        disable_parallel = gr.Checkbox(False, label=t("messages.parallel"), elem_id="messages-disable-parallel")
    return tools, web_search, max_uses, city, country, tool_choice, disable_parallel


def _cache_lab() -> tuple[Any, ...]:
    """The prompt-cache lab: (cache the system prompt, cache the last message, cache type, fill button, report)."""
    with gr.Accordion(t("messages.cache_lab"), open=False, elem_id="messages-cache-lab"):
        gr.Markdown(t("messages.cache_note"))
        cache_system = gr.Checkbox(False, label=t("messages.cache_system"), elem_id="messages-cache-system")
        cache_last = gr.Checkbox(False, label=t("messages.cache_last"), elem_id="messages-cache-last")
        cache_type = gr.Radio(["ephemeral", "persistent"], value="ephemeral", label=t("messages.cache_type"), elem_id="messages-cache-type")
        fill = gr.Button(t("messages.fill"), size="sm", elem_id="messages-fill-document")
        report = gr.Markdown(t("messages.say.send_message_cache_breakpoint_then"), elem_id="messages-cache-report")  # `cache_report` before any usage
    return cache_system, cache_last, cache_type, fill, report


def build_messages_tab(ctx: TabContext) -> TabParts:
    with gr.Row():
        with gr.Column(scale=3):
            panel = ConversationPanel.build("messages", t("messages.placeholder"))
            token_count = gr.Markdown(elem_id="messages-token-count", elem_classes=["metrics-line"])
            draft_key = draft_keys.key_box("messages-draft-key")  # the count asks the server when the message changes, not when a send empties it
            examples = ExampleRow.build("messages", EXAMPLES, shows="messages-chatbot")
        with gr.Column(scale=2):
            model = gr.Dropdown(list(catalog.MESSAGES_MODELS), value=catalog.MESSAGES_MODELS[0], label=t("chat.model"), allow_custom_value=True, elem_id="messages-model")
            system = gr.Textbox(label=t("chat.system"), lines=3, max_lines=8, elem_id="messages-system")
            max_tokens = gr.Number(4096, label=t("messages.max_tokens"), elem_id="messages-max-tokens")
            stream = gr.Checkbox(True, label=t("chat.stream"), elem_id="messages-stream")
            with gr.Group():
                thinking = gr.Checkbox(False, label=t("messages.thinking"), elem_id="messages-thinking", info=THINKING_ADVICE)
                budget = gr.Number(2048, label=t("messages.budget"), elem_id="messages-budget")
            with gr.Accordion(t("messages.sampling"), open=False):
                temperature = gr.Slider(0, 1, value=1.0, step=0.05, label=t("chat.temperature"), elem_id="messages-temperature")
                top_p = gr.Slider(0, 1, value=1.0, step=0.01, label=t("chat.top_p"), elem_id="messages-top-p")
                top_k = gr.Number(0, label=t("messages.top_k"), elem_id="messages-top-k")
                stops = gr.Textbox(label=t("messages.stops"), elem_id="messages-stops")
            tools, web_search, max_uses, city, country, tool_choice, disable_parallel = _tools()
            mcp = McpPanel.build("messages", ctx.defaults)
            library = PromptPanel.build("messages")
            mock = MockPanel.build("messages")
            cache_system, cache_last, cache_type, fill, report = _cache_lab()
            with developer_section("messages"):
                extensions = gr.Code("", language="json", interactive=True, elem_id="messages-extensions",
                                     label=t("messages.extensions"))
            presets = PresetBar.build("messages")
            session_file = SessionFileBar.build("messages")
    inspector = Inspector.build("messages")

    form_inputs = [model, system, cache_system, cache_last, cache_type, max_tokens, stream, temperature, top_p, top_k, stops,
                   thinking, budget, tools, web_search, max_uses, city, country, tool_choice, disable_parallel, extensions]
    examples.wire({**named_fields(MessagesForm, form_inputs), "draft": panel.draft})

    if ctx.presets is not None:
        presets.wire(ctx.presets, named_fields(MessagesForm, form_inputs))
    fields = named_fields(MessagesForm, form_inputs)
    check = turn_check(partial(handlers.messages_adapter_of, ctx.client))
    library.wire(fields, panel, PromptLibrary.of(ctx.settings), check)
    session_file.wire(fields, panel, check=check)

    ctx.imports.register(FormImport("messages", "Messages", ("messages", "count_tokens"),
                                    [*form_inputs, *panel.imported], handlers.form_from_curl,
                                    tuple(fields), check, sent_before))

    panel.wire(partial(handlers.messages_adapter, ctx.client), form_inputs, ctx.defaults, ctx.connection, inspector,
               extra=handlers.lab_report, extra_outputs=[report], system=system, prompts=ctx.prompts, prices=ctx.prices)
    mcp.wire(panel, tools, "messages", ctx.client.mcp, ctx.defaults)
    mock.wire(panel, tools, "messages")

    counting = handlers.MessagesHandlers(ctx.client, ctx.defaults, form_inputs.index(system))
    assert panel.variables is not None
    count_inputs = [panel.draft, panel.session, panel.variables.table, *ctx.connection, *form_inputs]
    draft_keys.watch_draft("messages", panel.draft, draft_key)
    triggers = [draft_key.change, panel.variables.table.change, system.change, tools.change, model.change, cache_system.change, cache_last.change, web_search.change]
    gr.on(triggers, counting.count_tokens, count_inputs, token_count, trigger_mode="always_last", concurrency_limit=None, show_progress="hidden")
    fill.click(lambda: (LONG_DOCUMENT, True), None, [system, cache_system], queue=False)
    return TabParts(after_language=panel.variables.reword,  # the Variables table's headings in the new language
                    conversation=panel)
