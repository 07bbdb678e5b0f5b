"""The Embeddings tab's layout and wiring: texts (or a query and documents), formats and
settings on the left; similarity heatmap, 2-D map, search ranking, vectors, downloads and
lessons on the right."""

from __future__ import annotations

from typing import Any

import gradio as gr

from playground.ui.i18n import choices, t

from playground.client.embeddings import LIST_MODELS, NATIVE_MODELS, TASK_TYPES
from playground.ui.tabs.context import TabContext
from playground.ui.shared.curl_panel import FormImport
from playground.ui.tabs.embeddings.views import vector_headers
from playground.ui.tabs.embeddings import handlers
from playground.ui.tabs.embeddings.handlers import (
    FORMATS,
    LESSONS,
    LIST_FORMAT,
    NATIVE_CALLS,
    NATIVE_FORMAT,
    NO_TASK,
    EmbeddingsForm,
    default_sizes_note,
)
from playground.ui.shared.developer import developer_section
from playground.ui.shared.examples import Example, ExampleRow, Said
from playground.ui.shared.forms import named_fields
from playground.ui.tabs.native.handlers import AUTH_CHOICES
from playground.ui.shared.presets import PresetBar
from playground.ui.session_files.panel import SessionFileBar
from playground.ui.shared.stopping import StopSwitch
from playground.ui.shared.widgets import Inspector, error_banner, notice_banner
from playground.ui.shared.scrolling import bring_into_view

PARAPHRASES = Said("embeddings.example.paraphrases")
DOCUMENTS = Said("embeddings.example.documents")
"""The examples' texts (and questions) are words: filled in the page's language when clicked."""
EXAMPLES = [
    Example(t("embeddings.which_sentences_mean_the"), t("embeddings.five_sentences_paraphrases_score"),
            {"texts": PARAPHRASES, "query": "", "formats": [LIST_FORMAT], "lesson": "None"}),
    Example(t("embeddings.search_a_few_documents"), t("embeddings.a_question_and_five"),
            {"texts": DOCUMENTS, "query": Said("embeddings.example.bake_query"), "formats": [LIST_FORMAT], "lesson": "None"}),
    Example(t("embeddings.question_vs_document_embeddings"), t("embeddings.the_native_format_s"),
            {"texts": DOCUMENTS, "query": Said("embeddings.example.how_long_query"), "formats": [NATIVE_FORMAT], "lesson": "RETRIEVAL_QUERY vs RETRIEVAL_DOCUMENT"}),
    Example(t("embeddings.numbers_or_bytes"), t("embeddings.the_same_vectors_as"),
            {"texts": PARAPHRASES, "query": "", "formats": [LIST_FORMAT], "lesson": "float vs base64"}),
    Example(t("embeddings.shorter_vectors"), t("embeddings.the_same_search_with"),
            {"texts": DOCUMENTS, "query": Said("embeddings.example.bake_query"), "formats": [NATIVE_FORMAT], "dimensions": 64, "lesson": "Full vs reduced dimensions"}),
]
CHOICE_KEYS = {LIST_FORMAT: "embeddings.choice.list", NATIVE_FORMAT: "embeddings.choice.native", NO_TASK: "embeddings.choice.no_task",
               **dict(zip(NATIVE_CALLS, ("embeddings.choice.batch", "embeddings.choice.single"), strict=True)),
               **dict(zip(LESSONS, ("embeddings.choice.none", "embeddings.choice.base64", "embeddings.choice.retrieval",
                                    "embeddings.choice.dimensions"), strict=True))}
"""Each choice's words in the catalogue; the value sent to the handlers stays the English name."""
SETTINGS = ("formats", "list_model", "native_model", "native_call", "prefix", "auth", "encoding", "dimensions", "task_type", "lesson", "extra_fields")


def _settings(defaults: EmbeddingsForm) -> tuple[Any, ...]:
    """The "Settings" accordion: (dimensions, encoding, task type, native calls, path prefix, how the key travels)."""
    with gr.Accordion(t("embeddings.settings"), open=False, elem_id="embeddings-settings"):
        with gr.Row():
            dimensions = gr.Number(None, label=t("embeddings.dimensions_empty_model_default"), info=default_sizes_note(), elem_id="embeddings-dimensions")
            encoding = gr.Radio(["float", "base64"], value=defaults.encoding, label=t("embeddings.list_format_encoding_format"),
                                info=t("embeddings.base64_the_same_numbers"), elem_id="embeddings-encoding")
        task_type = gr.Dropdown([(t(CHOICE_KEYS[NO_TASK]), NO_TASK), *TASK_TYPES], value=NO_TASK, label=t("embeddings.native_format_tasktype"), info=t("embeddings.what_the_vectors_are"), elem_id="embeddings-task")
        with gr.Row():
            native_call = gr.Radio([(t(CHOICE_KEYS[name]), name) for name in NATIVE_CALLS], value=defaults.native_call, label=t("embeddings.native_format_calls"), elem_id="embeddings-native-call")
            prefix = gr.Radio(["v1beta", "v1"], value=defaults.prefix, label=t("embeddings.native_path_prefix"), elem_id="embeddings-prefix")
        auth = gr.Radio(choices(AUTH_CHOICES), value=defaults.auth, label=t("embeddings.native_format_send_the"), elem_id="embeddings-auth")
    return dimensions, encoding, task_type, native_call, prefix, auth


def _results() -> list[Any]:
    """The results column, in the order `EmbeddingsHandlers.embed` fills it: summary, heatmap, map,
    search, vectors table, files, the text-exports button, lesson."""
    summary = gr.Markdown(t("embeddings.type_a_few_texts"), elem_id="embeddings-summary")
    with gr.Tabs():
        with gr.Tab(t("embeddings.similarity"), elem_id="embeddings-tab-heatmap"):
            heatmap = gr.HTML(elem_id="embeddings-heatmap")
        with gr.Tab(t("embeddings.map"), elem_id="embeddings-tab-map"):
            scatter = gr.HTML(t("embeddings.p_embed_a_few"), elem_id="embeddings-map")
        with gr.Tab(t("embeddings.search"), elem_id="embeddings-tab-search"):
            search = gr.HTML(t("embeddings.p_type_a_search"), elem_id="embeddings-search")
        with gr.Tab(t("embeddings.vectors"), elem_id="embeddings-tab-vectors"):
            table = gr.Dataframe(headers=vector_headers(), interactive=False, wrap=True, elem_id="embeddings-table")
            files = gr.File(label=t("embeddings.download_csv_npy_and"), file_count="multiple",
                            interactive=False, elem_id="embeddings-files")
            text_exports = gr.Button(t("embeddings.also_write_the_csv"), size="sm",
                                     visible=False, elem_id="embeddings-text-exports")
        with gr.Tab(t("embeddings.lesson"), elem_id="embeddings-tab-lesson"):
            lesson_view = gr.HTML(t("embeddings.p_pick_a_comparison"), elem_id="embeddings-lesson-view")
    return [summary, heatmap, scatter, search, table, files, text_exports, lesson_view]


def build_embeddings_tab(ctx: TabContext) -> None:
    defaults = EmbeddingsForm()
    switch = gr.State(StopSwitch())
    with gr.Row():
        with gr.Column(scale=2):
            query = gr.Textbox(label=t("embeddings.search_query_optional"), placeholder=t("embeddings.e_g_how_do"), elem_id="embeddings-query")
            texts = gr.Textbox(label=t("embeddings.texts"), lines=7, info=t("embeddings.texts_help"), elem_id="embeddings-texts")
            formats = gr.CheckboxGroup([(t(CHOICE_KEYS[name]), name) for name in FORMATS], value=defaults.formats, label=t("embeddings.formats_both_side_by"), elem_id="embeddings-formats")
            with gr.Row():
                list_model = gr.Dropdown(list(LIST_MODELS), value=defaults.list_model, allow_custom_value=True, label=t("embeddings.list_format_model"), elem_id="embeddings-list-model",
                                         min_width=260)  # room for "text-embedding-3-small" beside the arrow; the row wraps when narrow
                native_model = gr.Dropdown(list(NATIVE_MODELS), value=defaults.native_model, allow_custom_value=True, label=t("embeddings.native_format_model"), elem_id="embeddings-native-model",
                                           min_width=260)
            dimensions, encoding, task_type, native_call, prefix, auth = _settings(defaults)
            with developer_section("embeddings"):
                extra = gr.Code("", language="json", label=t("embeddings.extra_fields_json_object"),
                                interactive=True, elem_id="embeddings-extra")
            lesson = gr.Radio([(t(CHOICE_KEYS[name]), name) for name in LESSONS], value="None", label=t("embeddings.compare_and_learn"), info=t("embeddings.runs_a_second_embedding"),
                              elem_id="embeddings-lesson")
            with gr.Row():
                run = gr.Button(t("embeddings.embed"), variant="primary", elem_id="embeddings-run")
                stop = gr.Button(t("conversation.stop"), variant="stop", elem_id="embeddings-stop")
            examples = ExampleRow.build("embeddings", EXAMPLES, shows="embeddings-summary")
            presets = PresetBar.build("embeddings")
            session_file = SessionFileBar.build("embeddings")
            error = error_banner("embeddings")
            notice = notice_banner("embeddings")
        with gr.Column(scale=3):
            shown = _results()
    inspector = Inspector.build("embeddings")

    form_inputs = [texts, query, formats, list_model, native_model, native_call, prefix, auth, encoding, dimensions, task_type, lesson, extra]
    fields = named_fields(EmbeddingsForm, form_inputs)
    examples.wire(fields)
    if ctx.presets is not None:
        presets.wire(ctx.presets, {name: fields[name] for name in SETTINGS})
    session_file.wire(fields, check=handlers.check_values)

    wired = handlers.EmbeddingsHandlers(ctx.client, ctx.defaults)
    outputs = [error, *shown, *inspector.components]
    files, text_exports = shown[5], shown[6]
    bring_into_view(run, "embeddings-summary")
    gr.on([run.click, texts.submit, query.submit], handlers.arm_stop, switch, notice, queue=False).then(
        wired.embed, [switch, *ctx.connection, *form_inputs], outputs, concurrency_limit=None)
    stop.click(handlers.stop_clicked, switch, notice, queue=False)
    text_exports.click(handlers.write_text_exports, files, [files, text_exports, error], concurrency_limit=4)
    ctx.imports.register(FormImport("embeddings", "Embeddings", ("embeddings", "native_embeddings"), form_inputs,
                                    handlers.curl_form_values, tuple(fields), handlers.check_values))
