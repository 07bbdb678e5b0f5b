"""Video tasks end to end against the demo gateway over a real socket, on a fake clock.

The poller's sleep advances the same clock the gateway reads, so a 10 s render takes no time.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncIterator, Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any, ClassVar

import av
import pytest

from playground.client.errors import (
    APIConnectionError,
    BadRequestError,
    CorruptDownloadError,
    DownloadTooLargeError,
    NotFoundError,
    PollDeadlineError,
    RequestValidationError,
    ServerError,
    TooManyFailedPolls,
    VideoTaskFailed,
)
from playground.client.transport import Connection, Transport
from playground.client.video import PollUpdate, VideoAPI, VideoTask
from playground.client.video_catalog import Mode
from playground.client.video_requests import VideoInput, build_video_request
from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.server import RunningGateway, free_port, start_in_thread
from tests.fakes import FakeClock

KEY = "sk-video-key-1234567890"
IMG = "data:image/png;base64,iVBORw0KGgo="


@pytest.fixture(scope="module")
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(scope="module")
def video_gateway(clock: FakeClock) -> Iterator[RunningGateway]:
    running = start_in_thread(DemoConfig(api_key=KEY, clock=clock, retry_after_ms=10, video_queue_seconds=2, video_run_seconds=8))
    yield running
    running.stop()


@pytest.fixture
def vconn(video_gateway: RunningGateway) -> Connection:
    return Connection(video_gateway.url, KEY)


@pytest.fixture
async def api(clock: FakeClock) -> AsyncIterator[VideoAPI]:
    clock.sleeps.clear()
    transport = Transport(connect_timeout=2, read_timeout=5, sleep=clock.sleep)
    yield VideoAPI(transport, clock=clock, sleep=clock.sleep)
    await transport.aclose()


async def run(api: VideoAPI, conn: Connection, **fields: Any) -> tuple[VideoTask, list[PollUpdate]]:
    task, exchange = await api.submit(conn, build_video_request(VideoInput(**fields)))
    assert task.status == "submitted" and exchange.status == 200
    updates = [update async for update in api.poll(conn, task.task_id)]
    return task, updates


FAMILIES = [
    ({"model": "vidA-2", "prompt": "a lighthouse", "size": "1280x720", "duration": 4}, (1280, 720, 4)),
    ({"model": "vidA-2", "prompt": "a lighthouse", "mode": Mode.IMAGE, "first_frame": IMG, "duration": 8}, (720, 1280, 8)),
    ({"model": "vidB-3.0-fast-generate-001", "prompt": "waves", "ratio": "9:16", "resolution": "720p", "duration": 6}, (720, 1280, 6)),
    ({"model": "vidB-3.1-fast-generate-preview", "prompt": "waves", "mode": Mode.FIRST_LAST, "first_frame": IMG, "last_frame": IMG}, (1920, 1080, 4)),
    ({"model": "vidC2.5-t2v-preview", "prompt": "a fox", "size": "960*960"}, (960, 960, 5)),
    ({"model": "vidC2.5-i2v-preview", "prompt": "", "mode": Mode.FIRST_FRAME, "first_frame": IMG, "duration": 10}, (1280, 720, 10)),
    ({"model": "vidD-1-0-lite-t2v-250428", "prompt": "rain", "ratio": "4:3", "camera_fixed": True}, (960, 720, 5)),
    ({"model": "vidD-1-0-lite-i2v-250428", "prompt": "[图1] dances", "mode": Mode.REFERENCE, "references": (IMG,), "ratio": "3:4"}, (720, 960, 5)),
    ({"model": "vidD-1-0-pro-250528", "prompt": "snow", "mode": Mode.FIRST_FRAME, "first_frame": IMG, "resolution": "1080p"}, (1920, 1080, 5)),
    ({"model": "vidD-1-5-pro-251215-noAudio", "prompt": "city", "frames": 121, "ratio": "9:16", "resolution": "480p"}, (480, 854, 121 / 24)),
]


def played(path: Path) -> tuple[int, int, float]:
    """Width, height and playing time of an MP4, as a decoder reads them."""
    with av.open(str(path)) as container:
        stream = container.streams.video[0]
        return stream.width, stream.height, float(container.duration / 1_000_000)


@pytest.mark.parametrize(("fields", "shape"), FAMILIES, ids=[f"{f['model']}-{w}x{h}" for f, (w, h, _) in FAMILIES])
async def test_full_lifecycle_and_saved_video(api: VideoAPI, vconn: Connection, clock: FakeClock, tmp_path: Path, fields: dict,
                                              shape: tuple[int, int, float]) -> None:
    task, updates = await run(api, vconn, **fields)
    statuses = [u.task.status for u in updates]
    assert statuses[0] == "queued" and statuses[-1] == "succeeded" and "in_progress" in statuses
    assert statuses == sorted(statuses, key=["queued", "in_progress", "succeeded"].index)
    progress = [u.task.progress for u in updates if u.task.status == "in_progress"]
    assert progress == sorted(progress) and all(0 < p < 100 for p in progress)
    assert all(3.0 <= wait <= 5.0 for wait in clock.sleeps) and len(clock.sleeps) == len(updates) - 1
    assert task.task_id.startswith("video_") == fields["model"].startswith("vidA")
    final = updates[-1].task
    assert final.url and final.url.startswith("http://127.0.0.1")
    saved = await api.save_result(vconn, final, tmp_path)
    assert saved.path == tmp_path / f"{task.task_id}.mp4"
    width, height, seconds = played(saved.path)
    assert (width, height) == shape[:2] and abs(seconds - shape[2]) < 0.25, f"asked {shape}, got {(width, height, seconds)}"
    assert saved.size < 400_000
    assert not list(tmp_path.glob("*.part"))
    via = "/v1/video/generations/download" if fields["model"] == "vidA-2" else "/files/video/"
    assert via in saved.exchange.url


async def test_rejected_prompt_fails_with_code_and_message(api: VideoAPI, vconn: Connection, tmp_path: Path) -> None:
    _, updates = await run(api, vconn, model="vidB-3.0-fast-generate-001", prompt="something forbidden")
    final = updates[-1].task
    assert final.status == "failed" and final.error_code == 1301 and "rejected" in (final.error_message or "")
    with pytest.raises(VideoTaskFailed, match=r"failed \(code 1301\): The prompt was rejected") as caught:
        await api.save_result(vconn, final, tmp_path)
    assert caught.value.code == 1301


async def test_cancel_stops_polling_and_resume_by_task_id_finishes(api: VideoAPI, vconn: Connection, clock: FakeClock, tmp_path: Path) -> None:
    task, _ = await api.submit(vconn, build_video_request(VideoInput(model="vidA-2", prompt="a boat")))
    cancel = asyncio.Event()
    seen = []
    async for update in api.poll(vconn, task.task_id, cancel=cancel):
        seen.append(update.task.status)
        cancel.set()
    assert seen == ["queued"]
    clock.advance(60)
    other = VideoAPI(api.transport, clock=clock, sleep=clock.sleep)
    resumed = [u async for u in other.poll(vconn, f"  {task.task_id} ")]
    assert [u.task.status for u in resumed] == ["succeeded"]
    assert (await other.save_result(vconn, resumed[-1].task, tmp_path)).size > 10_000


async def test_a_few_failed_polls_are_tolerated(api: VideoAPI, vconn: Connection) -> None:
    _, updates = await run(api, vconn, model="vidC2.5-t2v-preview", prompt="clouds [[fault:poll_errors:2]]")
    assert [u.failed_polls for u in updates[:3]] == [1, 2, 0]
    assert all(isinstance(u.error, ServerError) and u.task is None for u in updates[:2])
    assert updates[-1].task.status == "succeeded"


async def test_too_many_failed_polls_give_up(api: VideoAPI, vconn: Connection) -> None:
    task, _ = await api.submit(vconn, build_video_request(VideoInput(model="vidC2.5-t2v-preview", prompt="clouds [[fault:poll_errors:9]]")))
    with pytest.raises(TooManyFailedPolls, match="4 queries in a row failed"):
        async for _ in api.poll(vconn, task.task_id, max_failed_polls=3):
            pass


async def test_deadline(api: VideoAPI, vconn: Connection, clock: FakeClock) -> None:
    task, _ = await api.submit(vconn, build_video_request(VideoInput(model="vidA-2", prompt="slow")))
    frozen = FakeClock(clock.now)
    api_with_own_clock = VideoAPI(api.transport, clock=frozen, sleep=frozen.sleep)
    with pytest.raises(PollDeadlineError, match="still queued after 20 s"):
        async for _ in api_with_own_clock.poll(vconn, task.task_id, deadline=20):
            pass
    assert sum(frozen.sleeps) <= 20


async def test_unknown_task_and_bad_task_id(api: VideoAPI, vconn: Connection) -> None:
    with pytest.raises(NotFoundError, match="No video task"):
        await api.query(vconn, "video_doesnotexist")
    with pytest.raises(RequestValidationError, match="task id"):
        await api.query(vconn, "../../etc/passwd")


async def finished(api: VideoAPI, conn: Connection, prompt: str, model: str = "vidA-2") -> VideoTask:
    _, updates = await run(api, conn, model=model, prompt=prompt)
    return updates[-1].task


@pytest.mark.parametrize(("fault", "error", "message"), [
    ("corrupt_base64", CorruptDownloadError, "base64 is corrupt"),
    ("not_mp4", CorruptDownloadError, "not an MP4"),
    ("bad_size", CorruptDownloadError, "says"),
    ("cut_download", APIConnectionError, "cut"),
])
async def test_bad_vida_downloads_are_refused_and_leave_no_file(api: VideoAPI, vconn: Connection, tmp_path: Path, fault: str, error: type, message: str) -> None:
    task = await finished(api, vconn, f"a cat [[video_mb:1]] [[fault:{fault}]]")
    with pytest.raises(error, match=message):
        await api.save_result(vconn, task, tmp_path)
    assert list(tmp_path.iterdir()) == []


async def test_oversized_vida_download_stops_at_the_cap(api: VideoAPI, vconn: Connection, clock: FakeClock, tmp_path: Path) -> None:
    task = await finished(api, vconn, "a big cat [[video_mb:2]]")
    small = VideoAPI(api.transport, clock=clock, sleep=clock.sleep, max_video_bytes=1024 * 1024)
    with pytest.raises(DownloadTooLargeError, match="larger than"):
        await small.save_result(vconn, task, tmp_path)
    assert list(tmp_path.iterdir()) == []
    saved = await api.save_result(vconn, task, tmp_path)
    assert 2 * 1024 * 1024 + 8 < saved.size < 2 * 1024 * 1024 + 400_000 and played(saved.path)[:2] == (720, 1280)


async def test_oversized_url_download_is_refused_by_its_length(api: VideoAPI, vconn: Connection, clock: FakeClock, tmp_path: Path) -> None:
    task = await finished(api, vconn, "big waves [[video_mb:2]]", model="vidB-3.0-fast-generate-001")
    small = VideoAPI(api.transport, clock=clock, sleep=clock.sleep, max_video_bytes=1024 * 1024)
    with pytest.raises(DownloadTooLargeError, match="above the 1 MB cap"):
        await small.save_result(vconn, task, tmp_path)
    with pytest.raises(APIConnectionError):
        await api.save_result(vconn, await finished(api, vconn, "waves [[video_mb:1]] [[fault:cut_download]]", model="vidB-3.0-fast-generate-001"), tmp_path)
    assert list(tmp_path.iterdir()) == []


async def test_download_endpoint_is_for_vida_only(api: VideoAPI, vconn: Connection) -> None:
    task = await finished(api, vconn, "waves", model="vidB-3.0-fast-generate-001")
    with pytest.raises(BadRequestError, match="vidA tasks only"):
        await api.transport.request_json(vconn, "GET", "/v1/video/generations/download", params={"id": task.task_id})


async def test_submit_is_not_resent_after_a_server_error_but_is_after_429(api: VideoAPI, vconn: Connection) -> None:
    """One 500 would be survived by a retry: raising proves the paid submit was sent once."""
    with pytest.raises(ServerError) as caught:
        await api.submit(vconn, build_video_request(VideoInput(model="vidA-2", prompt="a cat [[fault:server_error:1]]")))
    assert caught.value.status == 500
    task, exchange = await api.submit(vconn, build_video_request(VideoInput(model="vidA-2", prompt="a cat [[fault:rate_limit:1]]")))
    assert task.status == "submitted" and exchange.attempts == 2


@pytest.mark.parametrize(("body", "message"), [
    ({"model": "vidA-2", "prompt": "p", "seconds": 5}, "seconds"),
    ({"model": "vidB-3.0-fast-generate-001", "prompt": "p", "lastFrame": IMG, "image": IMG}, "lastFrame"),
    ({"model": "vidC2.5-i2v-preview", "prompt": "p", "image": IMG, "size": "1280*720"}, "text-to-video only"),
    ({"model": "vidD-1-5-pro-251215", "metadata": {"content": [{"type": "text", "text": "p --frames 30"}]}}, "--frames"),
    ({"model": "vidD-1-0-lite-t2v-250428", "metadata": {"content": [{"type": "text", "text": "p --ratio adaptive"}]}}, "--ratio adaptive"),
    ({"model": "vidD-1-0-lite-i2v-250428", "metadata": {"content": [{"type": "text", "text": "p"},
      {"type": "image_url", "image_url": {"url": IMG}, "role": "reference_image"}]}}, "[图1]"),
])
async def test_gateway_refuses_bad_bodies_a_client_sends_unchecked(api: VideoAPI, vconn: Connection, body: dict, message: str) -> None:
    with pytest.raises(BadRequestError, match=message.replace("[", "\\[")):
        await api.transport.request_json(vconn, "POST", "/v1/video/generations", body, retry_after_accept=False)


class CallbackReceiver(BaseHTTPRequestHandler):
    received: ClassVar[list[dict]] = []

    def do_POST(self) -> None:
        length = int(self.headers["content-length"])
        CallbackReceiver.received.append(json.loads(self.rfile.read(length)))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *_: Any) -> None:
        pass


async def test_vidd_callback_url_gets_the_final_task(api: VideoAPI, vconn: Connection, clock: FakeClock) -> None:
    server = HTTPServer(("127.0.0.1", free_port()), CallbackReceiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_port}/hook"
        task, _ = await api.submit(vconn, build_video_request(VideoInput(model="vidD-1-5-pro-251215", prompt="a hook", callback_url=url)))
        await asyncio.sleep(0.2)
        assert CallbackReceiver.received == []
        clock.advance(30)
        for _ in range(100):
            if CallbackReceiver.received:
                break
            await asyncio.sleep(0.05)
        assert CallbackReceiver.received[-1]["task_id"] == task.task_id
        assert CallbackReceiver.received[-1]["status"] == "succeeded" and CallbackReceiver.received[-1]["url"]
    finally:
        server.shutdown()
