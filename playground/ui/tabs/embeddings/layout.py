"""The Embeddings tab's layout and wiring: texts (or a query and documents), formats and
settings on the left; similarity heatmap, 2-D map, search ranking, vectors, downloads and
lessons on the right."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

import gradio as gr

from playground.ui.i18n import say, t

from playground.client.curl_import import CurlRequest
from playground.client.embeddings import LIST_MODELS, NATIVE_MODELS, TASK_TYPES
from playground.client.errors import GatewayError, RequestValidationError
from playground.ui.tabs.context import TabContext
from playground.ui.shared.curl_panel import FormImport
from playground.ui.tabs.embeddings.views import add_text_exports, vector_headers
from playground.ui.tabs.embeddings.handlers import (
    CONTROLLED,
    FORMATS,
    LESSONS,
    LIST_FORMAT,
    NATIVE_CALLS,
    NATIVE_FORMAT,
    NO_TASK,
    EmbeddingsForm,
    check_form,
    default_sizes_note,
    embed_texts,
)
from playground.ui.shared.developer import developer_section
from playground.ui.shared.examples import Example, ExampleRow
from playground.ui.shared.forms import named_fields
from playground.ui.tabs.native.handlers import AUTH_CHOICES
from playground.ui.shared.presets import PresetBar
from playground.ui.shared.render import error_text
from playground.ui.session_files.panel import SessionFileBar
from playground.ui.shared.stopping import StopSwitch, unless_stopped
from playground.ui.shared.widgets import Inspector, banner_update, error_banner, notice_banner

PARAPHRASES = "The cat sat on the mat.\nA cat was sitting on a mat.\nQuarterly revenue grew by ten percent.\nSales rose 10% this quarter.\nHow do I bake sourdough bread?"
DOCUMENTS = ("Sourdough bread needs flour, water, salt and a starter.\nThe train to Berlin leaves at nine.\n"
             "Bake bread in a hot oven for forty minutes.\nOur quarterly revenue grew by ten percent.\nCats sleep up to sixteen hours a day.")
EXAMPLES = [
    Example(t("embeddings.which_sentences_mean_the"), t("embeddings.five_sentences_paraphrases_score"),
            {"texts": PARAPHRASES, "query": "", "formats": [LIST_FORMAT], "lesson": "None"}),
    Example(t("embeddings.search_a_few_documents"), t("embeddings.a_question_and_five"),
            {"texts": DOCUMENTS, "query": "How do I bake bread?", "formats": [LIST_FORMAT], "lesson": "None"}),
    Example(t("embeddings.question_vs_document_embeddings"), t("embeddings.the_native_format_s"),
            {"texts": DOCUMENTS, "query": "How long do I bake bread?", "formats": [NATIVE_FORMAT], "lesson": "RETRIEVAL_QUERY vs RETRIEVAL_DOCUMENT"}),
    Example(t("embeddings.numbers_or_bytes"), t("embeddings.the_same_vectors_as"),
            {"texts": PARAPHRASES, "query": "", "formats": [LIST_FORMAT], "lesson": "float vs base64"}),
    Example(t("embeddings.shorter_vectors"), t("embeddings.the_same_search_with"),
            {"texts": DOCUMENTS, "query": "How do I bake bread?", "formats": [NATIVE_FORMAT], "dimensions": 64, "lesson": "Full vs reduced dimensions"}),
]
CHOICE_KEYS = {LIST_FORMAT: "embeddings.choice.list", NATIVE_FORMAT: "embeddings.choice.native", NO_TASK: "embeddings.choice.no_task",
               **dict(zip(NATIVE_CALLS, ("embeddings.choice.batch", "embeddings.choice.single"), strict=True)),
               **dict(zip(LESSONS, ("embeddings.choice.none", "embeddings.choice.base64", "embeddings.choice.retrieval",
                                    "embeddings.choice.dimensions"), strict=True))}
"""Each choice's words in the catalogue; the value sent to the handlers stays the English name."""
SETTINGS = ("formats", "list_model", "native_model", "native_call", "prefix", "auth", "encoding", "dimensions", "task_type", "lesson", "extra_fields")


def form_from_curl(request: CurlRequest) -> dict[str, Any]:
    """Form values for a pasted embeddings call (list or native, single or batch)."""
    body = request.body if isinstance(request.body, dict) else {}
    if request.interface == "embeddings":
        texts = body.get("input")
        texts = [texts] if isinstance(texts, str) else texts
        if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
            raise RequestValidationError(["the command's input is not a text or a list of texts"])
        return {"texts": "\n".join(texts), "query": "", "formats": [LIST_FORMAT], "list_model": body.get("model") or "text-embedding-3-small",
                "encoding": body.get("encoding_format") or "float", "dimensions": body.get("dimensions"),
                "extra_fields": _extra_json(body, CONTROLLED[LIST_FORMAT])}
    batch = ":batchEmbedContents" in request.path
    items = body.get("requests") if batch else [body]
    if not isinstance(items, list) or not items:
        raise RequestValidationError(["the command's body has no requests to embed"])
    texts = [" ".join(str(p.get("text", "")) for p in (item.get("content") or {}).get("parts") or [] if isinstance(p, dict))
             for item in items if isinstance(item, dict)]
    first = items[0] if isinstance(items[0], dict) else {}
    auth = next((label for label, style in AUTH_CHOICES.items() if style == request.auth_style), "Authorization: Bearer")
    return {"texts": "\n".join(texts), "query": "", "formats": [NATIVE_FORMAT], "native_model": request.model or "gx-embedding-001",
            "native_call": next(label for label, is_batch in NATIVE_CALLS.items() if is_batch == batch),
            "prefix": "v1" if request.path.startswith("/v1/") or "/v1/models/" in request.path else "v1beta", "auth": auth,
            "dimensions": first.get("outputDimensionality"), "task_type": first.get("taskType") or NO_TASK,
            "extra_fields": _extra_json(first, (*CONTROLLED[NATIVE_FORMAT], "model"))}


def _extra_json(body: dict[str, Any], controlled: tuple[str, ...]) -> str:
    extra = {name: value for name, value in body.items() if name not in controlled}
    return json.dumps(extra, indent=2, ensure_ascii=False) if extra else ""


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
            with gr.Accordion(t("embeddings.settings"), open=False, elem_id="embeddings-settings"):
                with gr.Row():
                    dimensions = gr.Number(None, label=t("embeddings.dimensions_empty_model_default"), info=default_sizes_note(), elem_id="embeddings-dimensions")
                    encoding = gr.Radio(["float", "base64"], value=defaults.encoding, label=t("embeddings.list_format_encoding_format"),
                                        info=t("embeddings.base64_the_same_numbers"), elem_id="embeddings-encoding")
                task_type = gr.Dropdown([(t(CHOICE_KEYS[NO_TASK]), NO_TASK), *TASK_TYPES], value=NO_TASK, label=t("embeddings.native_format_tasktype"), info=t("embeddings.what_the_vectors_are"), elem_id="embeddings-task")
                with gr.Row():
                    native_call = gr.Radio([(t(CHOICE_KEYS[name]), name) for name in NATIVE_CALLS], value=defaults.native_call, label=t("embeddings.native_format_calls"), elem_id="embeddings-native-call")
                    prefix = gr.Radio(["v1beta", "v1"], value=defaults.prefix, label=t("embeddings.native_path_prefix"), elem_id="embeddings-prefix")
                auth = gr.Radio(list(AUTH_CHOICES), value=defaults.auth, label=t("embeddings.native_format_send_the"), elem_id="embeddings-auth")
            with developer_section("embeddings"):
                extra = gr.Code("", language="json", label=t("embeddings.extra_fields_json_object"),
                                interactive=True, elem_id="embeddings-extra")
            lesson = gr.Radio([(t(CHOICE_KEYS[name]), name) for name in LESSONS], value="None", label=t("embeddings.compare_and_learn"), info=t("embeddings.runs_a_second_embedding"),
                              elem_id="embeddings-lesson")
            with gr.Row():
                run = gr.Button(t("embeddings.embed"), variant="primary", elem_id="embeddings-run")
                stop = gr.Button(t("conversation.stop"), variant="stop", elem_id="embeddings-stop")
            examples = ExampleRow.build("embeddings", EXAMPLES)
            presets = PresetBar.build("embeddings")
            session_file = SessionFileBar.build("embeddings")
            error = error_banner("embeddings")
            notice = notice_banner("embeddings")
        with gr.Column(scale=3):
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
    inspector = Inspector.build("embeddings")

    form_inputs = [texts, query, formats, list_model, native_model, native_call, prefix, auth, encoding, dimensions, task_type, lesson, extra]
    fields = named_fields(EmbeddingsForm, form_inputs)
    examples.wire(fields)
    if ctx.presets is not None:
        presets.wire(ctx.presets, {name: fields[name] for name in SETTINGS})
    def check(values: dict[str, Any], sent: list[dict[str, Any]]) -> None:
        check_form(EmbeddingsForm(**values))

    session_file.wire(fields, check=check)

    def on_begin(switch: StopSwitch) -> Any:
        switch.arm()
        return banner_update("")

    def on_stop(switch: StopSwitch) -> Any:
        switch.press()
        return banner_update(say("embeddings.stopped"))

    async def on_run(switch: StopSwitch, url: str, key: str, *values: Any, progress: gr.Progress = gr.Progress()) -> tuple[Any, ...]:
        def report(done: int, total: int) -> None:
            progress((done, total), desc=say("embeddings.progress"), unit=say("embeddings.progress_unit"))

        form = EmbeddingsForm(*values)
        stopped, view = await unless_stopped(embed_texts(ctx.client, ctx.defaults, url, key, form, report), switch.event)
        if stopped or view is None:
            return (gr.skip(),) * (len(outputs))
        if not view.map:
            return (banner_update(view.error), *(gr.skip(),) * 8, *Inspector.values(view.exchange))
        has_text = any(path.endswith(".csv") for path in view.files)
        return (banner_update(view.error), view.summary, view.heatmap, view.map,
                view.search or t("embeddings.p_type_a_search"), {"headers": vector_headers(), "data": view.table}, view.files, gr.update(visible=not has_text),
                view.lesson or t("embeddings.p_pick_a_comparison"), *Inspector.values(view.exchange))

    def on_text_exports(paths: list[str] | None) -> tuple[Any, ...]:
        try:
            return add_text_exports(paths), gr.update(visible=False), banner_update("")
        except GatewayError as error:
            return gr.skip(), gr.skip(), banner_update(error_text(error))

    outputs = [error, summary, heatmap, scatter, search, table, files, text_exports, lesson_view, *inspector.components]
    gr.on([run.click, texts.submit, query.submit], on_begin, switch, notice, queue=False).then(
        on_run, [switch, *ctx.connection, *form_inputs], outputs, concurrency_limit=None)
    stop.click(on_stop, switch, notice, queue=False)
    text_exports.click(on_text_exports, files, [files, text_exports, error], concurrency_limit=4)

    def from_curl(request: CurlRequest) -> list[Any]:
        values = {**asdict(EmbeddingsForm()), **{k: v for k, v in form_from_curl(request).items() if v is not None}}
        return [values[name] for name in fields]

    ctx.imports.register(FormImport("embeddings", "Embeddings", ("embeddings", "native_embeddings"), form_inputs, from_curl,
                                    tuple(fields), check))
