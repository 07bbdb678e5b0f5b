"""The Images tab's layout and wiring: the form with an aspect-ratio preview, the gallery of
results with their original files to download, what was delivered against what was asked,
refine (source and result side by side), the session's history, Stop, inspector and code."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

import gradio as gr

from playground.ui.tabs.images.state import ImagesSession, NOT_SET
from playground.ui.i18n import t

from playground.client.catalog import IMAGE_MODELS
from playground.client.images import MAX_IMAGES_PER_CALL
from playground.ui.tabs.context import TabContext, TabParts
from playground.ui.shared.curl_panel import FormImport
from playground.ui.shared.developer import developer_section
from playground.ui.shared.examples import Example, ExampleRow, Said
from playground.ui.tabs.images import handlers
from playground.ui.tabs.images.handlers import FORM_FIELDS
from playground.ui.tabs.images.views import RATIOS, ratio_preview_html
from playground.ui.shared.presets import PresetBar
from playground.ui.session_files.panel import SessionFileBar
from playground.ui.shared.widgets import Inspector, error_banner, notice_banner
from playground.ui.shared.scrolling import bring_into_view

GENERATE_CONCURRENCY = 16
EXAMPLES = [
    Example(t("images.make_a_16_9"), t("images.a_wide_picture_the"),
            {"prompt": Said("images.example.wide_prompt"), "ratio": "16:9", "n": 1, "tier": "1K"}),
    Example(t("images.four_variations"), t("images.four_pictures_from_one"),
            {"prompt": Said("images.example.variations_prompt"), "ratio": "1:1", "n": 4, "tier": "1K"}),
    Example(t("images.turn_a_photo_into"), t("images.generate_click_the_picture"),
            {"prompt": Said("images.example.photo_prompt"), "ratio": "3:2", "n": 1, "instruction": Said("images.example.watercolour_instruction")}),
    Example(t("images.see_a_refused_prompt"), t("images.the_demo_refuses_prompts"),
            {"prompt": Said("images.example.refused_prompt"), "ratio": "1:1", "n": 1}),
]


NOT_SHOWN = (t("imgview.not_set"), NOT_SET)
"""The "not set" choice of the Images dropdowns: its value is the one the handlers read, its words the catalogue's."""


@dataclass
class ImagesResults:
    """The results column: gallery, downloads, what was delivered, Refine and the session's generations."""

    gallery: gr.Gallery
    downloads: gr.File
    delivered: gr.HTML
    picked: gr.Image
    instruction: gr.Textbox
    refine_button: gr.Button
    compare: gr.Row
    before: gr.Image
    after: gr.Image
    history: gr.Gallery

    def shown(self) -> list[Any]:
        """What a generation (and a restored one) shows, in the handlers' order."""
        return [self.gallery, self.downloads, self.delivered, self.picked, self.history, self.compare, self.before, self.after]


def _settings() -> tuple[Any, ...]:
    """(model, ratio, ratio preview, tier, n, quality, mime type, modalities, extra fields)."""
    model = gr.Dropdown(list(IMAGE_MODELS), value=IMAGE_MODELS[0], label=t("chat.model"), allow_custom_value=True, elem_id="images-model")
    with gr.Row(equal_height=True):
        ratio = gr.Dropdown([NOT_SHOWN, *RATIOS], value=handlers.FIRST_RATIO, label=t("images.aspect_ratio_size_w"), allow_custom_value=True,
                            elem_id="images-ratio", scale=1)
        preview = gr.HTML(ratio_preview_html(handlers.FIRST_RATIO, handlers.FIRST_TIER), elem_id="images-ratio-preview", scale=1)  # worded on load
    with gr.Row():
        tier = gr.Dropdown([NOT_SHOWN, "1K", "2K", "3K"], value=handlers.FIRST_TIER, label=t("images.size_tier_image_size"), elem_id="images-tier")
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
    return model, ratio, preview, tier, n, quality, mime_type, modalities, extra


def _results() -> ImagesResults:
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
    return ImagesResults(gallery, downloads, delivered, picked, instruction, refine_button, compare, before, after, history)


def build_images_tab(ctx: TabContext) -> TabParts:
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
            model, ratio, preview, tier, n, quality, mime_type, modalities, extra = _settings()
            references = gr.File(file_count="multiple", file_types=["image"], label=t("images.reference_images_image_to"),
                                 elem_id="images-references")
            examples = ExampleRow.build("images", EXAMPLES, shows="images-gallery")
            presets = PresetBar.build("images")
            session_file = SessionFileBar.build("images")
        with gr.Column(scale=3):
            results = _results()
    inspector = Inspector.build("images")

    form_inputs = [prompt, model, ratio, tier, n, quality, mime_type, modalities, extra]
    by_name = dict(zip(FORM_FIELDS, form_inputs, strict=True))
    session_file.wire(by_name, check=handlers.check_form)
    examples.wire({**by_name, "instruction": results.instruction})
    if ctx.presets is not None:
        presets.wire(ctx.presets, by_name)
    gr.on([ratio.change, tier.change], ratio_preview_html, [ratio, tier], preview, queue=False, show_progress="hidden")
    parts = TabParts(after_load=partial(_first_preview, preview), after_language=partial(_reworded_preview, ratio, tier, preview))
    _wire_generation(ctx, session, form_inputs, references, (run, stop_button), [error, notice, status], results, inspector)
    ctx.imports.register(FormImport("images", "Images", ("images",), form_inputs, handlers.form_from_curl, FORM_FIELDS, handlers.check_form))
    return parts


def _first_preview(preview: gr.HTML, loaded: Any) -> None:
    """After the page's load: the ratio preview in the visitor's language (it reads nothing from the page)."""
    loaded.then(handlers.first_preview, None, preview, queue=False, show_progress="hidden")


def _reworded_preview(ratio: gr.Dropdown, tier: gr.Dropdown, preview: gr.HTML, switched: Any) -> None:
    """After the language switch: the ratio preview in the new language."""
    switched.then(ratio_preview_html, [ratio, tier], preview, queue=False, show_progress="hidden")


def _wire_generation(ctx: TabContext, session: gr.State, form_inputs: list[Any], references: gr.File, buttons: tuple[gr.Button, gr.Button],
                     banners: list[Any], results: ImagesResults, inspector: Inspector) -> None:
    """Generate, Refine and Stop, picking a result and restoring a generation. `banners`: (error, notice, status)."""
    run, stop_button = buttons
    error, notice, status = banners
    wired = handlers.ImagesHandlers(ctx.client, ctx.defaults)
    shown_outputs = results.shown()
    outputs = [error, notice, status, *shown_outputs, *inspector.components]
    options: dict[str, Any] = {"concurrency_limit": GENERATE_CONCURRENCY, "concurrency_id": "images-generate"}
    bring_into_view(run, "images-gallery")
    run.click(handlers.waiting, session, [error, notice, status], queue=False).then(
        wired.generate_images, [session, *ctx.connection, *form_inputs, references], outputs, **options)
    results.refine_button.click(handlers.waiting, session, [error, notice, status], queue=False).then(
        wired.refine_image, [session, *ctx.connection, results.instruction, *form_inputs], outputs, **options)
    stop_button.click(handlers.stop_clicked, session, [notice, status], queue=False)
    results.gallery.select(handlers.pick_image, session, results.picked, queue=False)
    results.history.select(handlers.restore_generation, session, [*form_inputs, status, error, notice, *shown_outputs, *inspector.components],
                           queue=False)
