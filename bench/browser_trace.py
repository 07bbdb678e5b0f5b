"""The browser's side of a long reply: a Chromium performance trace (CDP `Tracing`, the
`devtools.timeline` category) while the Chat tab streams the demo gateway's long reply, in a fresh
tab (the same-run baseline) and in a tab that has already had N turns and one video job.

    python -m bench.browser_trace [--turns 20] [--token-delay 0.01] [--no-video-job]

The used tab first has its N chat turns, then runs one video job as a person does (issue 25's
"after 20 turns and a video job"): it opens the Video tab, clicks the first example (a 4-second
text-to-video), presses Generate, waits until the finished video plays in the player, and goes
back to the Chat tab for the traced reply. The demo gateway queues a video job for 1 s and renders
it for 4 s here. `--no-video-job` leaves the job out (the tab has only its chat turns).

Prints, per tab, the longest task on the page's main thread during the stream, the number of
tasks over 50 ms, and the on-screen finish time (Enter to the last word shown, checked on every
animation frame), with the ratio to the fresh tab. Needs /usr/bin/chromium (or CHROMIUM_PATH).
"""

from __future__ import annotations

import argparse
import os
import shutil
import time
from dataclasses import dataclass
from typing import Any

from playwright.sync_api import Page, expect, sync_playwright

from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.server import free_port, start_in_thread
from playground.settings import Settings
from playground.ui.app import build_app, configure_queue, launch_options
from playground.ui.shared.connection import ServerDefaults
from playground.ui.tabs.video.layout import EXAMPLES as VIDEO_EXAMPLES
from tests.e2e.pages import click_example, open_tab

KEY = "bench-key"
CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
LAST_WORD_COUNT = """(n) => {
  const bots = document.querySelectorAll('#chat-chatbot .message.bot');
  const last = bots[bots.length - 1];
  return !!last && (last.textContent.match(/demonstrate\\./g) || []).length >= n;
}"""
VIDEO_QUEUE_S, VIDEO_RUN_S = 1.0, 4.0  # the demo's video job: short, so the bench waits seconds for it
VIDEO_PLAYING = """() => {
  const v = document.querySelector('#video-player video');
  return !!v && !v.paused && v.currentTime > 0 && v.readyState >= 2;
}"""


@dataclass
class Row:
    tab: str
    longest_ms: float
    long_tasks: int
    finish_s: float
    words: int


def bot_count(page: Page) -> int:
    return page.locator("#chat-chatbot .message.bot").count()


def send(page: Page, text: str) -> None:
    box = page.locator("#chat-input textarea")
    box.fill(text)
    box.press("Enter")


def chat_turns(page: Page, turns: int) -> None:
    for turn in range(turns):
        before = bot_count(page)
        send(page, f"turn {turn}")
        page.wait_for_function(f"() => document.querySelectorAll('#chat-chatbot .message.bot').length > {before}", timeout=300_000)
        page.wait_for_function("() => !document.querySelector('#chat-input textarea').placeholder.includes('on its way')", timeout=300_000)


def video_job(page: Page) -> None:
    """Run one video job as a person does: the Video tab's first example, Generate, until the
    finished video plays in the player (it autoplays); then back to the Chat tab."""
    open_tab(page, "Video", "#video-prompt textarea")
    click_example(page, "video", 0, VIDEO_EXAMPLES[0])
    page.click("#video-submit")
    job = page.locator("#video-board .video-job").first
    expect(job).to_have_attribute("data-state", "succeeded", timeout=120_000)
    page.wait_for_function(VIDEO_PLAYING, timeout=60_000)
    open_tab(page, "Chat", "#chat-input textarea")


def traced_long_reply(page: Page, tab: str) -> Row:
    """Stream the long reply with a performance trace running; the trace's main-thread tasks."""
    cdp = page.context.new_cdp_session(page)
    events: list[dict[str, Any]] = []
    done: list[bool] = []
    cdp.on("Tracing.dataCollected", lambda message: events.extend(message["value"]))
    cdp.on("Tracing.tracingComplete", lambda _: done.append(True))
    cdp.send("Tracing.start", {"categories": "devtools.timeline,disabled-by-default-devtools.timeline", "transferMode": "ReportEvents"})
    started = time.perf_counter()
    send(page, "Please write something long")
    page.wait_for_function(LAST_WORD_COUNT, arg=12, polling="raf", timeout=300_000)
    finish = time.perf_counter() - started
    cdp.send("Tracing.end")
    deadline = time.time() + 60
    while not done and time.time() < deadline:
        page.wait_for_timeout(100)
    words = len(page.locator("#chat-chatbot .message.bot").last.inner_text().split())
    mains = {(e["pid"], e["tid"]) for e in events if e.get("ph") == "M" and e.get("name") == "thread_name"
             and e.get("args", {}).get("name") == "CrRendererMain"}
    tasks = [e["dur"] / 1000 for e in events if e.get("name") == "RunTask" and e.get("ph") == "X" and (e["pid"], e["tid"]) in mains]
    return Row(tab, max(tasks, default=float("nan")), sum(1 for t in tasks if t > 50), finish, words)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--token-delay", type=float, default=0.01)
    parser.add_argument("--video-job", action=argparse.BooleanOptionalAction, default=True,
                        help="the used tab also runs one video job before its traced reply (default: on)")
    args = parser.parse_args()
    gateway = start_in_thread(DemoConfig(api_key=KEY, token_delay=args.token_delay,
                                         video_queue_seconds=VIDEO_QUEUE_S, video_run_seconds=VIDEO_RUN_S))
    blocks = configure_queue(build_app(Settings(), ServerDefaults(gateway.url, KEY, demo=True)))
    for attempt in range(3):  # on a loaded machine Gradio's own 3-second check of the page can fail
        port = free_port()
        try:
            blocks.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, quiet=True, **launch_options())
            break
        except ValueError:
            blocks.close()
            if attempt == 2:
                raise
    rows = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            used = f"after {args.turns} turns" + (" + video" if args.video_job else "")
            for tab, turns, video in (("fresh tab (baseline)", 0, False), (used, args.turns, args.video_job)):
                context = browser.new_context(viewport={"width": 1400, "height": 1000})
                page = context.new_page()
                page.goto(f"http://127.0.0.1:{port}")
                page.wait_for_selector("#chat-input textarea")
                chat_turns(page, turns)
                if video:
                    video_job(page)
                rows.append(traced_long_reply(page, tab))
                context.close()
            browser.close()
    finally:
        blocks.close()
        gateway.stop()
    base = rows[0]
    print(f"the Chat tab streaming the demo's long reply (token delay {args.token_delay * 1000:.0f} ms, load {os.getloadavg()[0]:.1f})")
    print(f"{'tab':<26}{'words':>7}{'longest task ms':>17}{'tasks > 50 ms':>15}{'on screen s':>13}{'ratio':>8}")
    for row in rows:
        print(f"{row.tab:<26}{row.words:>7}{row.longest_ms:>17.0f}{row.long_tasks:>15}{row.finish_s:>13.2f}{row.finish_s / base.finish_s:>8.2f}")


if __name__ == "__main__":
    main()
