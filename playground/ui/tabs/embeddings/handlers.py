"""The Embeddings tab's handler: read the form, embed the texts through the chosen formats (in
batches, with progress), and build every view; the lessons run a second embedding to compare.
Plain async functions over plain values."""

from __future__ import annotations

import html
import json
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field, fields
from typing import Any

import gradio as gr
import numpy as np

from playground.client.embeddings import (
    LIST_MODELS,
    NATIVE_BATCH_SIZE,
    NATIVE_MODELS,
    EmbeddingsResult,
    ListEmbeddingRequest,
    NativeEmbeddingRequest,
)
from playground.client.curl_import import CurlRequest
from playground.client.errors import GatewayError, RequestValidationError
from playground.client.gateway import GatewayClient
from playground.client.transport import Connection, Exchange
from playground.ui.shared.connection import ServerDefaults, resolve_connection
from playground.ui.tabs.embeddings.views import (
    TEXT_EXPORT_LIMIT,
    add_text_exports,
    export_files,
    heatmap_html,
    map_svg,
    moves,
    ranking,
    ranking_html,
    side_by_side,
    vector_headers,
    vector_rows,
)
from playground.ui.shared.forms import optional_positive, parse_json_field
from playground.ui.i18n import say, t
from playground.ui.tabs.native.handlers import AUTH_CHOICES
from playground.ui.shared.render import error_text
from playground.ui.shared.stopping import StopSwitch, unless_stopped
from playground.ui.shared.widgets import Inspector, banner_update

LIST_FORMAT = "List format (/v1/embeddings)"
NATIVE_FORMAT = "Native format (:embedContent)"
FORMATS = (LIST_FORMAT, NATIVE_FORMAT)
FORMAT_WORDS = {LIST_FORMAT: "embeddings.choice.list", NATIVE_FORMAT: "embeddings.choice.native"}
"""Each format's name in the catalogue (the values the form sends stay the English names)."""
NATIVE_CALLS = {"Batch (:batchEmbedContents)": True, "One call per text (:embedContent)": False}
NO_TASK = "(none)"
LESSONS = {"None": "", "float vs base64": "lesson.base64_about", "RETRIEVAL_QUERY vs RETRIEVAL_DOCUMENT": "lesson.retrieval_about",
           "Full vs reduced dimensions": "lesson.dimensions_about"}
"""Each lesson choice (the value the form and session files hold) and the catalogue key of what it shows; "None" runs none."""
SINGLE_CALL_LIMIT = 100
REDUCED_DEFAULT = 256


@dataclass
class EmbeddingsForm:
    texts: str = ""
    query: str = ""
    formats: list[str] = field(default_factory=lambda: [LIST_FORMAT])
    list_model: str = "text-embedding-3-small"
    native_model: str = "gx-embedding-001"
    native_call: str = "Batch (:batchEmbedContents)"
    prefix: str = "v1beta"
    auth: str = "Authorization: Bearer"
    encoding: str = "float"
    dimensions: float | None = None
    task_type: str = NO_TASK
    lesson: str = "None"
    extra_fields: str = ""

    def documents(self) -> list[str]:
        """One text per line; blank lines are skipped."""
        return [line.strip() for line in (self.texts or "").splitlines() if line.strip()]

    def all_texts(self) -> list[str]:
        query = (self.query or "").strip()
        return ([query] if query else []) + self.documents()


@dataclass
class Embedded:
    """One format's run over the texts."""

    label: str
    result: EmbeddingsResult


@dataclass
class EmbeddingsView:
    error: str = ""
    summary: str = ""
    heatmap: str = ""
    map: str = ""
    search: str = ""
    table: list[list[Any]] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    lesson: str = ""
    exchange: Exchange | None = None
    received: int = 0
    """Bytes of the answers, every format and batch together."""


Progress = Callable[[int, int], Awaitable[None] | None]


CONTROLLED = {LIST_FORMAT: ("model", "input", "encoding_format", "dimensions"), NATIVE_FORMAT: ("content", "taskType", "outputDimensionality")}


def extra_fields(form: EmbeddingsForm) -> dict[str, Any]:
    """The "Extra fields" editor: a JSON object of fields the form has no control for."""
    problems: list[str] = []
    extra = parse_json_field("Extra fields", form.extra_fields, dict, problems) or {}
    controlled = sorted(set(extra) & {name for fmt in form.formats for name in CONTROLLED.get(fmt, ())})
    if controlled:
        problems.append(f"Extra fields: {', '.join(controlled)} has its own control above; set it there")
    if problems:
        raise RequestValidationError(problems)
    return extra


def check_form(form: EmbeddingsForm) -> None:
    """The requests a run would build (the same request models, for the first text), without
    sending: how a loaded session file or an imported call is checked before it is shown."""
    dimensions = optional_positive(form.dimensions, "Dimensions")
    extra_fields(form)
    text = (form.all_texts() or ["(checking the loaded values)"])[0]
    if LIST_FORMAT in form.formats:
        ListEmbeddingRequest.build(model=form.list_model, input=[text], encoding_format=form.encoding, dimensions=dimensions)
    if NATIVE_FORMAT in form.formats:
        NativeEmbeddingRequest.of_text(text, None if form.task_type == NO_TASK else form.task_type, dimensions)


def _runner(client: GatewayClient, conn: Connection, form: EmbeddingsForm, progress: Progress | None):
    dimensions = optional_positive(form.dimensions, "Dimensions")
    task = None if form.task_type == NO_TASK else form.task_type
    extra = extra_fields(form)

    async def run(fmt: str, texts: list[str], *, encoding: str | None = None, size: int | bool | None = False,
                  task_type: str | bool | None = False) -> EmbeddingsResult:
        chosen_size = dimensions if size is False else size
        chosen_task = task if task_type is False else task_type
        if fmt == LIST_FORMAT:
            return await client.embeddings.embed_list(conn, texts, form.list_model, encoding or form.encoding, chosen_size, progress, extra)
        batch = NATIVE_CALLS.get(form.native_call, True)
        if not batch and len(texts) > SINGLE_CALL_LIMIT:
            raise RequestValidationError([say("lesson.single_limit", limit=SINGLE_CALL_LIMIT, count=f"{len(texts):,}", batch=NATIVE_BATCH_SIZE)])
        native = conn.with_auth(AUTH_CHOICES.get(form.auth, "bearer"))
        return await client.embeddings.embed_native(native, texts, form.native_model, batch=batch, prefix=form.prefix,
                                                    task_type=chosen_task, dimensions=chosen_size, progress=progress, extra=extra)

    return run


def format_name(label: str) -> str:
    """A format's name as the visitor reads it (its catalogue word; a label of its own as it is)."""
    return say(FORMAT_WORDS[label]) if label in FORMAT_WORDS else label


def _summary_line(label: str, result: EmbeddingsResult) -> str:
    norms = np.linalg.norm(result.vectors, axis=1) if len(result.vectors) else np.zeros(1)
    tokens = say("embeddings.tokens", count=f"{result.prompt_tokens:,}") if result.prompt_tokens is not None else say("embeddings.no_tokens")
    return f"**{html.escape(format_name(label))}** · `{html.escape(result.model)}` · " + say(
        "embeddings.summary", vectors=f"{len(result.vectors):,}", numbers=f"{result.dimension:,}", low=f"{norms.min():.3f}",
        high=f"{norms.max():.3f}", tokens=tokens, kb=f"{result.wire_bytes / 1e3:,.1f}", calls=len(result.exchanges), ms=f"{result.seconds * 1000:,.0f}")


def _search(form: EmbeddingsForm, run: Embedded, title: str = "") -> str:
    query = (form.query or "").strip()
    if not query:
        return ""
    return ranking_html(query, form.documents(), ranking(run.result.vectors[0], run.result.vectors[1:]), title or format_name(run.label))


async def _lesson(form: EmbeddingsForm, runner: Any, first: Embedded) -> str:
    lesson = form.lesson
    texts, docs, query = form.all_texts(), form.documents(), (form.query or "").strip()
    if lesson == "float vs base64":
        other = "base64" if form.encoding == "float" else "float"
        second = await runner(LIST_FORMAT, texts, encoding=other)
        mine = await runner(LIST_FORMAT, texts) if first.label != LIST_FORMAT else first.result
        gap = float(np.abs(mine.vectors - second.vectors).max()) if mine.vectors.shape == second.vectors.shape else float("nan")
        rows = "".join(f"<tr><td>{name}</td><td>{r.wire_bytes:,}</td><td>{say('lesson.ms', ms=f'{r.seconds * 1000:,.0f}')}</td></tr>"
                       for name, r in ((form.encoding, mine), (other, second)))
        return f"<table class='emb-lesson'>{say('lesson.encoding_head')}{rows}</table><p>{say('lesson.base64_result', gap=f'{gap:.2g}')}</p>"
    if not query:
        return say("lesson.needs_query")
    if lesson == "RETRIEVAL_QUERY vs RETRIEVAL_DOCUMENT":
        plain_run = await runner(NATIVE_FORMAT, texts, task_type=None)
        asked = await runner(NATIVE_FORMAT, [query], task_type="RETRIEVAL_QUERY")
        documents = await runner(NATIVE_FORMAT, docs, task_type="RETRIEVAL_DOCUMENT")
        before = ranking(plain_run.vectors[0], plain_run.vectors[1:])
        after = ranking(asked.vectors[0], documents.vectors)
        return side_by_side(ranking_html(query, docs, before, say("lesson.no_task")), ranking_html(query, docs, after, "RETRIEVAL_QUERY / RETRIEVAL_DOCUMENT")) + (
            f"<p>{say('lesson.moved', moved=moves(before, after), total=len(docs))}{say('lesson.retrieval_result')}</p>")
    if lesson == "Full vs reduced dimensions":
        fmt = first.label
        reduced_size = optional_positive(form.dimensions, "Dimensions") or REDUCED_DEFAULT
        full = await runner(fmt, texts, size=None)
        reduced = await runner(fmt, texts, size=reduced_size)
        before = ranking(full.vectors[0], full.vectors[1:])
        after = ranking(reduced.vectors[0], reduced.vectors[1:])
        norms = np.linalg.norm(reduced.vectors, axis=1)
        return side_by_side(ranking_html(query, docs, before, say("lesson.numbers", count=full.dimension)),
                            ranking_html(query, docs, after, say("lesson.numbers", count=reduced.dimension))) + (
            f"<p>{say('lesson.moved', moved=moves(before, after), total=len(docs))}"
            f"{say('lesson.dimensions_result', low=f'{norms.min():.3f}', high=f'{norms.max():.3f}')}</p>")
    return ""


async def embed_texts(client: GatewayClient, defaults: ServerDefaults, url: str, key: str, form: EmbeddingsForm,
                      progress: Progress | None = None) -> EmbeddingsView:
    """Embed the form's texts through each chosen format and build the views (first format first)."""
    view = EmbeddingsView()
    try:
        conn = resolve_connection(defaults, url, key)
        texts = form.all_texts()
        if not texts:
            raise RequestValidationError([say("lesson.no_texts")])
        if not form.formats:
            raise RequestValidationError([say("lesson.no_format")])
        runner = _runner(client, conn, form, progress)
        runs = [Embedded(fmt, await runner(fmt, texts)) for fmt in FORMATS if fmt in form.formats]
    except GatewayError as error:
        view.error, view.exchange = error_text(error), error.exchange
        return view
    first = runs[0]
    view.exchange = first.result.exchanges[-1] if first.result.exchanges else None
    view.received = sum(run.result.wire_bytes for run in runs)
    view.summary = "\n\n".join(_summary_line(run.label, run.result) for run in runs)
    view.heatmap = side_by_side(*(heatmap_html(texts, run.result.vectors, format_name(run.label)) for run in runs)) if len(runs) > 1 else heatmap_html(texts, first.result.vectors)
    view.map = map_svg(texts, first.result.vectors)
    view.search = side_by_side(*(_search(form, run) for run in runs)) if len(runs) > 1 else _search(form, first)
    view.table = vector_rows(texts, first.result.vectors)
    view.files = export_files(texts, first.result.vectors, "embeddings", as_text=len(texts) <= TEXT_EXPORT_LIMIT)
    if LESSONS.get(form.lesson):
        try:
            view.lesson = f"<p class='emb-lesson-about'>{say(LESSONS[form.lesson])}</p>" + await _lesson(form, runner, first)
        except GatewayError as error:
            view.error, view.exchange = error_text(error), error.exchange or view.exchange
    return view


def default_sizes_note() -> Any:
    """The Dimensions field's info line: the catalogue's words, then each model's default size."""
    sizes = ", ".join(f"`{model}` {size}" for model, size in {**LIST_MODELS, **NATIVE_MODELS}.items())
    return t("embeddings.sizes_note") + f" {sizes}"


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


def curl_form_values(request: CurlRequest) -> list[Any]:
    """An imported curl command as the form's values, in `EmbeddingsForm`'s field order."""
    values = {**asdict(EmbeddingsForm()), **{k: v for k, v in form_from_curl(request).items() if v is not None}}
    return [values[item.name] for item in fields(EmbeddingsForm)]


def check_values(values: dict[str, Any], sent: list[dict[str, Any]]) -> None:
    """A saved or imported form checked as Embed would check it."""
    check_form(EmbeddingsForm(**values))


RUN_OUTPUTS = 9 + 5
"""`EmbeddingsHandlers.embed`'s outputs: error, summary, heatmap, map, search, table, files, the
text-exports button, lesson; then the inspector's five."""


def arm_stop(switch: StopSwitch) -> Any:
    """Before Embed: Stop armed, the notice cleared."""
    switch.arm()
    return banner_update("")


def stop_clicked(switch: StopSwitch) -> Any:
    switch.press()
    return banner_update(say("embeddings.stopped"))


def write_text_exports(paths: list[str] | None) -> tuple[Any, ...]:
    """The CSV and `vectors.tsv` written beside the .npy on request: files, the button hidden, error."""
    try:
        return add_text_exports(paths), gr.update(visible=False), banner_update("")
    except GatewayError as error:
        return gr.skip(), gr.skip(), banner_update(error_text(error))


@dataclass(frozen=True)
class EmbeddingsHandlers:
    """Embed, with the client and the server's defaults."""

    client: GatewayClient
    defaults: ServerDefaults

    async def embed(self, switch: StopSwitch, url: str, key: str, *values: Any, progress: gr.Progress = gr.Progress()) -> tuple[Any, ...]:
        """Embed (or Stop while it waits): the views of `RUN_OUTPUTS`, skipped when stopped."""
        def report(done: int, total: int) -> None:
            progress((done, total), desc=say("embeddings.progress"), unit=say("embeddings.progress_unit"))

        form = EmbeddingsForm(*values)
        stopped, view = await unless_stopped(embed_texts(self.client, self.defaults, url, key, form, report), switch.event)
        if stopped or view is None:
            return (gr.skip(),) * RUN_OUTPUTS
        if not view.map:
            return (banner_update(view.error), *(gr.skip(),) * 8, *Inspector.values(view.exchange))
        has_text = any(path.endswith(".csv") for path in view.files)
        return (banner_update(view.error), view.summary, view.heatmap, view.map,
                view.search or t("embeddings.p_type_a_search"), {"headers": vector_headers(), "data": view.table}, view.files, gr.update(visible=not has_text),
                view.lesson or t("embeddings.p_pick_a_comparison"), *Inspector.values(view.exchange))
