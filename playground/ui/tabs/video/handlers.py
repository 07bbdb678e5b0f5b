"""The Video tab's handlers: submit, resume, cancel, restore, and the watcher that polls every
active job of a session and saves finished videos (plain async functions over plain values);
then the handlers the tab's events run (`video_tab` wires them), which turn those into the
page's updates: module functions, and `VideoHandlers` for the ones that need the client.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import gradio as gr

from playground.client.curl_import import CurlRequest
from playground.client.errors import GatewayError, RequestValidationError
from playground.client.gateway import GatewayClient
from playground.client.limits import LimitError
from playground.client.media import media_directory
from playground.client.transport import Connection, Exchange
from playground.client.video import VideoTask, check_task_id
from playground.client.video_catalog import video_model_ids
from playground.client.video_requests import build_video_request
from playground.ui.shared.connection import ServerDefaults, resolve_connection
from playground.ui.shared.form_check import unchanged_problems
from playground.ui.i18n import choices, say, speaking, visitor_language
from playground.ui.shared.links import opened_with
from playground.ui.shared.render import error_text, error_words
from playground.ui.web.shown_files import shown_path
from playground.ui.tabs.video.board import VideoBoard, VideoJob, board_html, gallery_items, job_call, job_choices
from playground.ui.tabs.video.form import DEFAULT_MODEL, FIELD_NAMES, VideoForm, flags_preview, kept_value, mode_fields, model_fields, model_notes
from playground.ui.tabs.video.curl_import import video_form_values
from playground.ui.shared.widgets import Inspector, banner_update

BOARD_TICK_S = 0.5
VIDA_MODEL = "vidA-2"
KEEP_VIDEOS_S = 24 * 3600.0


def video_directory(conn: Connection) -> Path:
    """Where this gateway's videos are saved: under GRADIO_TEMP_DIR, one folder per base URL."""
    return media_directory("videos") / hashlib.sha256(conn.base_url.encode()).hexdigest()[:16]


def prune_videos(directory: Path, max_age_s: float = KEEP_VIDEOS_S, now: float | None = None) -> int:
    """Delete saved videos older than `max_age_s` (a long-running Space must not fill its disk)."""
    cutoff = (time.time() if now is None else now) - max_age_s
    removed = 0
    for path in directory.glob("*.mp4"):
        try:
            if path.stat().st_mtime < cutoff:
                path.unlink()
                removed += 1
        except FileNotFoundError:
            continue
    return removed


@dataclass
class Outcome:
    """What a submit/resume/cancel did: an error to show (or ""), and the exchange to inspect."""

    error: str = ""
    exchange: Exchange | None = None


async def submit_job(client: GatewayClient, defaults: ServerDefaults, board: VideoBoard, url: str, key: str, form: VideoForm) -> Outcome:
    try:
        conn = resolve_connection(defaults, url, key)
    except GatewayError as error:
        return Outcome(error_text(error))
    boards = [board]
    if conn.quota is not None:  # the visitor's boards in all their sessions: a new session is no new allowance
        conn.quota.job_holders[id(board)] = board
        boards = list(conn.quota.job_holders.values())
    running = sum(len(held.active()) for held in boards)
    if running >= defaults.video_jobs_per_session:
        return Outcome(error_text(LimitError(say("vboard.too_many", running=running))))
    try:
        spec = form.to_input()
        task, exchange = await client.video.submit(conn, build_video_request(spec))
    except GatewayError as error:
        return Outcome(error_text(error))
    job = board.add(VideoJob(task.task_id, spec.model, spec.prompt, time.time(), conn, state=task.status or "submitted"))
    job.calls["submit"] = exchange
    board.inspecting = (job.task_id, "submit")
    return Outcome("", exchange)


def resume_job(defaults: ServerDefaults, board: VideoBoard, url: str, key: str, task_text: str) -> Outcome:
    try:
        conn = resolve_connection(defaults, url, key)
        task_id = check_task_id(task_text)
    except GatewayError as error:
        return Outcome(error_text(error))
    model = VIDA_MODEL if task_id.startswith("video_") else "resumed task"
    board.add(VideoJob(task_id, model, "", time.time(), conn, state="resuming"))
    return Outcome()


def cancel_job(board: VideoBoard, task_id: str | None) -> Outcome:
    job = board.jobs.get(task_id or "")
    if job is None or not job.active:
        return Outcome(say("vboard.nothing_to_cancel") if board.active() else "")
    job.cancel.set()
    job.end("cancelled", partial(say, "vboard.polling_stopped"))
    return Outcome()


async def follow(client: GatewayClient, board: VideoBoard, job: VideoJob, fallback: Connection) -> None:
    """Poll one job until it ends, then save its video; every outcome lands on the job."""
    conn = job.conn or fallback
    final: VideoTask | None = None
    try:
        async for update in client.video.poll(conn, job.task_id, cancel=job.cancel):
            job.apply(update)
            if update.exchange is not None:
                job.calls["latest poll"] = update.exchange
            final = update.task or final
        if job.cancel.is_set() or final is None or final.status != "succeeded":
            return
        target = video_directory(conn) / f"{final.task_id}.mp4"
        if not target.is_file():
            if target.parent.is_dir():
                prune_videos(target.parent)
            saved = await client.video.save_result(conn, final, target.parent)
            if saved.exchange is not None:
                job.calls["download"] = saved.exchange
        job.video_path = target
        job.end("succeeded")
    except GatewayError as error:
        if error.exchange is not None:
            job.calls["download" if job.state == "saving" else "latest poll"] = error.exchange
        job.end("error", partial(error_words, error))
    except Exception as error:
        job.end("error", partial(error_text, error))


async def watch(client: GatewayClient, defaults: ServerDefaults, board: VideoBoard, url: str, key: str) -> AsyncIterator[VideoBoard]:
    """Follow every active job of the board, yielding the board at a steady pace while any runs.

    One watcher per session: a second call returns at once and the running one picks up new
    jobs. It ends when no job is active; closing the page cancels it (and its polls)."""
    if board.watching:
        return
    try:
        fallback = resolve_connection(defaults, url, key)
    except GatewayError as error:
        for job in board.active():
            job.end("error", partial(error_text, error))
        yield board
        return
    board.watching = True
    followers: dict[str, asyncio.Task[None]] = {}
    try:
        while True:
            for job in board.active():
                if job.task_id not in followers or followers[job.task_id].done():
                    followers[job.task_id] = asyncio.create_task(follow(client, board, job, fallback))
            running = [task for task in followers.values() if not task.done()]
            yield board
            if not running and not board.active():
                return
            await asyncio.wait(running, timeout=BOARD_TICK_S) if running else await asyncio.sleep(BOARD_TICK_S)
    finally:
        board.watching = False
        for task in followers.values():
            task.cancel()


# The page's handlers. Outputs are named where they are wired (`video_tab`), in the same order.

MODEL_DRIVEN = tuple(model_fields(DEFAULT_MODEL))
"""The fields whose choices and visibility follow the model picker."""


def model_updates(model_id: str, current: list[Any] | None) -> list[Any]:
    """The model-driven fields for `model_id`: its choices and visibility; a value that fits it
    stays (what was typed), others go to its default. Without `current` the values are left alone."""
    states = model_fields(model_id)
    return [gr.update(visible=s.visible, **({"value": kept_value(s, current[n])} if current is not None else {}),
                      **({"choices": choices(s.choices, say)} if s.choices is not None else {}))
            for n, s in enumerate(states[name] for name in MODEL_DRIVEN)]


def model_changed(model_id: str, arrived: str | None, *current: Any) -> tuple[Any, ...]:
    """The model picker's change: the model-driven fields, the flags box, the notes, `arrived` reset.
    `arrived` names a model whose values came with it (a curl import or a loaded session): the
    change event that follows reads the fields before those values reach them."""
    updates = model_updates(model_id, None if arrived == model_id else list(current))
    is_vidd = (model_id or "").startswith("vidD")
    return (*updates, gr.update(visible=is_vidd), model_notes(model_id), None)


def mode_changed(mode_label: str) -> tuple[Any, ...]:
    """The mode's change: which image, reference and remix fields show."""
    return tuple(gr.update(visible=shown) for shown in mode_fields(mode_label).values())


def flags_of(*values: Any) -> str:
    """The flags box: the text a vidD model gets in its metadata, for the form as it is."""
    return flags_preview(VideoForm(*values))


def inspect_pick(board: VideoBoard) -> tuple[Any, Any]:
    """The inspector's job and call pickers, following what the board inspects."""
    task_id, call = board.inspecting or (None, "submit")
    return gr.update(choices=job_choices(board), value=task_id), gr.update(value=call)


def active_choices(board: VideoBoard) -> Any:
    """The running-job picker: the active jobs, the newest picked."""
    active = [job.task_id for job in board.active()]
    return gr.update(choices=active, value=active[-1] if active else None)


def inspect_job_call(state: VideoBoard, task_id: str | None, call: str | None) -> tuple[Any, ...]:
    """A job and call picked to inspect: the inspector shows that call (or says why it cannot)."""
    state.inspecting = (task_id, call or "submit") if task_id else None
    exchange = job_call(state, state.inspecting)
    if exchange is None:
        return Inspector.note(say("video.say.job_has_no_call_yet", call=call) if task_id else say("video.say.pick_job_calls"))
    return Inspector.values(exchange)


def cancel(state: VideoBoard, task_id: str | None) -> tuple[Any, ...]:
    """Stop watching the picked job: error banner, board, running-job picker."""
    outcome = cancel_job(state, task_id)
    return banner_update(outcome.error), board_html(state), active_choices(state)


def clear_board(state: VideoBoard) -> tuple[Any, ...]:
    """Clear the board: board, saved jobs, gallery, player, running-job picker."""
    state.clear()
    return board_html(state), {"jobs": []}, finished_videos([]), None, active_choices(state)


def finished_videos(videos: list[tuple[str, str]]) -> Any:
    """The gallery of finished videos, shown only once it has one (empty, it was a blank block)."""
    return gr.update(value=videos, visible=bool(videos))


def restore_board(state: VideoBoard, stored: Any) -> str:
    """The jobs the browser kept, back on the board after a reload."""
    state.restore(stored.get("jobs") if isinstance(stored, dict) else None)
    return board_html(state)


def first_notes(request: gr.Request) -> Any:
    """On the page's load: the model's notes in the visitor's language (the layout's are in the first locale),
    for the built model or the one the page's link picks, reading nothing from the page. A link that picks
    a preset is left to the model picker's change event."""
    linked = opened_with(request, "video")
    if "preset" in linked:
        return gr.skip()
    model = linked.get("model", DEFAULT_MODEL)
    return model_notes(model if model in video_model_ids() else DEFAULT_MODEL)


def reworded(state: VideoBoard, model_id: str | None) -> tuple[str, str]:
    """After the header's language switch: the board and the model's notes in the new language, which the
    board keeps for its watcher (`VideoBoard.language`)."""
    state.language = visitor_language()
    return board_html(state), model_notes(model_id or DEFAULT_MODEL)


def pick_video(evt: gr.SelectData) -> Any:
    """A video picked in the gallery plays; the path comes from the page, so only a file the app made is played."""
    value = evt.value
    path = value.get("video", {}).get("path") if isinstance(value, dict) and isinstance(value.get("video"), dict) else None
    return shown_path(path) or gr.skip()


def arrive(values: dict[str, Any]) -> tuple[dict[str, Any], list[Any]]:
    """Values that came with a model (import, loaded file): its fields' choices with them, and
    `arrived` set so the model's change event keeps them."""
    model_id = values.get("model") or DEFAULT_MODEL
    driven = dict(zip(MODEL_DRIVEN, model_updates(model_id, [values.get(name) for name in MODEL_DRIVEN]), strict=True))
    return {**values, **driven}, [model_id]


def from_curl(request: CurlRequest) -> list[Any]:
    """A curl command's body as the form's values and `arrived` (refused when a value would not survive)."""
    given = video_form_values(request.body)
    values, marker = arrive(given)
    changed = unchanged_problems({k: v for k, v in given.items() if v not in (None, "")}, values, given.get("model"))
    if changed:
        raise RequestValidationError(changed)
    return [values[name] for name in FIELD_NAMES] + marker


@dataclass(frozen=True)
class VideoHandlers:
    """The handlers that call the gateway, with the client and the server's defaults."""

    client: GatewayClient
    defaults: ServerDefaults

    async def submit(self, state: VideoBoard, url: str, key: str, *values: Any) -> tuple[Any, ...]:
        """Generate: error banner, board, saved jobs, running-job picker, inspector pickers, inspector."""
        outcome = await submit_job(self.client, self.defaults, state, url, key, VideoForm(*values))
        return (banner_update(outcome.error), board_html(state), {"jobs": state.saved()}, active_choices(state),
                *inspect_pick(state), *Inspector.values(outcome.exchange))

    def resume(self, state: VideoBoard, url: str, key: str, task_text: str) -> tuple[Any, ...]:
        """Resume a task by id: error banner, board, saved jobs, running-job picker."""
        outcome = resume_job(self.defaults, state, url, key, task_text)
        return banner_update(outcome.error), board_html(state), {"jobs": state.saved()}, active_choices(state)

    async def follow_jobs(self, state: VideoBoard, url: str, key: str) -> AsyncIterator[tuple[Any, ...]]:
        """The watcher's updates: board, gallery, player, running-job picker, inspector's job
        picker, saved jobs, inspector; each but the board only when it changed; worded in the language
        the visitor last switched to (`VideoBoard.language`), not the one this event was sent in."""
        shown_exchange = job_call(state, state.inspecting)
        shown_active: list[str] | None = None
        shown_videos, shown_saved, shown_jobs = gallery_items(state), state.saved(), job_choices(state)
        async for current in watch(self.client, self.defaults, state, url, key):
            videos = gallery_items(current)
            new_videos = videos != shown_videos
            shown_videos = videos
            active = [job.task_id for job in current.active()]
            exchange = job_call(current, current.inspecting)
            with speaking(current.language):  # the visitor's language now: the switch may have come after this event left
                saved_now, jobs_now = current.saved(), job_choices(current)
                update = (
                    board_html(current),
                    finished_videos(videos) if new_videos else gr.skip(),
                    (videos[0][0] if videos else None) if new_videos else gr.skip(),
                    active_choices(current) if active != shown_active else gr.skip(),
                    gr.update(choices=jobs_now) if jobs_now != shown_jobs else gr.skip(),
                    {"jobs": saved_now} if saved_now != shown_saved else gr.skip(),
                    *(Inspector.values(exchange) if exchange is not shown_exchange else Inspector.values(None)),
                )
            yield update
            shown_active, shown_exchange, shown_saved, shown_jobs = active, exchange, saved_now, jobs_now
