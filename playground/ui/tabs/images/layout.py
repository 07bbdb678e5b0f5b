"""The Images tab's layout and wiring: the form with an aspect-ratio preview, the gallery of
results with their original files to download, what was delivered against what was asked,
refine (source and result side by side), the session's history, Stop, inspector and code."""

from __future__ import annotations

from typing import Any

import gradio as gr

from playground.ui.tabs.images.state import Generation, ImagesSession, NOT_SET, Outcome
from playground.ui.i18n.client_words import word
from playground.ui.i18n import say, t

from playground.client.catalog import IMAGE_MODELS
from playground.client.curl_import import CurlRequest
from playground.client.images import MAX_IMAGES_PER_CALL
from playground.ui.tabs.context import TabContext
from playground.ui.shared.curl_panel import FormImport
from playground.ui.shared.developer import developer_section
from playground.ui.shared.examples import Example, ExampleRow
from playground.ui.tabs.images.handlers import (
    FORM_FIELDS,
    PROMPT_STAND_IN,
    STOPPED,
    ImageForm,
    begin,
    generate,
    image_form_values,
    refine,
    restore,
    select,
    stop,
)
from playground.ui.tabs.images.views import (
    RATIOS,
    delivered_html,
    images_word,
    gallery_items,
    history_items,
    nothing_delivered_html,
    ratio_preview_html,
)
from playground.ui.shared.presets import PresetBar
from playground.ui.session_files.panel import SessionFileBar
from playground.ui.shared.widgets import Inspector, banner_update, error_banner, notice_banner

GENERATE_CONCURRENCY = 16
EXAMPLES = [
    Example(t("images.make_a_16_9"), t("images.a_wide_picture_the"),
            {"prompt": "A lighthouse on a cliff at dusk, wide cinematic shot", "ratio": "16:9", "n": 1, "tier": "1K"}),
    Example(t("images.four_variations"), t("images.four_pictures_from_one"),
            {"prompt": "A cosy reading corner with a cat", "ratio": "1:1", "n": 4, "tier": "1K"}),
    Example(t("images.turn_a_photo_into"), t("images.generate_click_the_picture"),
            {"prompt": "A photo of a harbour town at sunrise", "ratio": "3:2", "n": 1, "instruction": "Turn it into a watercolour"}),
    Example(t("images.see_a_refused_prompt"), t("images.the_demo_refuses_prompts"),
            {"prompt": "A forbidden temple in the jungle", "ratio": "1:1", "n": 1}),
]


def _status(generation: Generation) -> str:
    result, exchange = generation.result, generation.exchange
    count = len(result.images) if result else 0
    took = say("images.status_took", seconds=f"{exchange.finished_at:.1f}") if exchange is not None and exchange.finished_at is not None else ""
    what = say("images.refined" if generation.kind == "refine" else "images.generated")
    return say("images.status", number=generation.number, count=count, images=images_word(count), what=what, took=took,
               model=generation.asked.get("model", ""))


NOT_SHOWN = (t("imgview.not_set"), NOT_SET)
"""The "not set" choice of the Images dropdowns: its value is the one the handlers read, its words the catalogue's."""


def build_images_tab(ctx: TabContext) -> None:
    session = gr.State(ImagesSession())
    with gr.Row():
        with gr.Column(scale=2):
            prompt = gr.Textbox(label=t("common.prompt"), lines=3, info=t("images.prompt_help"), elem_id="images-prompt")
            with gr.Row():
                run = gr.Button(t("images.generate"), variant="primary", elem_id="images-generate")
                stop_button = gr.Button(t("conversation.stop"), variant="stop", elem_id="images-stop")
            status = gr.Markdown(elem_id="images-status", elem_classes=["metrics-line"])
            error = error_banner("images")  # under the button the eye is on, above the fold
            notice = notice_banner("images")
            model = gr.Dropdown(list(IMAGE_MODELS), value=IMAGE_MODELS[0], label=t("chat.model"), allow_custom_value=True, elem_id="images-model")
            with gr.Row(equal_height=True):
                ratio = gr.Dropdown([NOT_SHOWN, *RATIOS], value="1:1", label=t("images.aspect_ratio_size_w"), allow_custom_value=True,
                                    elem_id="images-ratio", scale=1)
                preview = gr.HTML(ratio_preview_html("1:1", "1K"), elem_id="images-ratio-preview", scale=1)
            with gr.Row():
                tier = gr.Dropdown([NOT_SHOWN, "1K", "2K", "3K"], value="1K", label=t("images.size_tier_image_size"), elem_id="images-tier")
                n = gr.Slider(1, MAX_IMAGES_PER_CALL, value=1, step=1, label=t("images.number_of_images_n"), elem_id="images-n")
            with gr.Row():
                quality = gr.Dropdown([NOT_SHOWN, "auto", "low", "medium", "high"], value=NOT_SET, label=t("images.quality"), allow_custom_value=True,
                                      elem_id="images-quality")
                mime_type = gr.Dropdown([NOT_SHOWN, "image/png", "image/jpeg", "image/webp"], value="image/png", label=t("images.output_type_mime_type"),
                                        allow_custom_value=True, elem_id="images-mime")
            with gr.Accordion(t("common.more_parameters"), open=False):
                modalities = gr.Dropdown([NOT_SHOWN, "image", "text,image"], value=NOT_SET, label=t("images.response_modalities"),
                                         allow_custom_value=True, elem_id="images-modalities")
                gr.Markdown(t("images.response_format_is_always"))
            with developer_section("images"):
                extra = gr.Code("", language="json", label=t("images.extra_fields_json_object"),
                                interactive=True, elem_id="images-extra")
            references = gr.File(file_count="multiple", file_types=["image"], label=t("images.reference_images_image_to"),
                                 elem_id="images-references")
            examples = ExampleRow.build("images", EXAMPLES)
            presets = PresetBar.build("images")
            session_file = SessionFileBar.build("images")
        with gr.Column(scale=3):
            gallery = gr.Gallery(label=t("images.results_click_one_for"), columns=2,
                                 height=440, object_fit="contain", elem_id="images-gallery")
            downloads = gr.File(label=t("images.download_the_original_files"), file_count="multiple", interactive=False, elem_id="images-downloads")
            delivered = gr.HTML(t("imgview.empty"), elem_id="images-delivered")
            with gr.Group(), gr.Row(equal_height=True):
                picked = gr.Image(label=t("images.picked_image"), type="filepath", interactive=False, height=140, elem_id="images-picked")
                with gr.Column(scale=2):
                    instruction = gr.Textbox(label=t("images.refine_what_to_change"), lines=2, elem_id="images-refine-instruction")
                    refine_button = gr.Button(t("images.refine"), elem_id="images-refine")
            with gr.Row(visible=False, elem_id="images-refine-compare") as compare:
                before = gr.Image(label=t("images.source"), type="filepath", interactive=False, elem_id="images-refine-source")
                after = gr.Image(label=t("images.result"), type="filepath", interactive=False, elem_id="images-refine-result")
            history = gr.Gallery(label=t("images.this_session_s_generations"), columns=6, height=170,
                                 allow_preview=False, object_fit="cover", fit_columns=False, elem_id="images-history")
    inspector = Inspector.build("images")

    form_inputs = [prompt, model, ratio, tier, n, quality, mime_type, modalities, extra]
    by_name = dict(zip(FORM_FIELDS, form_inputs, strict=True))
    def check(values: dict[str, Any], sent: list[dict[str, Any]]) -> None:
        ImageForm(**{**values, "prompt": values.get("prompt") or PROMPT_STAND_IN}).request()

    session_file.wire(by_name, check=check)
    examples.wire({**by_name, "instruction": instruction})
    if ctx.presets is not None:
        presets.wire(ctx.presets, by_name)
    shown_outputs = [gallery, downloads, delivered, picked, history, compare, before, after]

    def shown(state: ImagesSession) -> tuple[Any, ...]:
        generation = state.shown
        items = gallery_items(generation)
        is_refine = generation is not None and generation.kind == "refine" and bool(items)
        files = [str(path) for path in generation.downloads] if generation is not None and generation.downloads else [path for path, _ in items]
        return (items, files or None, delivered_html(generation), items[0][0] if items else None,
                history_items(state.history), gr.update(visible=is_refine),
                str(generation.source) if is_refine and generation else None, items[0][0] if is_refine else None)

    def finished(state: ImagesSession, outcome: Outcome) -> tuple[Any, ...]:
        if outcome.generation is None and outcome.error:  # nothing delivered: no stale gallery or "✓ 4 of 4" stays
            failed = ([], None, nothing_delivered_html(), gr.skip(), gr.skip(), gr.update(visible=False), None, None)
            return (banner_update(outcome.error), banner_update(outcome.notice), "", *failed, *Inspector.values(outcome.exchange))
        if outcome.generation is None:
            return (banner_update(outcome.error), banner_update(outcome.notice), "", *(gr.skip(),) * len(shown_outputs),
                    *Inspector.values(outcome.exchange))
        return (banner_update(""), banner_update(outcome.notice), _status(outcome.generation), *shown(state), *Inspector.values(outcome.exchange))

    def working(state: ImagesSession) -> tuple[Any, ...]:
        begin(state)
        return banner_update(""), banner_update(""), word("⏳ Waiting for the gateway… (Stop gives up waiting)")

    def on_stop(state: ImagesSession) -> tuple[Any, ...]:
        stop(state)
        return banner_update(say(STOPPED)), ""

    async def on_generate(state: ImagesSession, url: str, key: str, text: str, model_id: str, ratio_text: str, tier_text: str, count: float,
                          quality_text: str, mime: str, modes: str, extra_text: str, files: list[str] | None,
                          progress: Any = gr.Progress()) -> tuple[Any, ...]:
        form = ImageForm(text, model_id, ratio_text, tier_text, count, quality_text, mime, modes, files, extra_text)
        progress(0.1, desc=say("images.progress_generate", count=int(count or 1), images=images_word(int(count or 1))))
        return finished(state, await generate(ctx.client, ctx.defaults, state, url, key, form))

    async def on_refine(state: ImagesSession, url: str, key: str, change: str, text: str, model_id: str, ratio_text: str, tier_text: str,
                        count: float, quality_text: str, mime: str, modes: str, extra_text: str,
                        progress: Any = gr.Progress()) -> tuple[Any, ...]:
        form = ImageForm(text, model_id, ratio_text, tier_text, count, quality_text, mime, modes, extra_fields=extra_text)
        progress(0.1, desc=say("images.progress_refine"))
        return finished(state, await refine(ctx.client, ctx.defaults, state, url, key, form, change))

    def on_select(state: ImagesSession, evt: gr.SelectData) -> Any:
        image = select(state, evt.index if isinstance(evt.index, int) else None)
        return str(image.path) if image is not None else gr.skip()

    def on_restore(state: ImagesSession, evt: gr.SelectData) -> tuple[Any, ...]:
        generation = restore(state, evt.index if isinstance(evt.index, int) else -1)
        if generation is None:
            return (gr.skip(),) * (len(form_inputs) + 3 + len(shown_outputs) + len(inspector.components))
        settings = [generation.settings.get(name, gr.skip()) for name in FORM_FIELDS]
        return (*settings, _status(generation), banner_update(""), banner_update(""), *shown(state), *Inspector.values(generation.exchange))

    outputs = [error, notice, status, *shown_outputs, *inspector.components]
    options: dict[str, Any] = {"concurrency_limit": GENERATE_CONCURRENCY, "concurrency_id": "images-generate"}
    gr.on([ratio.change, tier.change], ratio_preview_html, [ratio, tier], preview, queue=False, show_progress="hidden")
    run.click(working, session, [error, notice, status], queue=False).then(
        on_generate, [session, *ctx.connection, *form_inputs, references], outputs, **options)
    refine_button.click(working, session, [error, notice, status], queue=False).then(
        on_refine, [session, *ctx.connection, instruction, *form_inputs], outputs, **options)
    stop_button.click(on_stop, session, [notice, status], queue=False)
    gallery.select(on_select, session, picked, queue=False)
    history.select(on_restore, session, [*form_inputs, status, error, notice, *shown_outputs, *inspector.components], queue=False)

    def from_curl(request: CurlRequest) -> list[Any]:
        values = image_form_values(request.body)
        return [values[name] for name in FORM_FIELDS]

    ctx.imports.register(FormImport("images", "Images", ("images",), form_inputs, from_curl, FORM_FIELDS, check))
