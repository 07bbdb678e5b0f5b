"""Video generation: submit a task, poll it until it ends, save the finished video to a file.

    api = VideoAPI(transport)
    task, exchange = await api.submit(conn, build_video_request(VideoInput(...)))
    async for update in api.poll(conn, task.task_id, cancel=event):
        ...  # update.task.status, update.task.progress, update.elapsed
    saved = await api.save_result(conn, final_task, directory)

vidA results come through the download endpoint (base64 in JSON, decoded while it streams);
every other family's `url` is fetched to a file. Both are size-capped and checked to be MP4.
"""

from __future__ import annotations

from playground.client.texts import Text

import asyncio
import random
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from playground.client.errors import (
    APIConnectionError,
    CorruptDownloadError,
    DownloadTooLargeError,
    GatewayError,
    PollDeadlineError,
    RateLimitError,
    RequestValidationError,
    ServerError,
    TooManyFailedPolls,
    VideoTaskFailed,
)
from playground.client.transport import Connection, Exchange, Transport, read_error
from playground.client.validation import RequestModel
from playground.client.video_files import (
    MAX_VIDEO_BYTES,
    Base64ToFile,
    JSONObjectStream,
    capped_video_file,
    discard,
)

SUBMIT_PATH = "/v1/video/generations"
DOWNLOAD_PATH = "/v1/video/generations/download"
TERMINAL = frozenset({"succeeded", "failed"})
POLL_INTERVAL = (3.0, 5.0)
POLL_DEADLINE_S = 30 * 60.0
MAX_FAILED_POLLS = 3
TRANSIENT = (APIConnectionError, ServerError, RateLimitError)
_TASK_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:-]{0,199}$")
_CHUNK = 256 * 1024


def check_task_id(task_id: str) -> str:
    """A task id safe to put in a path and a file name; raises `RequestValidationError`."""
    task_id = (task_id or "").strip()
    if not _TASK_ID.match(task_id):
        raise RequestValidationError([Text("video.task_id_not_valid", task_id=repr(task_id[:60]))])
    return task_id


@dataclass(frozen=True)
class VideoTask:
    """A video task as submit or query returned it. `progress` is 0-100 when the gateway sends one."""

    task_id: str
    status: str
    format: str = "mp4"
    url: str | None = None
    error_code: int | None = None
    error_message: str | None = None
    progress: float | None = None

    @property
    def done(self) -> bool:
        return self.status in TERMINAL

    @property
    def uses_download_endpoint(self) -> bool:
        return self.task_id.startswith("video_")

    @classmethod
    def from_json(cls, data: Any, task_id: str | None = None) -> VideoTask:
        if not isinstance(data, dict) or not (data.get("task_id") or task_id):
            raise GatewayError(Text("video.answer_not_task", answer=str(data)[:200]))
        error = data.get("error")
        error = error if isinstance(error, dict) else {}
        code = error.get("code")
        return cls(
            task_id=str(data.get("task_id") or task_id),
            status=str(data.get("status") or "").lower(),
            format=str(data.get("format") or "mp4"),
            url=data.get("url") if isinstance(data.get("url"), str) else None,
            error_code=code if isinstance(code, int) else None,
            error_message=str(error.get("message") or "") or None,
            progress=_progress(data.get("progress")),
        )

    def raise_if_failed(self) -> None:
        if self.status == "failed":
            raise VideoTaskFailed(self.task_id, self.error_code, self.error_message or Text("video.no_reason_given"))


def _progress(value: Any) -> float | None:
    if isinstance(value, str):
        value = value.strip().rstrip("%")
    if isinstance(value, bool):
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, min(100.0, number))


@dataclass
class PollUpdate:
    """One step of polling: the latest known task, time since polling began, and any failed poll."""

    task: VideoTask | None
    elapsed: float
    polls: int
    failed_polls: int = 0
    error: GatewayError | None = None
    exchange: Exchange | None = None


@dataclass
class SavedVideo:
    path: Path
    size: int
    exchange: Exchange = field(repr=False)


class VideoAPI:
    def __init__(
        self,
        transport: Transport,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        poll_interval: tuple[float, float] = POLL_INTERVAL,
        max_video_bytes: int = MAX_VIDEO_BYTES,
        max_concurrent_downloads: int = 4,
    ) -> None:
        self.transport = transport
        self.clock = clock
        self.sleep = sleep
        self.poll_interval = poll_interval
        self.max_video_bytes = max_video_bytes
        self._downloads = asyncio.Semaphore(max_concurrent_downloads)

    async def submit(self, conn: Connection, request: RequestModel) -> tuple[VideoTask, Exchange]:
        """Submit once: a paid call is never resent after the gateway may have accepted it."""
        data, exchange = await self.transport.request_json(conn, "POST", SUBMIT_PATH, request.to_body(), retry_after_accept=False)
        return VideoTask.from_json(data), exchange

    async def query(self, conn: Connection, task_id: str, *, max_retries: int | None = None) -> tuple[VideoTask, Exchange]:
        task_id = check_task_id(task_id)
        data, exchange = await self.transport.request_json(conn, "GET", f"{SUBMIT_PATH}/{task_id}", max_retries=max_retries)
        return VideoTask.from_json(data, task_id), exchange

    async def poll(
        self,
        conn: Connection,
        task_id: str,
        *,
        cancel: asyncio.Event | None = None,
        deadline: float = POLL_DEADLINE_S,
        max_failed_polls: int = MAX_FAILED_POLLS,
    ) -> AsyncIterator[PollUpdate]:
        """Query every 3-5 s until the task ends, yielding each state; stops quietly on `cancel`.

        Up to `max_failed_polls` failed queries in a row (network, 429, 5xx) are reported and
        tolerated; more raise `TooManyFailedPolls`. Past `deadline` seconds: `PollDeadlineError`.
        """
        task_id = check_task_id(task_id)
        started = self.clock()
        polls = failures = 0
        last: VideoTask | None = None
        while not (cancel and cancel.is_set()):
            polls += 1
            try:
                last, exchange = await self.query(conn, task_id, max_retries=0)
            except TRANSIENT as error:
                failures += 1
                if failures > max_failed_polls:
                    raise TooManyFailedPolls(Text("video.polls_failed_in_a_row", failures=failures, error=error.message)) from error
                yield PollUpdate(last, self.clock() - started, polls, failures, error)
            else:
                failures = 0
                yield PollUpdate(last, self.clock() - started, polls, 0, None, exchange)
                if last.done:
                    return
            wait = random.uniform(*self.poll_interval)
            if self.clock() - started + wait > deadline:
                raise PollDeadlineError(Text("video.poll_deadline", task_id=task_id, status=last.status if last else Text("video.status_unknown"), seconds=deadline))
            await self._wait(wait, cancel)

    async def _wait(self, seconds: float, cancel: asyncio.Event | None) -> None:
        if cancel is None:
            await self.sleep(seconds)
            return
        sleeper = asyncio.ensure_future(self.sleep(seconds))
        stopper = asyncio.ensure_future(cancel.wait())
        try:
            await asyncio.wait({sleeper, stopper}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            sleeper.cancel()
            stopper.cancel()

    async def save_result(self, conn: Connection, task: VideoTask, directory: Path) -> SavedVideo:
        """Save a succeeded task's video as `<directory>/<task_id>.mp4` (download endpoint for vidA, else `url`)."""
        task.raise_if_failed()
        if task.status != "succeeded":
            raise GatewayError(Text("video.task_not_finished", task_id=task.task_id, status=task.status or Text("video.status_unknown_state")))
        directory.mkdir(parents=True, exist_ok=True)
        target = directory / f"{check_task_id(task.task_id)}.mp4"
        async with self._downloads:
            if task.uses_download_endpoint:
                return await self._download(conn, task.task_id, target)
            if not task.url:
                raise CorruptDownloadError(Text("video.no_video_url", task_id=task.task_id))
            return await self._fetch(task.url, target)

    async def _download(self, conn: Connection, task_id: str, target: Path) -> SavedVideo:
        budget = self.max_video_bytes * 3 + 64 * 1024  # base64 and data_url both carry the video (4/3 each)
        with capped_video_file(target, self.max_video_bytes) as capped:
            decoder = Base64ToFile(capped)
            parser = JSONObjectStream({"base64": decoder, "data_url": discard})
            async with self.transport.stream(conn, DOWNLOAD_PATH, method="GET", params={"id": task_id}) as (response, exchange):
                await _read_into(response, parser.feed, budget, Text("video.download_result"))
            values = parser.finish()
            decoder.close()
            exchange.response_body = {**values, "base64": f"<{decoder.characters:,} characters>"}
            _check_download(values, task_id, capped.written)
        return SavedVideo(target, capped.written, exchange)

    async def _fetch(self, url: str, target: Path) -> SavedVideo:
        with capped_video_file(target, self.max_video_bytes) as capped:
            async with self.transport.fetch(url) as (response, exchange):
                declared = int(response.headers.get("content-length") or 0)
                if declared > self.max_video_bytes:
                    raise DownloadTooLargeError(Text("video.declared_too_large", megabytes=declared / 1e6, limit=self.max_video_bytes / 1e6))
                await _read_into(response, capped.write, self.max_video_bytes, Text("video.the_video"))
            exchange.response_body = f"<{capped.written:,} bytes of video>"
        return SavedVideo(target, capped.written, exchange)


async def _read_into(response: httpx.Response, sink: Callable[[bytes], None], budget: int, what: Text) -> None:
    received = 0
    try:
        async for chunk in response.aiter_bytes(_CHUNK):
            received += len(chunk)
            if received > budget:
                raise DownloadTooLargeError(Text("video.too_large_for_cap", what=what, limit=budget / 1e6))
            sink(chunk)
    except httpx.HTTPError as exc:
        raise read_error(exc, Text("video.the_part", what=what)) from None


def _check_download(values: dict[str, Any], task_id: str, written: int) -> None:
    if values.get("success") is False:
        raise CorruptDownloadError(Text("video.download_unsuccessful", task_id=task_id))
    if values.get("generation_id") not in (None, task_id):
        raise CorruptDownloadError(Text("video.download_for_other_task", found=repr(values.get('generation_id')), task_id=repr(task_id)))
    size = values.get("size")
    if isinstance(size, (int, float)) and int(size) != written:
        raise CorruptDownloadError(Text("video.download_size_differs", size=int(size), written=written))
