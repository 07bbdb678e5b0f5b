"""The Native tab's layout: the shared conversation column with generate-content settings:
thinking (budget or level), image output, function declarations, grounding search, safety
settings, and how the key is sent."""

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
from playground.ui.tabs.native import handlers
from playground.ui.tabs.native.handlers import (
    AUTH_CHOICES,
    THINKING_CHOICES,
    NativeForm,
    output_images_for,
)
from playground.ui.shared.presets import PresetBar
from playground.ui.shared.schema_editor import SchemaEditor
from playground.ui.shared.schema_form import example_json
from playground.ui.session_files.panel import SessionFileBar
from playground.ui.shared.widgets import Inspector

DEFAULT_MODEL = "gx-2.5-flash"
FUNCTIONS_EXAMPLE = """[{"name": "get_weather", "description": "Current weather for a city",
  "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}]"""
EXAMPLES = [
    Example(t("native.example.think"), t("native.example.think_explains"),
            {"thinking": "budget", "output_images": False, "functions_json": "", "grounding": False,
             "draft": {"text": Said("native.example.think_message"), "files": []}}),
    Example(t("native.example.draw"), t("native.example.draw_explains"),
            {"thinking": "model default", "output_images": True, "functions_json": "", "grounding": False,
             "draft": {"text": Said("native.example.draw_message"), "files": []}}),
    Example(t("native.example.ground"), t("native.example.ground_explains"),
            {"thinking": "model default", "output_images": False, "functions_json": "", "grounding": True,
             "draft": {"text": Said("native.example.ground_message"), "files": []}}),
    Example(t("native.example.weather"), t("native.example.weather_explains"),
            {"thinking": "model default", "output_images": False, "functions_json": FUNCTIONS_EXAMPLE, "grounding": False,
             "draft": {"text": Said("responses.example.weather_message"), "files": []}}),
    Example(t("native.example.schema"), t("native.example.schema_explains"),
            {"thinking": "model default", "output_images": False, "functions_json": "", "grounding": False, "schema_json": example_json("native"),
             "draft": {"text": Said("chat.example.schema_message"), "files": []}}),
]


def _models() -> list[str]:
    ids = []
    for info in catalog.CHAT_MODELS:
        if "native" in info.interfaces:
            ids.append(info.id)
            ids.extend(catalog.thinking_variants(info.id) if info.thinking_suffixes else [])
    return ids + list(catalog.IMAGE_MODELS)


def build_native_tab(ctx: TabContext) -> TabParts:
    with gr.Row():
        with gr.Column(scale=3):
            panel = ConversationPanel.build("native", t("native.placeholder"))
            grounding = gr.Markdown(elem_id="native-grounding", elem_classes=["metrics-line"])
            verdict = SchemaEditor.verdict_line("native")
            examples = ExampleRow.build("native", EXAMPLES, shows="native-chatbot", note="examples.resets_native")
        with gr.Column(scale=2):
            model = gr.Dropdown(_models(), value=DEFAULT_MODEL, label=t("native.model"), allow_custom_value=True, elem_id="native-model",
                                info=t("native.model_info"))
            system = gr.Textbox(label=t("native.system"), lines=2, elem_id="native-system")
            with gr.Row():
                stream = gr.Checkbox(True, label=t("chat.stream"), elem_id="native-stream")
                output_images = gr.Checkbox(False, label=t("native.images"), info=t("native.images_info"), elem_id="native-output-images")
            with gr.Group():
                thinking = gr.Radio(choices(THINKING_CHOICES), value=THINKING_CHOICES[0], label=t("native.thinking"), info=t("native.thinking_info"), elem_id="native-thinking")
                budget = gr.Number(1024, label=t("native.budget"), info=t("native.budget_info"), elem_id="native-budget")
            with gr.Accordion(t("native.generation"), open=False):
                temperature = gr.Slider(0, 2, value=1.0, step=0.05, label=t("chat.temperature"), elem_id="native-temperature")
                top_p = gr.Slider(0, 1, value=0.95, step=0.01, label=t("chat.top_p"), elem_id="native-top-p")
                top_k = gr.Number(0, label=t("native.top_k"), elem_id="native-top-k")
                max_tokens = gr.Number(0, label=t("native.max_tokens"), elem_id="native-max-tokens")
            with gr.Accordion(t("responses.tools_panel"), open=False):
                functions = gr.Code("", language="json", interactive=True, elem_id="native-functions",
                                    label=t("native.functions"))
                mode = gr.Radio(["AUTO", "ANY", "NONE"], value="AUTO", label=t("native.mode"), elem_id="native-mode")
                search = gr.Checkbox(False, label=t("native.search"), elem_id="native-grounding-search")
                editor = SchemaEditor.build("native", "native", "native.schema")
            mcp = McpPanel.build("native", ctx.defaults)
            library = PromptPanel.build("native")
            mock = MockPanel.build("native")
            with gr.Accordion(t("native.safety_panel"), open=False):
                safety = gr.Code("", language="json", interactive=True, elem_id="native-safety",
                                 label=t("native.safety"))
                auth = gr.Radio(choices(AUTH_CHOICES), value="Authorization: Bearer", label=t("native.auth"), elem_id="native-auth",
                                info=t("native.auth_info"))
            with developer_section("native"):
                extensions = gr.Code("", language="json", interactive=True, elem_id="native-extensions",
                                     label=t("native.extensions"))
            presets = PresetBar.build("native")
            session_file = SessionFileBar.build("native")
    inspector = Inspector.build("native")
    form_inputs = [model, system, stream, temperature, top_p, top_k, max_tokens, thinking, budget, output_images, functions, search,
                   mode, safety, auth, extensions, editor.json]
    fields = named_fields(NativeForm, form_inputs)

    panel.wire(partial(handlers.native_adapter, ctx.client), form_inputs, ctx.defaults, ctx.connection, inspector,
               extra=handlers.grounding_line, extra_outputs=[grounding, verdict], system=system, prompts=ctx.prompts, prices=ctx.prices)
    editor.wire()
    mcp.wire(panel, functions, "native", ctx.client.mcp, ctx.defaults)
    mock.wire(panel, functions, "native")
    model.input(output_images_for, [model, output_images], output_images, queue=False)  # a person picked it: not an import or a load
    examples.wire({**fields, "draft": panel.draft}, keep=("auth",))  # how the key is sent is the visitor's, not the example's
    if ctx.presets is not None:
        presets.wire(ctx.presets, fields)
    check = turn_check(partial(handlers.native_adapter_of, ctx.client))
    library.wire(fields, panel, PromptLibrary.of(ctx.settings), check)
    session_file.wire(fields, panel, check=check)

    ctx.imports.register(FormImport("native", "Native", ("native",), [*form_inputs, *panel.imported], handlers.form_from_curl,
                                    tuple(fields), check, sent_before))
    assert panel.variables is not None
    return TabParts(after_load=editor.after, after_language=partial(each, (editor.after, panel.variables.reword)),
                    conversation=panel)
