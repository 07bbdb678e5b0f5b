"""The Video tab's handlers without a browser: form -> request, model-driven fields, the board,
and the watcher following jobs on the demo gateway (fake clock, real socket); the handlers the
tab's events run (`video_tab` wires them) are called here as the page calls them."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import gradio as gr
import pytest
from PIL import Image

from playground.client.curl_import import CurlRequest
from playground.client.errors import RequestValidationError
from playground.client.gateway import GatewayClient
from playground.client.transport import Transport
from playground.client.video import PollUpdate, VideoAPI, VideoTask
from playground.client.video_catalog import VIDEO_MODELS, Mode
from playground.client.video_requests import build_video_request
from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.server import RunningGateway, start_in_thread
from playground.ui.i18n import CATALOGUE
from playground.ui.shared.connection import ServerDefaults
from playground.ui.web.shown_files import new_file
from playground.ui.tabs.video.board import VideoBoard, VideoJob, board_html, job_call, job_choices
from playground.ui.tabs.video.form import (
    FIELD_NAMES,
    VideoForm,
    flags_preview,
    mode_fields,
    model_fields,
    model_notes,
)
from playground.ui.tabs.video.handlers import (
    MODEL_DRIVEN,
    VideoHandlers,
    cancel,
    clear_board,
    flags_of,
    from_curl,
    inspect_job_call,
    mode_changed,
    model_changed,
    pick_video,
    prune_videos,
    restore_board,
    reworded,
    submit_job,
    watch,
)
from playground.ui.shared.widgets import Inspector
from tests.fakes import FakeClock
from tests.ui.i18n.visitor import visitor

KEY = "sk-video-ui-key-123456"


def form(**values: Any) -> VideoForm:
    blank: dict[str, Any] = {name: None for name in FIELD_NAMES}
    blank.update(model="vidA-2", mode=Mode.TEXT.value, prompt="a lighthouse")
    blank.update(values)
    return VideoForm(**blank)


@pytest.fixture(scope="module")
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(scope="module")
def ui_gateway(clock: FakeClock, tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningGateway]:
    running = start_in_thread(DemoConfig(api_key=KEY, clock=clock))
    yield running
    running.stop()


@pytest.fixture
def defaults(ui_gateway: RunningGateway) -> ServerDefaults:
    return ServerDefaults(ui_gateway.url, KEY, demo=True)


@pytest.fixture
async def video_client(clock: FakeClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[GatewayClient]:
    monkeypatch.setenv("GRADIO_TEMP_DIR", str(tmp_path))
    transport = Transport(connect_timeout=2, read_timeout=5)
    client = GatewayClient(transport, VideoAPI(transport, clock=clock, sleep=clock.sleep))
    yield client
    await client.aclose()


def test_every_model_shows_only_its_fields() -> None:
    for model in VIDEO_MODELS:
        fields = model_fields(model.id)
        assert fields["mode"].choices == tuple(m.value for m in model.modes)
        assert fields["duration"].choices == model.durations and fields["duration"].value in model.durations
        assert fields["frames"].visible == model.frames_flag and fields["camera_fixed"].visible == model.camera_fixed_flag
        assert fields["count"].visible == (model.family == "vidB") and fields["audio_url"].visible == (model.family == "vidC")
        assert fields["callback_url"].visible == (model.family == "vidD")
    assert model_fields("vidA-2")["resolution"].visible is False and model_fields("vidA-2")["size"].choices == ("720x1280", "1280x720")
    assert model_fields("vidD-1-5-pro-251215")["resolution"].choices == ("480p", "720p")
    assert mode_fields(Mode.FIRST_LAST.value) == {"first_frame": True, "last_frame": True, "references": False, "remix_from_video_id": False}
    assert mode_fields(Mode.REFERENCE.value)["references"] and mode_fields(Mode.REMIX.value)["remix_from_video_id"]


def test_form_values_become_the_request(tmp_path: Path) -> None:
    picture = tmp_path / "first.png"
    Image.new("RGB", (32, 18), "teal").save(picture)
    spec = form(model="vidB-3.1-fast-generate-preview", mode=Mode.FIRST_FRAME.value, first_frame=str(picture), last_frame=str(picture),
                duration="6", fps=24.0, seed=7.0, count=2.0, person_generation="", watermark="not set").to_input()
    assert spec.first_frame and spec.first_frame.startswith("data:image/png;base64,")
    assert spec.last_frame is None and (spec.duration, spec.fps, spec.seed, spec.count) == (6, 24, 7, 2)
    assert spec.person_generation is None and spec.watermark is None


def test_bad_numbers_and_broken_images_get_clear_messages(tmp_path: Path) -> None:
    broken = tmp_path / "broken.png"
    broken.write_bytes(b"not an image")
    with pytest.raises(Exception) as caught:
        form(mode=Mode.IMAGE.value, first_frame=str(broken), fps=2.5).to_input()
    assert "first frame: broken.png is not a readable" in str(caught.value) and "fps: must be a whole number" in str(caught.value)


def test_flags_preview_is_vidd_only() -> None:
    assert flags_preview(form()) == ""
    shown = flags_preview(form(model="vidD-1-0-lite-i2v-250428", mode=Mode.FIRST_FRAME.value, prompt="a kite", resolution="480p",
                               ratio="adaptive", duration=10, watermark="true", camera_fixed="false"))
    assert shown == "a kite --rs 480p --ratio adaptive --dur 10 --wm true --cf false"


async def test_invalid_form_is_not_sent_and_the_board_is_unchanged(video_client: GatewayClient, defaults: ServerDefaults) -> None:
    board = VideoBoard()
    outcome = await submit_job(video_client, defaults, board, "", "", form(duration=5))
    assert "seconds must be 4, 8 or 12" in outcome.error and "nothing was sent" in outcome.error
    assert board.jobs == {} and outcome.exchange is None


async def follow_all(client: GatewayClient, defaults: ServerDefaults, board: VideoBoard) -> list[str]:
    shown = []
    async for current in watch(client, defaults, board, "", ""):
        shown.append(board_html(current))
    return shown


async def test_watch_follows_several_jobs_to_their_end(video_client: GatewayClient, defaults: ServerDefaults, tmp_path: Path) -> None:
    board = VideoBoard()
    for prompt in ("a lighthouse", "a forbidden lighthouse"):
        outcome = await submit_job(video_client, defaults, board, "", "", form(prompt=prompt))
        assert outcome.error == "" and outcome.exchange is not None and outcome.exchange.status == 200
    outcome = await submit_job(video_client, defaults, board, "", "", form(model="vidC2.5-t2v-preview", prompt="a fox", size="1280*720"))
    request, _, _, curl, python = Inspector.values(outcome.exchange)
    assert '"size": "1280*720"' in request and "/v1/video/generations" in curl and "$GATEWAY_API_KEY" in curl
    assert KEY not in request + curl + python
    shown = await follow_all(video_client, defaults, board)
    done, failed, vidc = board.jobs.values()
    assert done.state == "succeeded" and done.video_path is not None and done.video_path.is_file()
    assert str(done.video_path).startswith(str(tmp_path))
    assert failed.state == "failed" and "code 1301" in failed.message and failed.video_path is None
    assert vidc.state == "succeeded" and vidc.video_path is not None
    assert "Done" in shown[-1] and "Failed" in shown[-1] and 'aria-valuenow="100"' in shown[-1]
    assert board.watching is False and board.saved()[0]["task_id"] == done.task_id


async def test_one_watcher_per_session(video_client: GatewayClient, defaults: ServerDefaults) -> None:
    board = VideoBoard(watching=True)
    board.add(VideoJob("video_x", "vidA-2", "", 0.0))
    assert [b async for b in watch(video_client, defaults, board, "", "")] == []


SKIP = {"__type__": "update"}
WATCH_OUTPUTS = ("board", "gallery", "player", "running", "jobs", "saved", *(f"inspector{n}" for n in range(5)))
"""The watcher's outputs in the order `video_tab.JobWatch` wires them."""


async def follow_page(handlers: VideoHandlers, board: VideoBoard) -> list[dict[str, Any]]:
    """The watcher's updates by output name, as the page gets them."""
    return [dict(zip(WATCH_OUTPUTS, update, strict=True)) async for update in handlers.follow_jobs(board, "", "")]


async def test_cancel_stops_polling_and_resume_picks_it_up(video_client: GatewayClient, defaults: ServerDefaults, clock: FakeClock) -> None:
    handlers, board = VideoHandlers(video_client, defaults), VideoBoard()
    error, shown, saved, running, job_pick, call_pick, *inspector = await handlers.submit(board, "", "", *vars(form(prompt="a slow boat")).values())
    job = next(iter(board.jobs.values()))
    assert not error["visible"] and job.task_id in shown and saved == {"jobs": board.saved()} and running["value"] == job.task_id
    assert job_pick["value"] == job.task_id and call_pick["value"] == "submit" and "/v1/video/generations" in inspector[3]
    watcher = asyncio.ensure_future(follow_page(handlers, board))
    await asyncio.sleep(0)
    error, shown, running = cancel(board, job.task_id)
    assert not error["visible"] and running == {"__type__": "update", "choices": [], "value": None}
    await asyncio.wait_for(watcher, 5)
    assert job.state == "cancelled" and job.video_path is None and "Resume" in job.message
    assert "Nothing to cancel" not in cancel(board, job.task_id)[0]["value"]
    clock.advance(60)
    fresh = VideoBoard()
    error, shown, saved, running = handlers.resume(fresh, "", "", "  " + job.task_id)
    assert not error["visible"] and running["value"] == job.task_id and saved["jobs"][0]["task_id"] == job.task_id
    updates = await follow_page(handlers, fresh)
    assert fresh.jobs[job.task_id].state == "succeeded" and fresh.jobs[job.task_id].model == "vidA-2"
    assert updates[-1]["player"] == str(fresh.jobs[job.task_id].video_path) and updates[-1]["running"]["choices"] == []
    assert "not valid" in handlers.resume(fresh, "", "", "../etc")[0]["value"]


async def test_the_watcher_sends_only_what_changed(video_client: GatewayClient, defaults: ServerDefaults) -> None:
    """Each tick redraws the board; the gallery, player, pickers, saved jobs and inspector go only when they changed."""
    handlers, board = VideoHandlers(video_client, defaults), VideoBoard()
    await handlers.submit(board, "", "", *vars(form(prompt="a kite")).values())
    updates = await follow_page(handlers, board)
    job = next(iter(board.jobs.values()))
    assert len(updates) >= 2 and all(isinstance(update["board"], str) for update in updates)
    videos = [update["gallery"] for update in updates if update["gallery"] != SKIP]
    assert [(video["value"], video["visible"]) for video in videos] == [([(str(job.video_path), "vidA-2 · a kite")], True)], \
        "the gallery is sent (and shown) once, when the video arrived"
    assert [update["player"] for update in updates if update["player"] != SKIP] == [str(job.video_path)]
    assert updates[0]["running"]["value"] == job.task_id and updates[-1]["running"]["choices"] == []
    assert sum(update["saved"] != SKIP for update in updates) == 1, "the saved jobs change once: when the job finished"
    assert all(update["inspector0"] == SKIP for update in updates), "the submit call on show is not sent again"


async def test_restore_from_the_browser_ignores_junk(video_client: GatewayClient, defaults: ServerDefaults) -> None:
    board = VideoBoard()
    saved = [{"task_id": "video_missing", "model": "vidA-2", "prompt": "p", "submitted_at": 1.0}, "junk", {"model": "x"}]
    assert "video_missing" in restore_board(board, {"jobs": saved}) and len(board.jobs) == 1
    assert "video_missing" in restore_board(board, "not a dict") and len(board.jobs) == 1
    await follow_page(VideoHandlers(video_client, defaults), board)
    assert board.jobs["video_missing"].state == "error" and "No video task" in board.jobs["video_missing"].message


def test_clearing_the_board_empties_it_and_what_the_browser_keeps() -> None:
    board = VideoBoard()
    board.add(VideoJob("video_x", "vidA-2", "p", 0.0))
    shown, saved, gallery, player, running = clear_board(board)
    assert board.jobs == {} and "No video jobs yet" in shown and saved == {"jobs": []} and player is None
    assert gallery["value"] == [] and gallery["visible"] is False, "an empty gallery is no blank block"
    assert running == {"__type__": "update", "choices": [], "value": None}


def test_the_model_picker_shows_its_fields_and_keeps_what_fits() -> None:
    vidd, current = "vidD-1-5-pro-251215", [None] * len(MODEL_DRIVEN)
    current[MODEL_DRIVEN.index("duration")] = 12
    *fields, flags, notes, arrived = model_changed(vidd, None, *current)
    states = model_fields(vidd)
    assert [field["visible"] for field in fields] == [states[name].visible for name in MODEL_DRIVEN]
    assert fields[MODEL_DRIVEN.index("duration")]["value"] == 12 and flags == {"__type__": "update", "visible": True}
    assert notes == model_notes(vidd) and arrived is None
    *fields, flags, _, _ = model_changed("vidA-2", "vidA-2", *current)  # its values arrived with it: left alone
    assert not any("value" in field for field in fields) and flags["visible"] is False
    assert fields[MODEL_DRIVEN.index("size")]["choices"] == ["720x1280", "1280x720"]


def test_the_mode_shows_its_image_fields_and_the_flags_follow_the_form() -> None:
    shown = mode_changed(Mode.FIRST_LAST.value)
    assert [update["visible"] for update in shown] == list(mode_fields(Mode.FIRST_LAST.value).values())
    values = vars(form(model="vidD-1-0-lite-i2v-250428", mode=Mode.FIRST_FRAME.value, prompt="a kite", duration=10)).values()
    assert flags_of(*values) == flags_preview(VideoForm(*values)) == "a kite --dur 10"


def test_a_curl_import_arrives_with_its_model(monkeypatch: pytest.MonkeyPatch) -> None:
    body = {"model": "vidC2.5-t2v-preview", "prompt": "A lantern festival", "duration": 10, "resolution": "1080p", "size": "832*480"}
    *values, arrived = from_curl(CurlRequest("POST", "http://gw/v1/video/generations", {}, body))
    assert arrived == "vidC2.5-t2v-preview" and len(values) == len(FIELD_NAMES)
    plain = [value.get("value") if isinstance(value, dict) else value for value in values]
    assert build_video_request(VideoForm(*plain).to_input()).to_body() == body
    with pytest.raises(RequestValidationError, match="duration"):
        from_curl(CurlRequest("POST", "http://gw/v1/video/generations", {}, {**body, "duration": 7}))


def test_the_inspector_shows_the_picked_call_or_says_why_not() -> None:
    board = VideoBoard()
    job = board.add(VideoJob("video_x", "vidA-2", "p", 0.0))
    assert "Pick a job" in inspect_job_call(board, None, "submit")[0] and board.inspecting is None
    assert "no “download” call yet" in inspect_job_call(board, job.task_id, "download")[0] and board.inspecting == (job.task_id, "download")


def test_only_a_video_the_app_made_is_played(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRADIO_TEMP_DIR", str(tmp_path / "gradio"))
    made = new_file("videos", "v.mp4", b"\x00")
    outside = tmp_path / "elsewhere.mp4"
    outside.write_bytes(b"\x00")
    picked = {"index": 0, "value": {"video": {"path": made}}}
    assert pick_video(gr.SelectData(None, picked)) == made
    assert pick_video(gr.SelectData(None, {"index": 0, "value": {"video": {"path": str(outside)}}})) == SKIP
    assert pick_video(gr.SelectData(None, {"index": 0, "value": "not a video"})) == SKIP


def test_old_videos_are_pruned(tmp_path: Path) -> None:
    old, fresh = tmp_path / "old.mp4", tmp_path / "fresh.mp4"
    for path in (old, fresh):
        path.write_bytes(b"x")
    os.utime(old, (1000.0, 1000.0))
    assert prune_videos(tmp_path, max_age_s=3600, now=fresh.stat().st_mtime + 10) == 1
    assert not old.exists() and fresh.exists()


def test_board_escapes_what_people_type() -> None:
    board = VideoBoard()
    board.add(replace(VideoJob("t1", "vidA-2", "<script>alert(1)</script>", 0.0), state="in_progress", progress=40.0))
    shown = board_html(board, now=12.0)
    assert "<script>" not in shown and "&lt;script&gt;" in shown
    assert 'aria-valuenow="40"' in shown and "In progress · 40%" in shown and "12 s" in shown


async def test_each_job_keeps_its_submit_poll_and_download_calls(video_client: GatewayClient, defaults: ServerDefaults) -> None:
    board = VideoBoard()
    await submit_job(video_client, defaults, board, "", "", form(prompt="a kite"))
    job = next(iter(board.jobs.values()))
    assert board.inspecting == (job.task_id, "submit")
    await follow_all(video_client, defaults, board)
    assert job.calls["submit"].method == "POST" and job.calls["submit"].url.endswith("/v1/video/generations")
    assert job.calls["latest poll"].method == "GET" and job.task_id in job.calls["latest poll"].url
    assert "download" in job.calls["download"].url
    assert job_call(board, (job.task_id, "submit")) is job.calls["submit"]
    assert [task_id for _, task_id in job_choices(board)] == [job.task_id]


def test_a_finished_job_keeps_its_real_times_after_a_reload() -> None:
    board = VideoBoard()
    board.restore([{"task_id": "video_abc", "model": "vidA-2", "prompt": "p", "submitted_at": 1000.0, "finished_at": 1010.0}])
    job = board.jobs["video_abc"]
    assert job.elapsed(now=5000.0) == 10.0
    job.end("succeeded")
    assert job.finished_at == 1010.0 and board.saved()[0]["finished_at"] == 1010.0


def test_the_board_says_saving_until_the_file_is_there() -> None:
    board = VideoBoard()
    job = board.add(VideoJob("video_x", "vidA-2", "p", 1000.0))
    job.apply(PollUpdate(VideoTask("video_x", "succeeded", url="https://x/v.mp4"), 1.0, 3))
    assert job.state == "saving" and job.active and job.finished_at is not None
    shown = board_html(board, now=job.finished_at + 5)
    assert "Saving…" in shown and "Done" not in shown and 'aria-valuenow="100"' in shown
    job.end("succeeded")
    assert "Done" in board_html(board)


async def test_the_watcher_writes_in_the_language_the_visitor_switched_to(video_client: GatewayClient, defaults: ServerDefaults) -> None:
    """Issue 40: the watcher, started by an event sent in English, kept writing English after the header switch to Chinese."""
    handlers, board = VideoHandlers(video_client, defaults), VideoBoard()
    zh = CATALOGUE.texts["zh-CN"]
    with visitor("en"):
        await handlers.submit(board, "", "", *vars(form(prompt="a forbidden lighthouse")).values())
        watcher = handlers.follow_jobs(board, "", "")
        first = await anext(watcher)
    assert "Submitted" in first[0] or "Queued" in first[0], first[0]
    with visitor("zh-CN"):  # the header switch, then the tab's rewording of its board
        shown, _ = reworded(board, "vidA-2")
    with visitor("en"):  # the watcher's event goes on as it was sent
        updates = [update async for update in watcher]
    last = updates[-1][0]
    job = next(iter(board.jobs.values()))
    assert job.state == "failed", job.state
    assert zh["vboard.state.failed"] in last and "（代码 1301）" in last, last
    assert "Failed" not in last and "(code 1301)" not in last
    assert any(zh[f"vboard.state.{state}"] in shown for state in ("submitted", "queued", "in_progress", "failed")), shown
    with visitor("en"):  # a job's message is what it says, worded as the board is drawn
        assert "(code 1301)" in board_html(board) and "Failed" in board_html(board)
