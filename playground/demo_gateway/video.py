"""Video tasks on the demo gateway: submit, query, the vidA download endpoint, served files,
and vidD's completion callback.

A task's state is a function of the config's clock: `queued` for `video_queue_seconds`, then
`in_progress` (with a `progress` percentage) for `video_run_seconds`, then `succeeded` or,
when the prompt contains the word "forbidden", `failed` with error code 1301. The video is made
for the task (`video_clip.py`) at the asked size and length; the prompt marker `[[video_mb:N]]`
pads it to about N MB with an MP4 `free` box (big-download demos).
"""

from __future__ import annotations

import asyncio
import base64
import logging
import secrets
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse

from playground.demo_gateway.common import HTTPProblem
from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.faults import Fault
from playground.demo_gateway.video_clip import render_clip
from playground.demo_gateway.video_rules import VideoJob, check_video_body

REJECTED_WORD = "forbidden"
REJECTED_CODE = 1301
MAX_PADDING_MB = 300
CALLBACK_GIVE_UP_S = 2 * 3600.0
_CHUNK = 3 * 64 * 1024
log = logging.getLogger(__name__)


MAX_SECONDS = 30.0


def clip_for(job: VideoJob) -> bytes:
    """The task's video (rendered once, then cached): at the job's size, as long as it asks."""
    return render_clip(job.width, job.height, min(max(job.seconds, 1.0), MAX_SECONDS), job.prompt)


def _padding_mb(prompt: str) -> int:
    _, sep, rest = prompt.partition("[[video_mb:")
    number = rest.partition("]]")[0]
    return min(int(number), MAX_PADDING_MB) if sep and number.isdigit() else 0


@dataclass
class DemoTask:
    task_id: str
    job: VideoJob
    created: float
    base_url: str
    fault: Fault | None
    token: str = field(default_factory=lambda: secrets.token_urlsafe(12))
    queries: int = 0

    @property
    def rejected(self) -> bool:
        return REJECTED_WORD in self.job.prompt.lower()

    @property
    def url(self) -> str:
        return f"{self.base_url}/files/video/{self.task_id}/{self.token}.mp4"

    def fault_named(self, name: str) -> bool:
        return self.fault is not None and self.fault.name == name

    def size(self) -> int:
        padding = _padding_mb(self.job.prompt) * 1024 * 1024
        return len(clip_for(self.job)) + (padding + 8 if padding else 0)

    def chunks(self) -> Iterator[bytes]:
        """The video's bytes in pieces (padding generated, never held whole); `cut_download`
        breaks the connection halfway, whichever endpoint is sending."""
        clip = clip_for(self.job)
        size = self.size()
        sent = 0
        for piece in self._pieces(b"\x00" * len(clip) if self.fault_named("not_mp4") else clip, size - len(clip)):
            if self.fault_named("cut_download") and sent > size // 2:
                raise ConnectionAbortedError("demo fault: download cut")
            sent += len(piece)
            yield piece

    @staticmethod
    def _pieces(clip: bytes, padding: int) -> Iterator[bytes]:
        yield clip
        if padding:
            yield padding.to_bytes(4, "big") + b"free"
            remaining = padding - 8
            while remaining > 0:
                piece = min(remaining, _CHUNK)
                yield bytes(piece)
                remaining -= piece

    def view(self, config: DemoConfig) -> dict[str, Any]:
        elapsed = config.clock() - self.created
        body: dict[str, Any] = {"task_id": self.task_id, "format": "mp4"}
        queue, run = config.video_queue_seconds, config.video_run_seconds
        if elapsed < queue:
            body["status"] = "queued"
        elif self.rejected:
            body["status"] = "failed"
            body["error"] = {"code": REJECTED_CODE, "message": f"The prompt was rejected by the content policy (the demo rejects prompts containing {REJECTED_WORD!r})."}
        elif elapsed < queue + run:
            body["status"] = "in_progress"
            body["progress"] = max(1, min(99, int(100 * (elapsed - queue) / run)))
        else:
            body["status"] = "succeeded"
            body["url"] = self.url
        return body


def _aligned(pieces: Iterator[bytes]) -> Iterator[bytes]:
    """Regroup byte pieces into multiples of 3 so each encodes to base64 without padding."""
    carry = b""
    for piece in pieces:
        data = carry + piece
        cut = len(data) - len(data) % 3
        carry = data[cut:]
        if cut:
            yield data[:cut]
    if carry:
        yield carry


class VideoEndpoints:
    def __init__(self, config: DemoConfig) -> None:
        self.config = config
        self.tasks: dict[str, DemoTask] = {}
        self._callbacks: set[asyncio.Future[Any]] = set()

    async def submit(self, body: dict[str, Any], fault: Fault | None, request: Request) -> Response:
        job = check_video_body(body)
        prefix = "video_" if job.family == "vidA" else f"{job.family.lower()}-"
        task = DemoTask(prefix + secrets.token_hex(12), job, self.config.clock(), str(request.base_url).rstrip("/"), fault)
        self.tasks[task.task_id] = task
        if job.callback_url:
            self._start(asyncio.get_running_loop().create_task(self._deliver_callback(task)))
        return JSONResponse({"task_id": task.task_id, "status": "submitted", "format": "mp4"})

    def _start(self, work: asyncio.Future[Any]) -> None:
        self._callbacks.add(work)
        work.add_done_callback(self._callbacks.discard)

    def _task(self, task_id: str) -> DemoTask:
        task = self.tasks.get(task_id)
        if task is None:
            raise HTTPProblem(404, "not_found_error", f"No video task {task_id!r}.", code="task_not_found")
        return task

    async def query(self, task_id: str) -> Response:
        task = self._task(task_id)
        task.queries += 1
        if task.fault_named("poll_errors") and task.fault is not None and task.queries <= task.fault.count:
            raise HTTPProblem(503, "service_unavailable", "Demo fault: the task query failed.")
        return JSONResponse(task.view(self.config))

    async def download(self, task_id: str) -> Response:
        task = self._task(task_id)
        if task.job.family != "vidA":
            raise HTTPProblem(400, "invalid", f"The download endpoint is for vidA tasks only; {task.job.model} videos are at the url of the query.")
        if task.view(self.config)["status"] != "succeeded":
            raise HTTPProblem(409, "invalid", f"Task {task_id} has not succeeded yet.", code="task_not_ready")
        await asyncio.to_thread(clip_for, task.job)
        return StreamingResponse(self._download_json(task), media_type="application/json")

    def _download_json(self, task: DemoTask) -> Iterator[bytes]:
        size = task.size() + (1000 if task.fault_named("bad_size") else 0)
        head = f'{{"success":true,"generation_id":"{task.task_id}","task_id":"{task.task_id}","format":"mp4","size":{size},"base64":"'
        yield head.encode()
        yield from self._base64(task)
        yield b'","data_url":"data:video/mp4;base64,'
        yield from self._base64(task)
        yield b'"}'

    def _base64(self, task: DemoTask) -> Iterator[bytes]:
        for index, piece in enumerate(_aligned(task.chunks())):
            encoded = base64.b64encode(piece)
            if task.fault_named("corrupt_base64") and index == 0:
                encoded = encoded[:100] + b"!!" + encoded[102:]
            yield encoded

    async def file(self, task_id: str, token: str) -> Response:
        task = self.tasks.get(task_id)
        if task is None or not secrets.compare_digest(token, task.token) or task.view(self.config)["status"] != "succeeded":
            return JSONResponse({"error": {"message": "No such video file."}}, 404)
        await asyncio.to_thread(clip_for, task.job)
        return StreamingResponse(task.chunks(), media_type="video/mp4", headers={"content-length": str(task.size())})

    async def _deliver_callback(self, task: DemoTask) -> None:
        """POST the final task to metadata.callback_url once it ends (checked on the config's clock)."""
        loop = asyncio.get_running_loop()
        give_up = loop.time() + CALLBACK_GIVE_UP_S
        view = task.view(self.config)
        while view["status"] not in ("succeeded", "failed") and loop.time() < give_up:
            await asyncio.sleep(0.05)
            view = task.view(self.config)
        transport = self.config.callback_transport() if self.config.callback_transport else None
        try:
            async with httpx.AsyncClient(timeout=5, transport=transport) as http:
                await http.post(str(task.job.callback_url), json=view)
        except Exception as exc:
            log.warning("callback for %s not delivered: %s", task.task_id, type(exc).__name__)
