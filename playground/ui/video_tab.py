"""The Video tab's layout and wiring: a form that follows the model, the task board with a
progress bar per job, the player and gallery of finished videos, resume and cancel."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import gradio as gr

from playground.ui.client_words import word
from playground.ui.i18n import choices, say, t

from playground.client.curl_import import CurlRequest
from playground.client.errors import RequestValidationError
from playground.client.video_catalog import video_model_ids
from playground.ui.context import TabContext
from playground.ui.curl_panel import FormImport
from playground.ui.developer import VIDEO_MARKERS, developer_section
from playground.ui.examples import Example, ExampleRow
from playground.ui.form_check import unchanged_problems
from playground.ui.presets import PresetBar
from playground.ui.session_file import Arrival, SessionFileBar
from playground.ui.uploaded_image import uploaded_image
from playground.ui.shown_files import shown_path
from playground.ui.video_board import (
    CALLS,
    VideoBoard,
    board_html,
    gallery_items,
    job_call,
    job_choices,
)
from playground.ui.video_form import (
    DEFAULT_MODEL,
    FIELD_NAMES,
    VideoForm,
    check_video_values,
    flags_preview,
    kept_value,
    mode_fields,
    model_fields,
    model_notes,
)
from playground.ui.video_handlers import (
    cancel_job,
    resume_job,
    submit_job,
    watch,
)
from playground.ui.video_import import video_form_values
from playground.ui.widgets import Inspector, banner_update, error_banner

EXAMPLES = [
    Example(t("video.a_4_second_video"), t("video.a_short_text_to"),
            {"prompt": "A paper boat drifting down a rainy street, close-up", "duration": 4}),
    Example(t("video.see_a_job_fail"), t("video.the_demo_refuses_prompts"),
            {"prompt": "A forbidden scene", "duration": 4}),
]
JOBS_STORAGE_KEY = "gateway-playground-video-jobs"
SUBMIT_CONCURRENCY = 16
WATCH_CONCURRENCY = 64


def _inspect_pick(board: VideoBoard) -> tuple[Any, Any]:
    """The inspector's job and call pickers, following what the board inspects."""
    task_id, call = board.inspecting or (None, "submit")
    return gr.update(choices=job_choices(board), value=task_id), gr.update(value=call)


def _active_choices(board: VideoBoard) -> Any:
    active = [job.task_id for job in board.active()]
    return gr.update(choices=active, value=active[-1] if active else None)


def saved_jobs_state() -> gr.BrowserState:
    """The task ids the browser keeps. Create it outside the tabs: a tab's content is only mounted
    when the tab is first opened, too late for the page-load event that restores the jobs."""
    return gr.BrowserState({"jobs": []}, storage_key=JOBS_STORAGE_KEY)


def build_video_tab(ctx: TabContext, saved: gr.BrowserState) -> Callable[[Any], Any]:
    """Lay out the tab and wire its events; returns a hook that restores saved jobs after an event."""
    start = model_fields(DEFAULT_MODEL)
    board = gr.State(VideoBoard())
    arrived = gr.State(None)
    with gr.Row():
        with gr.Column(scale=2):
            model = gr.Dropdown(video_model_ids(), value=DEFAULT_MODEL, label=t("chat.model"), elem_id="video-model")
            notes = gr.Markdown(model_notes(DEFAULT_MODEL), elem_id="video-model-notes")
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
            flags = gr.Textbox(label=t("video.text_sent_in_metadata"), interactive=False, visible=False, elem_id="video-flags")
            submit = gr.Button(t("video.generate_video"), variant="primary", elem_id="video-submit")
            examples = ExampleRow.build("video", EXAMPLES, note="examples.resets_video")
            presets = PresetBar.build("video")
            session_file = SessionFileBar.build("video")
            error = error_banner("video")
        with gr.Column(scale=3):
            board_view = gr.HTML(t("vboard.empty"), elem_id="video-board")
            with gr.Row():
                cancel_pick = gr.Dropdown([], label=t("video.running_job"), scale=3, elem_id="video-cancel-pick")
                cancel = gr.Button(t("video.stop_watching_the_job"), scale=1, elem_id="video-cancel")
            with gr.Row():
                resume_id = gr.Textbox(label=t("video.resume_a_task_by"), placeholder=t("video.paste_a_task_id"), scale=3, elem_id="video-resume-id")
                resume = gr.Button(t("common.resume"), scale=1, elem_id="video-resume")
                clear = gr.Button(t("video.clear_board"), scale=1, size="sm", elem_id="video-clear")
            player = gr.Video(label=t("video.latest_video"), interactive=False, autoplay=True, height=360, elem_id="video-player")
            gallery = gr.Gallery(label=t("video.finished_videos_select_one"), columns=4, height=220, object_fit="contain", elem_id="video-gallery")
    with gr.Row():
        inspect_job = gr.Dropdown([], label=t("video.inspect_the_calls_of"), scale=3, elem_id="video-inspect-job")
        inspect_call = gr.Radio([(t(f"vboard.call.{call}"), call) for call in CALLS], value="submit", label=t("video.call"), scale=2, elem_id="video-inspect-call")
    inspector = Inspector.build("video")

    form_inputs = [model, mode, prompt, first_frame, last_frame, references, remix, duration, resolution, ratio, size, fps, seed,
                   count, person, watermark, camera_fixed, frames, smart_rewrite, generate_audio, audio_url, return_last_frame, callback_url]
    assert len(form_inputs) == len(FIELD_NAMES)
    by_name = dict(zip(FIELD_NAMES, form_inputs))
    model_driven = list(model_fields(DEFAULT_MODEL))
    examples.wire(by_name, keep=("model", *model_driven))  # the model's own fields follow the model picker
    if ctx.presets is not None:
        presets.wire(ctx.presets, {name: c for name, c in by_name.items() if c not in (first_frame, last_frame, references)})

    def model_updates(model_id: str, current: list[Any] | None) -> list[Any]:
        """The model-driven fields for `model_id`: its choices and visibility; a value that fits it
        stays (what was typed), others go to its default. Without `current` the values are left alone."""
        states = model_fields(model_id)
        return [gr.update(visible=s.visible, **({"value": kept_value(s, current[n])} if current is not None else {}),
                          **({"choices": choices(s.choices, say)} if s.choices is not None else {}))
                for n, s in enumerate(states[name] for name in model_driven)]

    def on_model(model_id: str, arrived: str | None, *current: Any) -> tuple[Any, ...]:
        """`arrived` names a model whose values came with it (a curl import or a loaded session):
        the change event that follows reads the fields before those values reach them."""
        updates = model_updates(model_id, None if arrived == model_id else list(current))
        is_vidd = (model_id or "").startswith("vidD")
        return (*updates, gr.update(visible=is_vidd), model_notes(model_id), None)

    def on_mode(mode_label: str) -> tuple[Any, ...]:
        return tuple(gr.update(visible=shown) for shown in mode_fields(mode_label).values())

    async def on_submit(state: VideoBoard, url: str, key: str, *values: Any) -> tuple[Any, ...]:
        outcome = await submit_job(ctx.client, ctx.defaults, state, url, key, VideoForm(*values))
        return (banner_update(outcome.error), board_html(state), {"jobs": state.saved()}, _active_choices(state),
                *_inspect_pick(state), *Inspector.values(outcome.exchange))

    def on_inspect(state: VideoBoard, task_id: str | None, call: str | None) -> tuple[Any, ...]:
        state.inspecting = (task_id, call or "submit") if task_id else None
        exchange = job_call(state, state.inspecting)
        if exchange is None:
            return Inspector.note(word(f"This job has no “{call}” call yet.") if task_id else word("Pick a job to see its calls."))
        return Inspector.values(exchange)

    def on_resume(state: VideoBoard, url: str, key: str, task_text: str) -> tuple[Any, ...]:
        outcome = resume_job(ctx.defaults, state, url, key, task_text)
        return banner_update(outcome.error), board_html(state), {"jobs": state.saved()}, _active_choices(state)

    def on_cancel(state: VideoBoard, task_id: str | None) -> tuple[Any, ...]:
        outcome = cancel_job(state, task_id)
        return banner_update(outcome.error), board_html(state), _active_choices(state)

    def on_clear(state: VideoBoard) -> tuple[Any, ...]:
        state.clear()
        return board_html(state), {"jobs": []}, [], None, _active_choices(state)

    def on_restore(state: VideoBoard, stored: Any) -> str:
        state.restore(stored.get("jobs") if isinstance(stored, dict) else None)
        return board_html(state)

    async def on_watch(state: VideoBoard, url: str, key: str) -> AsyncIterator[tuple[Any, ...]]:
        shown_exchange = job_call(state, state.inspecting)
        shown_active: list[str] | None = None
        shown_videos = gallery_items(state)
        shown_saved = state.saved()
        shown_jobs = job_choices(state)
        async for current in watch(ctx.client, ctx.defaults, state, url, key):
            videos = gallery_items(current)
            new_videos = videos != shown_videos
            shown_videos = videos
            active = [job.task_id for job in current.active()]
            exchange = job_call(current, current.inspecting)
            saved_now, jobs_now = current.saved(), job_choices(current)
            yield (
                board_html(current),
                videos if new_videos else gr.skip(),
                (videos[0][0] if videos else None) if new_videos else gr.skip(),
                _active_choices(current) if active != shown_active else gr.skip(),
                gr.update(choices=jobs_now) if jobs_now != shown_jobs else gr.skip(),
                {"jobs": saved_now} if saved_now != shown_saved else gr.skip(),
                *(Inspector.values(exchange) if exchange is not shown_exchange else Inspector.values(None)),
            )
            shown_active, shown_exchange, shown_saved, shown_jobs = active, exchange, saved_now, jobs_now

    def on_pick(evt: gr.SelectData) -> Any:
        value = evt.value
        path = value.get("video", {}).get("path") if isinstance(value, dict) and isinstance(value.get("video"), dict) else None
        return shown_path(path) or gr.skip()  # the path comes from the page: only a file the app made is played

    connection = ctx.connection
    watch_outputs = [board_view, gallery, player, cancel_pick, inspect_job, saved, *inspector.components]
    watch_options: dict[str, Any] = {"concurrency_limit": WATCH_CONCURRENCY, "concurrency_id": "video-watch", "show_progress": "hidden"}

    model.change(on_model, [model, arrived, *(by_name[name] for name in model_driven)],
                 [*(by_name[name] for name in model_driven), flags, notes, arrived], queue=False)
    mode.change(on_mode, mode, [by_name[name] for name in mode_fields(None)], queue=False)
    gr.on([component.change for component in form_inputs if component not in (first_frame, last_frame, references)],
          lambda *values: flags_preview(VideoForm(*values)), form_inputs, flags, queue=False, show_progress="hidden",
          trigger_mode="always_last")
    submit.click(on_submit, [board, *connection, *form_inputs], [error, board_view, saved, cancel_pick, inspect_job, inspect_call, *inspector.components],
                 concurrency_limit=SUBMIT_CONCURRENCY).then(on_watch, [board, *connection], watch_outputs, **watch_options)
    resume.click(on_resume, [board, *connection, resume_id], [error, board_view, saved, cancel_pick], queue=False).then(
        on_watch, [board, *connection], watch_outputs, **watch_options)
    cancel.click(on_cancel, [board, cancel_pick], [error, board_view, cancel_pick], queue=False)
    clear.click(on_clear, board, [board_view, saved, gallery, player, cancel_pick], queue=False)
    gallery.select(on_pick, None, player, queue=False)
    gr.on([inspect_job.input, inspect_call.input], on_inspect, [board, inspect_job, inspect_call], inspector.components, queue=False)

    def arrive(values: dict[str, Any]) -> tuple[dict[str, Any], list[Any]]:
        """Values that came with a model (import, loaded file): its fields' choices with them, and
        `arrived` set so the model's change event keeps them."""
        model_id = values.get("model") or DEFAULT_MODEL
        driven = dict(zip(model_driven, model_updates(model_id, [values.get(name) for name in model_driven]), strict=True))
        return {**values, **driven}, [model_id]

    def from_curl(request: CurlRequest) -> list[Any]:
        given = video_form_values(request.body)
        values, marker = arrive(given)
        changed = unchanged_problems({k: v for k, v in given.items() if v not in (None, "")}, values, given.get("model"))
        if changed:
            raise RequestValidationError(changed)
        return [values[name] for name in FIELD_NAMES] + marker

    session_file.wire({name: c for name, c in by_name.items() if c not in (first_frame, last_frame, references)},
                      arrival=Arrival([arrived], arrive), check=check_video_values)
    ctx.imports.register(FormImport("video", "Video", ("video",), [*form_inputs, arrived], from_curl, FIELD_NAMES, check_video_values))

    def restore_after(event: Any) -> Any:
        return event.then(on_restore, [board, saved], board_view, queue=False).then(
            on_watch, [board, *connection], watch_outputs, **watch_options)

    return restore_after
