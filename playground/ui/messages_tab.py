"""The Messages tab's layout: the shared conversation column, messages settings, a live token
count and the prompt-cache lab."""

from __future__ import annotations

from typing import Any

import gradio as gr

from playground.client import catalog
from playground.client.curl_import import CurlRequest
from playground.ui.context import TabContext
from playground.ui.conversation import Session, TurnAdapter, View
from playground.ui.conversation_panel import ConversationPanel
from playground.ui.curl_panel import FormImport, conversation_from
from playground.ui.developer import developer_section
from playground.ui.examples import Example, ExampleRow
from playground.ui.forms import named_fields
from playground.ui.presets import PresetBar
from playground.ui.session_file import SessionFileBar
from playground.ui.messages_handlers import MessagesAdapter, MessagesForm, cache_report, count_draft_tokens, messages_form_values
from playground.ui.widgets import Inspector

LONG_DOCUMENT = " ".join(f"Section {i}: the gateway routes each request to the model family named by its model id." for i in range(1, 101))
TOOLS_EXAMPLE = """[{"name": "get_weather", "description": "Current weather for a city",
  "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}]"""
EXAMPLES = [
    Example("Think before answering", "Extended thinking: the model's reasoning appears in a **Thinking** section.",
            {"thinking": True, "budget": 2048, "draft": {"text": "What has keys but can't open locks? Think it through.", "files": []}}),
    Example("Cache a long document and ask twice", "Send, then press **Retry**: the second request reads the cached document (90% cheaper).",
            {"system": LONG_DOCUMENT, "cache_system": True, "draft": {"text": "Summarise the document in one sentence.", "files": []}}),
    Example("Let the model call a weather tool", "The model asks for `get_weather`; you type the result and it answers with it.",
            {"tools": TOOLS_EXAMPLE, "draft": {"text": "What's the weather in Paris right now?", "files": []}}),
    Example("Search the web", "The built-in web search tool: the answer cites what it found.",
            {"web_search": True, "draft": {"text": "What happened in AI this week?", "files": []}}),
]
THINKING_ADVICE = "With thinking on, the spec recommends temperature 1.0 and top_p 0; budget_tokens must be greater than 1024 and below max_tokens."


def build_messages_tab(ctx: TabContext) -> None:
    with gr.Row():
        with gr.Column(scale=3):
            panel = ConversationPanel.build("messages", "Messages format (`cl` models). Turn on thinking, try tools, or open the prompt-cache lab.")
            token_count = gr.Markdown(elem_id="messages-token-count", elem_classes=["metrics-line"])
            examples = ExampleRow.build("messages", EXAMPLES)
        with gr.Column(scale=2):
            model = gr.Dropdown(list(catalog.MESSAGES_MODELS), value=catalog.MESSAGES_MODELS[0], label="Model", allow_custom_value=True, elem_id="messages-model")
            system = gr.Textbox(label="System prompt", lines=3, max_lines=8, elem_id="messages-system")
            max_tokens = gr.Number(4096, label="max_tokens (required, > 0)", precision=0, elem_id="messages-max-tokens")
            stream = gr.Checkbox(True, label="Stream the reply", elem_id="messages-stream")
            with gr.Group():
                thinking = gr.Checkbox(False, label="Extended thinking", elem_id="messages-thinking", info=THINKING_ADVICE)
                budget = gr.Number(2048, label="budget_tokens", precision=0, elem_id="messages-budget")
            with gr.Accordion("Sampling and stop sequences", open=False):
                temperature = gr.Slider(0, 1, value=1.0, step=0.05, label="temperature", elem_id="messages-temperature")
                top_p = gr.Slider(0, 1, value=1.0, step=0.01, label="top_p", elem_id="messages-top-p")
                top_k = gr.Number(0, label="top_k (0 = not set)", precision=0, elem_id="messages-top-k")
                stops = gr.Textbox(label="stop_sequences (one per line or comma separated)", elem_id="messages-stops")
            with gr.Accordion("Tools", open=False):
                tools = gr.Code("", language="json", interactive=True, elem_id="messages-tools",
                                label='function tools (JSON array of {"name", "description", "input_schema"})')
                web_search = gr.Checkbox(False, label="Web search tool (web_search_20250305)", elem_id="messages-web-search")
                with gr.Row():
                    max_uses = gr.Number(None, label="max_uses (2-10 suggested)", precision=0, elem_id="messages-max-uses")
                    city = gr.Textbox(label="user_location city", elem_id="messages-city")
                    country = gr.Textbox(label="country", elem_id="messages-country")
                tool_choice = gr.Dropdown(["auto", "any", "none"], value="auto", allow_custom_value=True, label="tool_choice (or a tool name)", elem_id="messages-tool-choice")
                disable_parallel = gr.Checkbox(False, label="disable_parallel_tool_use", elem_id="messages-disable-parallel")
            with gr.Accordion("Prompt-cache lab", open=False, elem_id="messages-cache-lab"):
                gr.Markdown(
                    "Mark cache breakpoints, send, then send again: the first request writes the prefix to the cache "
                    "(creation tokens), later identical prefixes read it (read tokens, 90% cheaper). Prefixes below "
                    "1024 tokens (2048 for haiku) are not cached; `ephemeral` lasts 5 minutes, `persistent` 1 hour."
                )
                cache_system = gr.Checkbox(False, label="Cache breakpoint on the system prompt", elem_id="messages-cache-system")
                cache_last = gr.Checkbox(False, label="Cache breakpoint on the last message", elem_id="messages-cache-last")
                cache_type = gr.Radio(["ephemeral", "persistent"], value="ephemeral", label="cache_control type", elem_id="messages-cache-type")
                fill = gr.Button("Fill the system prompt with a long document (~1,800 tokens)", size="sm", elem_id="messages-fill-document")
                report = gr.Markdown(cache_report(catalog.MESSAGES_MODELS[0], []), elem_id="messages-cache-report")
            with developer_section("messages"):
                extensions = gr.Code("", language="json", interactive=True, elem_id="messages-extensions",
                                     label="JSON object with any of: metadata, mcp_servers, context_management, cache_control")
            presets = PresetBar.build("messages")
            session_file = SessionFileBar.build("messages")
    examples.wire({"thinking": thinking, "budget": budget, "system": system, "cache_system": cache_system, "tools": tools,
                   "web_search": web_search, "draft": panel.draft})
    inspector = Inspector.build("messages")

    form_inputs = [model, system, cache_system, cache_last, cache_type, max_tokens, stream, temperature, top_p, top_k, stops,
                   thinking, budget, tools, web_search, max_uses, city, country, tool_choice, disable_parallel, extensions]

    if ctx.presets is not None:
        presets.wire(ctx.presets, named_fields(MessagesForm, form_inputs))
    session_file.wire(named_fields(MessagesForm, form_inputs), panel.chatbot, panel.session)

    def from_curl(request: CurlRequest) -> list[Any]:
        draft, history, session = conversation_from(request.body.get("messages") or [])
        return [*messages_form_values(request.body).values(), draft, history, session]

    ctx.imports.register(FormImport("messages", "Messages", ("messages", "count_tokens"),
                                    [*form_inputs, panel.draft, panel.chatbot, panel.session], from_curl))

    def lab_report(view: View, adapter: TurnAdapter | None) -> tuple[Any, ...]:
        if not view.done or not isinstance(adapter, MessagesAdapter):
            return (gr.skip(),) if view.history else (cache_report("", []),)
        return (cache_report(adapter.form.model, view.session.usage_log),)

    panel.wire(lambda *form: MessagesAdapter(ctx.client, MessagesForm(*form)), form_inputs, ctx.defaults, ctx.connection, inspector,
               extra=lab_report, extra_outputs=[report])

    async def on_count(draft: Any, session: Session, url: str, key: str, *form: Any) -> str:
        return await count_draft_tokens(ctx.client, ctx.defaults, draft, session, url, key, MessagesForm(*form))

    count_inputs = [panel.draft, panel.session, *ctx.connection, *form_inputs]
    triggers = [panel.draft.change, system.change, tools.change, model.change, cache_system.change, cache_last.change, web_search.change]
    gr.on(triggers, on_count, count_inputs, token_count, trigger_mode="always_last", concurrency_limit=None, show_progress="hidden")
    fill.click(lambda: (LONG_DOCUMENT, True), None, [system, cache_system], queue=False)
