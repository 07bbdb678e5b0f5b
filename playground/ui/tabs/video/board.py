"""The Video tab's task board: the jobs of one browser session and how they are shown.

Plain Python (no Gradio): a `VideoBoard` lives in the session's `gr.State` and is shared by the
handlers of that session; `board_html` draws it, with a progress bar per job. A job's message is kept
as what it says (`Words`) and worded when the board is drawn, so a board drawn after the header's
language switch says it in the new language; the board keeps that language (`VideoBoard.language`)
for its watcher, whose event still carries the cookie of before.
"""

from __future__ import annotations

import asyncio
import html
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from playground.client.transport import Connection, Exchange
from playground.client.video import PollUpdate
from playground.ui.i18n import EN, say
from playground.ui.i18n.client_words import word
from playground.ui.shared.own_addresses import shown_to_reader
from playground.ui.web.shown_files import shown_path

MAX_JOBS = 20
ACTIVE_STATES = frozenset({"submitted", "queued", "in_progress", "resuming", "saving"})
Words = Callable[[], str]
"""A job's message as what it says (`partial(say, key, ...)`), worded each time it is shown."""
CALLS = ("submit", "latest poll", "download")
"""The calls of a job the inspector can show, each kept separately (shown as `vboard.call.<call>`)."""


def state_label(state: str) -> str:
    """A job state in the visitor's language (an unknown state from the gateway as it came)."""
    key = f"vboard.state.{state}"
    return say(key) if key in EN else state


def _poll_failed(polls: int, failed: int, error: str) -> str:
    return say("vboard.poll_failed", polls=polls, failed=failed, error=shown_to_reader(word(error)))


@dataclass
class VideoJob:
    task_id: str
    model: str
    prompt: str
    submitted_at: float
    conn: Connection | None = field(default=None, repr=False)
    state: str = "submitted"
    progress: float | None = None
    said: Words | None = field(default=None, repr=False)
    video_path: Path | None = None
    finished_at: float | None = None
    cancel: asyncio.Event = field(default_factory=asyncio.Event, repr=False)
    calls: dict[str, Exchange] = field(default_factory=dict, repr=False)

    @property
    def message(self) -> str:
        """The job's message in the visitor's language at this moment ("" for none)."""
        return self.said() if self.said is not None else ""

    @property
    def active(self) -> bool:
        return self.state in ACTIVE_STATES

    def elapsed(self, now: float) -> float:
        return max(0.0, (self.finished_at or now) - self.submitted_at)

    def apply(self, update: PollUpdate) -> None:
        if update.error is not None:
            self.said = partial(_poll_failed, update.polls, update.failed_polls, update.error.message)
            return
        task = update.task
        if task is None:
            return
        self.progress = task.progress
        if task.status == "failed":
            self.end("failed", partial(say, "vboard.failed", message=task.error_message, code=task.error_code))
        elif task.status == "succeeded":
            self.state, self.progress, self.said = "saving", 100.0, partial(say, "vboard.saving")
            self.finished_at = self.finished_at or time.time()
        else:
            self.state, self.said = task.status, None

    def end(self, state: str, said: Words | None = None) -> None:
        self.state, self.said = state, said
        self.finished_at = self.finished_at or time.time()


@dataclass
class VideoBoard:
    jobs: dict[str, VideoJob] = field(default_factory=dict)
    watching: bool = False
    language: str | None = None
    """The language the visitor last chose with the header's switch (None: each event's own): the watcher
    writes in it, as its event was sent before the switch."""
    inspecting: tuple[str, str] | None = None
    """(task id, call) the inspector shows; the watcher refreshes it as that call changes."""

    def add(self, job: VideoJob) -> VideoJob:
        existing = self.jobs.pop(job.task_id, None)
        if existing is not None and existing.active:
            existing.cancel.set()
        self.jobs[job.task_id] = job
        while len(self.jobs) > MAX_JOBS:
            oldest = next(iter(self.jobs))
            self.jobs.pop(oldest).cancel.set()
        return job

    def active(self) -> list[VideoJob]:
        return [job for job in self.jobs.values() if job.active]

    def finished_videos(self) -> list[VideoJob]:
        return [job for job in reversed(list(self.jobs.values())) if job.video_path is not None]

    def saved(self) -> list[dict[str, Any]]:
        """What the browser keeps so jobs survive a reload: ids and labels, nothing secret."""
        return [{"task_id": j.task_id, "model": j.model, "prompt": j.prompt[:300], "submitted_at": j.submitted_at,
                 "finished_at": j.finished_at} for j in self.jobs.values()]

    def restore(self, saved: Any) -> int:
        """Put back the jobs the browser remembered (they are polled on the current connection);
        entries that are not job records are skipped. Returns how many came back."""
        restored = 0
        for item in saved if isinstance(saved, list) else []:
            if not isinstance(item, dict) or not isinstance(item.get("task_id"), str) or item["task_id"] in self.jobs:
                continue
            submitted, finished = item.get("submitted_at"), item.get("finished_at")
            job = VideoJob(item["task_id"], str(item.get("model") or "?"), str(item.get("prompt") or ""),
                           float(submitted) if isinstance(submitted, (int, float)) else time.time(), state="resuming",
                           finished_at=float(finished) if isinstance(finished, (int, float)) else None)
            self.add(job)
            restored += 1
        return restored

    def clear(self) -> None:
        for job in self.jobs.values():
            job.cancel.set()
        self.jobs.clear()


def _bar(job: VideoJob) -> str:
    percent = 100.0 if job.state in ("succeeded", "saving") else job.progress
    if percent is None:
        return '<div class="video-progress indeterminate" role="progressbar" aria-valuemin="0" aria-valuemax="100"><div class="video-progress-fill"></div></div>'
    return (f'<div class="video-progress" role="progressbar" aria-valuemin="0" aria-valuemax="100" aria-valuenow="{percent:.0f}">'
            f'<div class="video-progress-fill" style="width:{percent:.1f}%"></div></div>')


def _duration(seconds: float) -> str:
    minutes, secs = divmod(int(seconds), 60)
    return say("vboard.minutes", minutes=minutes, seconds=f"{secs:02d}") if minutes else say("vboard.seconds", seconds=secs)


def board_html(board: VideoBoard, now: float | None = None) -> str:
    now = time.time() if now is None else now
    if not board.jobs:
        return say("vboard.empty")
    rows, no_prompt = [], f"<em>{say('vboard.no_prompt')}</em>"
    for job in reversed(list(board.jobs.values())):
        label = state_label(job.state)
        percent = f" · {job.progress:.0f}%" if job.progress is not None and job.active and job.state != "saving" else ""
        said = job.message
        message = f'<div class="video-job-message">{html.escape(said)}</div>' if said else ""
        rows.append(
            f'<div class="video-job state-{html.escape(job.state)}" data-task-id="{html.escape(job.task_id)}" data-state="{html.escape(job.state)}">'
            f'<div class="video-job-head"><span class="video-job-state">{label}{percent}</span>'
            f' · <span class="video-job-elapsed">{_duration(job.elapsed(now))}</span>'
            f' · <code>{html.escape(job.model)}</code> · <code class="video-job-id">{html.escape(job.task_id)}</code></div>'
            f'<div class="video-job-prompt">{html.escape(job.prompt[:200]) or no_prompt}</div>'
            f"{_bar(job)}{message}</div>"
        )
    return '<div class="video-board">' + "".join(rows) + "</div>"


def gallery_items(board: VideoBoard) -> list[tuple[str, str]]:
    return [(path, f"{job.model} · {job.prompt[:60]}") for job in board.finished_videos() if (path := shown_path(job.video_path)) is not None]


def job_choices(board: VideoBoard) -> list[tuple[str, str]]:
    """(label, task id) of every job, newest first, for the inspector's job picker."""
    return [(f"{job.task_id} · {job.model} · {state_label(job.state)}", job.task_id) for job in reversed(list(board.jobs.values()))]


def job_call(board: VideoBoard, pick: tuple[str, str] | None) -> Exchange | None:
    """The exchange of the picked job's call (None when that call has not happened yet)."""
    job = board.jobs.get(pick[0]) if pick else None
    return job.calls.get(pick[1]) if job is not None and pick else None
