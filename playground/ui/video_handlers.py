"""The Video tab's handlers: submit, resume, cancel, restore, and the watcher that polls every
active job of a session and saves finished videos. Plain async functions over plain values.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

from playground.client.errors import GatewayError
from playground.client.gateway import GatewayClient
from playground.client.limits import LimitError
from playground.client.media import media_directory
from playground.client.transport import Connection, Exchange
from playground.client.video import VideoTask, check_task_id
from playground.client.video_requests import build_video_request
from playground.ui.connection import ServerDefaults, resolve_connection
from playground.ui.i18n import say
from playground.ui.render import error_text
from playground.ui.video_board import VideoBoard, VideoJob
from playground.ui.video_form import VideoForm

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
    job.end("cancelled", say("vboard.polling_stopped"))
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
        job.end("error", error.user_message)
    except Exception as error:  # noqa: BLE001 - a job must never stay "active" because of a bug
        job.end("error", error_text(error))


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
            job.end("error", error_text(error))
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
