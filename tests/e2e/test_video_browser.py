"""The Video tab in a real browser: submit, watch the progress bar move, play the result,
find the job again after a reload; model-dependent form and validation messages."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Locator, Page, expect

from playground.ui.tabs.video.form import DEFAULT_MODEL
from tests.e2e.conftest import RunningApp
from tests.e2e.pages import open_tab

pytestmark = pytest.mark.browser
JOB = "#video-board .video-job"


def open_video_tab(page: Page) -> None:
    open_tab(page, "Video", "#video-prompt textarea")


def submit_prompt(page: Page, prompt: str) -> Locator:
    """Open the tab, submit `prompt` with the current settings; the newest job's row."""
    open_video_tab(page)
    page.fill("#video-prompt textarea", prompt)
    page.click("#video-submit")
    return page.locator(JOB).first


def choose(page: Page, elem_id: str, option: str) -> None:
    page.locator(f"#{elem_id} input").click()
    page.get_by_role("option", name=option, exact=True).click()


def watch_job(page: Page, timeout_s: float = 40) -> list[tuple[str, str | None, str]]:
    """(state, aria-valuenow, elapsed text) as seen every 150 ms until the job is done."""
    seen: list[tuple[str, str | None, str]] = []
    deadline = time.monotonic() + timeout_s
    job = page.locator(JOB).first
    while time.monotonic() < deadline:
        snapshot = (job.get_attribute("data-state") or "", job.locator(".video-progress").get_attribute("aria-valuenow"),
                    job.locator(".video-job-elapsed").inner_text())
        if not seen or seen[-1] != snapshot:
            seen.append(snapshot)
        if snapshot[0] in ("succeeded", "failed", "error"):
            return seen
        page.wait_for_timeout(150)
    raise AssertionError(f"the job did not finish: {seen}")


def assert_plays(page: Page) -> None:
    video = page.locator("#video-player video")
    expect(video).to_be_attached(timeout=30_000)
    played = video.evaluate(
        """async (v) => {
            v.muted = true;
            if (v.readyState < 2) await new Promise(r => v.addEventListener('loadeddata', r, {once: true}));
            await v.play();
            await new Promise(r => setTimeout(r, 800));
            return {time: v.currentTime, width: v.videoWidth, height: v.videoHeight, error: v.error && v.error.code};
        }"""
    )
    assert played["error"] is None and played["time"] > 0.2 and played["width"] > 0, played


def test_submit_progress_moves_video_plays_and_survives_reload(page: Page) -> None:
    open_video_tab(page)
    expect(page.locator("#video-gallery")).to_be_hidden()  # no finished video yet: no blank block
    page.fill("#video-prompt textarea", "a lighthouse at dusk")
    choose(page, "video-size", "1280x720")
    page.click("#video-submit")
    expect(page.locator(JOB)).to_have_count(1, timeout=30_000)
    task_id = page.locator(f"{JOB} .video-job-id").inner_text()
    assert task_id.startswith("video_")
    seen = watch_job(page)
    states = [state for state, _, _ in seen]
    assert states[-1] == "succeeded", seen
    assert {"queued", "in_progress"} & set(states), seen
    percents = [p for state, p, _ in seen if state == "in_progress" and p is not None]
    assert percents and 0 < int(percents[0]) < 100, seen
    assert seen[-1][1] == "100"
    assert len({elapsed for _, _, elapsed in seen}) >= 3, "the elapsed time should tick while polling"
    assert_plays(page)
    expect(page.locator("#video-gallery")).to_contain_text("vidA-2")
    finished_in = page.locator(f"{JOB} .video-job-elapsed").inner_text()
    page.get_by_role("button", name="Inspector and code").click()
    expect(page.locator("#video-inspector-request")).to_contain_text('"method": "POST"')  # the submit, not the last poll
    page.locator("#video-inspect-call").get_by_text("latest poll").click()
    expect(page.locator("#video-inspector-request")).to_contain_text('"method": "GET"')

    page.reload()
    open_video_tab(page)
    expect(page.locator(f"{JOB}[data-task-id='{task_id}']")).to_have_count(1, timeout=30_000)
    expect(page.locator(f"{JOB}[data-task-id='{task_id}']")).to_have_attribute("data-state", "succeeded", timeout=30_000)
    assert page.locator(f"{JOB} .video-job-elapsed").inner_text() == finished_in, "a finished job keeps its real time"
    assert_plays(page)


def test_form_follows_the_model_and_shows_vidd_flags(page: Page) -> None:
    refused: list[str] = []
    page.on("response", lambda response: refused.append(f"{response.status} {response.url}") if "/gradio_api/" in response.url
            and response.status >= 400 else None)
    open_video_tab(page)
    expect(page.locator("#video-resolution")).to_be_hidden()
    choose(page, "video-model", "vidD-1-5-pro-251215")
    expect(page.locator("#video-size")).to_be_hidden()
    expect(page.locator("#video-ratio")).to_be_visible()
    page.fill("#video-prompt textarea", "a fox in the snow")
    page.get_by_role("button", name="More parameters").click()
    page.fill("#video-frames input", "57")
    page.locator("#video-frames input").press("Tab")
    expect(page.locator("#video-flags textarea")).to_have_value("a fox in the snow --rs 720p --ratio 16:9 --frames 57", timeout=5_000)
    page.get_by_label("first + last frame").check()
    expect(page.locator("#video-last-frame")).to_be_visible()
    page.fill("#video-frames input", "30")
    page.locator("#video-frames input").press("Tab")
    page.click("#video-submit")
    banner = page.locator("#video-error")
    expect(banner).to_contain_text("25 + 4n", timeout=5_000)
    expect(banner).to_contain_text("needs a first frame image")
    expect(page.locator("#video-prompt textarea")).to_have_value("a fox in the snow")
    expect(page.locator(JOB)).to_have_count(0)
    choose(page, "video-model", DEFAULT_MODEL)  # its modes lack "first + last frame": the form's calls follow the new model
    expect(page.locator("#video-size")).to_be_visible()
    expect(page.locator("#video-last-frame")).to_be_hidden()
    page.wait_for_timeout(1_000)
    assert refused == [], "a call of the page was refused"


def test_rejected_prompt_shows_the_failure(page: Page) -> None:
    job = submit_prompt(page, "something forbidden")
    expect(job).to_have_attribute("data-state", "failed", timeout=30_000)
    expect(job).to_contain_text("code 1301")


def test_polling_does_not_hold_up_the_chat_tab(page: Page, app_server: RunningApp, monkeypatch: pytest.MonkeyPatch) -> None:
    config = app_server.gateway.config
    usual = config.video_run_seconds
    monkeypatch.setattr(config, "video_run_seconds", 120.0)  # the job renders until the chat has answered, however busy the machine
    job = submit_prompt(page, "a slow sunrise")
    expect(job).to_have_attribute("data-state", re.compile("queued|in_progress"), timeout=30_000)
    open_tab(page, "Chat", "#chat-input textarea")
    page.fill("#chat-input textarea", "What is 6 times 7?")
    page.locator("#chat-input textarea").press("Enter")
    expect(page.locator("#chat-chatbot .message.bot").last).to_contain_text("42", timeout=30_000)
    assert job.get_attribute("data-state") in ("queued", "in_progress"), "the chat reply should arrive while the job is still polled"
    config.video_run_seconds = usual  # a task's state follows the clock: it is done at its next poll
    open_video_tab(page)
    expect(job).to_have_attribute("data-state", "succeeded", timeout=30_000)
