"""The Video tab's layout and wiring: a form that follows the model, the task board with a
progress bar per job, the player and gallery of finished videos, resume and cancel. The events
run `video_handlers`."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

import gradio as gr

from playground.client.video_catalog import video_model_ids
from playground.ui.tabs.context import TabContext, TabParts
from playground.ui.shared.curl_panel import FormImport
from playground.ui.shared.developer import VIDEO_MARKERS, developer_section
from playground.ui.shared.examples import Example, ExampleRow, Said
from playground.ui.i18n import choices, t
from playground.ui.shared.presets import PresetBar
from playground.ui.session_files.panel import Arrival, SessionFileBar
from playground.ui.shared.uploaded_image import uploaded_image
from playground.ui.tabs.video.board import CALLS, VideoBoard
from playground.ui.tabs.video.form import DEFAULT_MODEL, FIELD_NAMES, check_video_values, mode_fields, model_fields, model_notes
from playground.ui.tabs.video.handlers import (
    MODEL_DRIVEN,
    VideoHandlers,
    arrive,
    cancel,
    clear_board,
    first_notes,
    flags_of,
    from_curl,
    inspect_job_call,
    mode_changed,
    model_changed,
    pick_video,
    restore_board,
    reworded,
)
from playground.ui.shared.widgets import Inspector, error_banner
from playground.ui.shared.scrolling import bring_into_view
from playground.ui.web.browser_stores import kept_in_browser

EXAMPLES = [
    Example(t("video.a_4_second_video"), t("video.a_short_text_to"),
            {"prompt": Said("video.example.boat_prompt"), "duration": 4}),
    Example(t("video.see_a_job_fail"), t("video.the_demo_refuses_prompts"),
            {"prompt": Said("video.example.refused_prompt"), "duration": 4}),
]
JOBS_STORAGE_KEY = "gateway-playground-video-jobs"
SUBMIT_CONCURRENCY = 16
WATCH_CONCURRENCY = 64
FILE_FIELDS = ("first_frame", "last_frame", "references")
"""Fields an example, a preset or a session file does not carry (uploads)."""


def video_stores() -> tuple[gr.BrowserState, gr.State]:
    """The task ids the browser keeps, and the session's board. Create them outside the tabs: a tab's
    content is only mounted when the tab is first opened, too late for the page-load event that
    restores the jobs; and the board, which that event and the job watcher read, near the top of the
    page's tree (Gradio's page walks its tree to a completed event's inputs on every later status
    message: issue 41)."""
    return kept_in_browser({"jobs": []}, JOBS_STORAGE_KEY), gr.State(VideoBoard())


@dataclass
class VideoPage:
    """The tab's components; `fields` is the form by `FIELD_NAMES`."""

    board: gr.State
    arrived: gr.State
    fields: dict[str, Any]
    notes: gr.Markdown
    flags: gr.Textbox
    submit: gr.Button
    examples: ExampleRow
    presets: PresetBar
    session_file: SessionFileBar
    error: gr.Markdown
    board_view: gr.HTML
    cancel_pick: gr.Dropdown
    cancel: gr.Button
    resume_id: gr.Textbox
    resume: gr.Button
    clear: gr.Button
    player: gr.Video
    gallery: gr.Gallery
    inspect_job: gr.Dropdown
    inspect_call: gr.Radio
    inspector: Inspector

    @property
    def kept_fields(self) -> dict[str, Any]:
        """The fields but the uploads (`FILE_FIELDS`)."""
        return {name: c for name, c in self.fields.items() if name not in FILE_FIELDS}


def form_fields() -> tuple[dict[str, Any], gr.Markdown]:
    """The form (call inside the left column), by `FIELD_NAMES`, and the model's notes."""
    start = model_fields(DEFAULT_MODEL)
    model = gr.Dropdown(video_model_ids(), value=DEFAULT_MODEL, label=t("chat.model"), elem_id="video-model")
    notes = gr.Markdown(model_notes(DEFAULT_MODEL), elem_id="video-model-notes")  # worded on load (`first_notes`)
    mode = gr.Radio(choices(start["mode"].choices or ()), value=start["mode"].value, label=t("video.mode"), elem_id="video-mode")
    prompt = gr.Textbox(label=t("common.prompt"), lines=3, info=t("video.prompt_help"), elem_id="video-prompt")
    first_frame = uploaded_image(label=t("vform.first_frame"), visible=False, elem_id="video-first-frame")
    last_frame = uploaded_image(label=t("vform.last_frame"), visible=False, elem_id="video-last-frame")
    references = gr.File(file_count="multiple", file_types=["image"], label=t("video.reference_images_1_2"), visible=False, elem_id="video-references")
    remix = gr.Textbox(label=t("video.remix_from_video_id"), visible=False, elem_id="video-remix")
    with gr.Row():
        # Their choices follow the model; a change event can still carry the previous model's
        # value, so Gradio must not refuse it: the video request models check every value.
        duration = gr.Dropdown(list(start["duration"].choices or ()), value=start["duration"].value, label=t("video.duration_s"),
                               allow_custom_value=True, elem_id="video-duration")
        resolution = gr.Dropdown([], label=t("video.resolution"), visible=False, allow_custom_value=True, elem_id="video-resolution")
        ratio = gr.Dropdown([], label=t("video.aspect_ratio"), visible=False, allow_custom_value=True, elem_id="video-ratio")
        size = gr.Dropdown(list(start["size"].choices or ()), value=start["size"].value, label=t("video.size"), allow_custom_value=True, elem_id="video-size")
    with gr.Accordion(t("common.more_parameters"), open=False, elem_id="video-more"):
        with gr.Row():
            fps = gr.Number(None, label=t("video.fps"), visible=False, elem_id="video-fps")
            seed = gr.Number(None, label=t("video.seed_empty_random"), visible=False, elem_id="video-seed")
            frames = gr.Number(None, label=t("video.frames_25_4n_29"), visible=False, elem_id="video-frames")
            count = gr.Number(1, label=t("video.videos_per_call_1"), visible=False, elem_id="video-count")
        with gr.Row():
            person = gr.Dropdown(["", "allow_all", "allow_adult", "dont_allow"], value="", label=t("video.person_generation"), visible=False, elem_id="video-person")
            watermark = gr.Dropdown(["not set", "true", "false"], value="not set", label=t("video.watermark_wm"), visible=False, elem_id="video-watermark")
            camera_fixed = gr.Dropdown(["not set", "true", "false"], value="not set", label=t("video.camera_fixed_cf"), visible=False, elem_id="video-camera-fixed")
        with gr.Row():
            smart_rewrite = gr.Checkbox(False, label=t("video.smart_rewrite"), visible=False, elem_id="video-smart-rewrite")
            generate_audio = gr.Checkbox(False, label=t("video.generate_audio"), visible=False, elem_id="video-generate-audio")
            return_last_frame = gr.Checkbox(False, label=t("video.return_last_frame"), visible=False, elem_id="video-return-last-frame")
        audio_url = gr.Textbox(label=t("video.audio_url_https"), visible=False, elem_id="video-audio-url")
        callback_url = gr.Textbox(label=t("video.metadata_callback_url_posted"), visible=False, elem_id="video-callback-url")
    with developer_section("video", VIDEO_MARKERS):
        gr.Markdown(t("video.for_vidd_models_the"))
    form_inputs = [model, mode, prompt, first_frame, last_frame, references, remix, duration, resolution, ratio, size, fps, seed,
                   count, person, watermark, camera_fixed, frames, smart_rewrite, generate_audio, audio_url, return_last_frame, callback_url]
    return dict(zip(FIELD_NAMES, form_inputs, strict=True)), notes


def layout(board: gr.State) -> VideoPage:
    """Lay out the tab around the session's board (made before the tabs: `video_stores`)."""
    arrived = gr.State(None)
    with gr.Row():
        with gr.Column(scale=2):
            fields, notes = form_fields()
            flags = gr.Textbox(label=t("video.text_sent_in_metadata"), interactive=False, visible=False, elem_id="video-flags")
            submit = gr.Button(t("video.generate_video"), variant="primary", elem_id="video-submit")
            examples = ExampleRow.build("video", EXAMPLES, shows="video-board", note="examples.resets_video")
            presets = PresetBar.build("video")
            session_file = SessionFileBar.build("video")
            error = error_banner("video")
        with gr.Column(scale=3):
            board_view = gr.HTML(t("vboard.empty"), elem_id="video-board")
            with gr.Row():
                cancel_pick = gr.Dropdown([], label=t("video.running_job"), scale=3, elem_id="video-cancel-pick")
                cancel_button = gr.Button(t("video.stop_watching_the_job"), scale=1, elem_id="video-cancel")
            with gr.Row():
                resume_id = gr.Textbox(label=t("video.resume_a_task_by"), placeholder=t("video.paste_a_task_id"), scale=3, elem_id="video-resume-id")
                resume = gr.Button(t("common.resume"), scale=1, elem_id="video-resume")
                clear = gr.Button(t("video.clear_board"), scale=1, size="sm", elem_id="video-clear")
            player = gr.Video(label=t("video.latest_video"), interactive=False, autoplay=True, height=360, elem_id="video-player")
            gallery = gr.Gallery(label=t("video.finished_videos_select_one"), columns=4, height=220, object_fit="contain", visible=False,
                                 elem_id="video-gallery")
    with gr.Row():
        inspect_job = gr.Dropdown([], label=t("video.inspect_the_calls_of"), scale=3, elem_id="video-inspect-job")
        inspect_call = gr.Radio([(t(f"vboard.call.{call}"), call) for call in CALLS], value="submit", label=t("video.call"), scale=2, elem_id="video-inspect-call")
    inspector = Inspector.build("video")
    return VideoPage(board, arrived, fields, notes, flags, submit, examples, presets, session_file, error, board_view, cancel_pick,
                     cancel_button, resume_id, resume, clear, player, gallery, inspect_job, inspect_call, inspector)


@dataclass(frozen=True)
class JobWatch:
    """Chains the watcher (`VideoHandlers.follow_jobs`) after an event that may start jobs."""

    page: VideoPage
    saved: gr.BrowserState
    connection: list[Any]
    handlers: VideoHandlers

    def follow(self, event: Any) -> Any:
        page = self.page
        outputs = [page.board_view, page.gallery, page.player, page.cancel_pick, page.inspect_job, self.saved, *page.inspector.components]
        return event.then(self.handlers.follow_jobs, [page.board, *self.connection], outputs, concurrency_limit=WATCH_CONCURRENCY,
                          concurrency_id="video-watch", show_progress="hidden")

    def restore_after(self, event: Any) -> Any:
        """After `event`: the jobs the browser kept back on the board, and watched."""
        return self.follow(event.then(restore_board, [self.page.board, self.saved], self.page.board_view, queue=False))


def wire_form(page: VideoPage, ctx: TabContext) -> None:
    """Examples and presets fill the form; the model and the mode decide which fields show."""
    fields, driven = page.fields, [page.fields[name] for name in MODEL_DRIVEN]
    page.examples.wire(fields, keep=("model", *MODEL_DRIVEN))  # the model's own fields follow the model picker
    if ctx.presets is not None:
        page.presets.wire(ctx.presets, page.kept_fields)
    fields["model"].change(model_changed, [fields["model"], page.arrived, *driven], [*driven, page.flags, page.notes, page.arrived], queue=False)
    fields["mode"].change(mode_changed, fields["mode"], [fields[name] for name in mode_fields(None)], queue=False)
    # the form as the page holds it, unchecked: during a model change a field can still hold the old
    # model's mode, which Gradio would refuse as not among the choices; the change that follows corrects it
    gr.on([component.change for component in page.kept_fields.values()], flags_of, list(fields.values()), page.flags, queue=False,
          show_progress="hidden", trigger_mode="always_last", preprocess=False)


def wire_jobs(page: VideoPage, handlers: VideoHandlers, watch: JobWatch) -> None:
    """Submit, resume, cancel and clear the board; pick a video to play and a call to inspect."""
    connection, inspector = watch.connection, page.inspector.components
    bring_into_view(page.submit, "video-board")  # the job's progress bar, above the form's end
    watch.follow(page.submit.click(handlers.submit, [page.board, *connection, *page.fields.values()],
                                   [page.error, page.board_view, watch.saved, page.cancel_pick, page.inspect_job, page.inspect_call, *inspector],
                                   concurrency_limit=SUBMIT_CONCURRENCY))
    watch.follow(page.resume.click(handlers.resume, [page.board, *connection, page.resume_id], [page.error, page.board_view, watch.saved,
                                                                                                 page.cancel_pick], queue=False))
    page.cancel.click(cancel, [page.board, page.cancel_pick], [page.error, page.board_view, page.cancel_pick], queue=False)
    page.clear.click(clear_board, page.board, [page.board_view, watch.saved, page.gallery, page.player, page.cancel_pick], queue=False)
    page.gallery.select(pick_video, None, page.player, queue=False)
    gr.on([page.inspect_job.input, page.inspect_call.input], inspect_job_call, [page.board, page.inspect_job, page.inspect_call], inspector,
          queue=False)


def build_video_tab(ctx: TabContext) -> TabParts:
    """Lay out the tab and wire its events; hands back the hook that restores the jobs this browser
    kept (`video_stores`, `ctx.stores["video"]`) after the page's connection is restored."""
    saved, board = ctx.stores["video"]
    page = layout(board)
    handlers = VideoHandlers(ctx.client, ctx.defaults)
    watch = JobWatch(page, saved, ctx.connection, handlers)
    wire_form(page, ctx)
    wire_jobs(page, handlers, watch)
    page.session_file.wire(page.kept_fields, arrival=Arrival([page.arrived], arrive), check=check_video_values)
    ctx.imports.register(FormImport("video", "Video", ("video",), [*page.fields.values(), page.arrived], from_curl, FIELD_NAMES,
                                    check_video_values))
    return TabParts(after_load=partial(_after_load, watch), after_language=partial(_reworded, page))


def _after_load(watch: JobWatch, loaded: Any) -> None:
    """After the page's load: the kept jobs back (`JobWatch.restore_after`) and the model's notes in the
    visitor's language (the layout's are in the first locale; this reads nothing from the page)."""
    watch.restore_after(loaded)
    loaded.then(first_notes, None, watch.page.notes, queue=False, show_progress="hidden")


def _reworded(page: VideoPage, switched: Any) -> None:
    """After the language switch: the board and the model's notes in the new language."""
    switched.then(reworded, [page.board, page.fields["model"]], [page.board_view, page.notes], queue=False, show_progress="hidden")
