"""What the UI adds to the first token as a person meets it: in Chromium, from the Enter key to the
answer's first words on screen, in the app's Chat tab and in a minimal `gr.ChatInterface` that
streams the same answer from the same demo gateway through the same client; the baseline is the
client's own time to first token, read directly in the same run. Alternating, one try each in turn.

    python -m bench.ui_latency_browser [--tries 30] [--token-delay 0.03]

The time on screen is taken in the page (`performance.now()` at the Enter keydown, and at the
first DOM change that shows the answer's first piece in the last bot message). Needs
/usr/bin/chromium (or CHROMIUM_PATH).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import threading
import time
from collections.abc import AsyncIterator
from typing import Any

import gradio as gr
from playwright.sync_api import Page, sync_playwright

from bench.browser_trace import ARGS, CHROMIUM
from bench.header import print_footer, print_header
from playground.client.chat import ChatRequest
from playground.client.gateway import GatewayClient
from playground.client.results import TextDelta
from playground.client.transport import Connection, Transport
from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.server import free_port, start_in_thread
from playground.settings import Settings
from playground.ui.app import build_app, configure_queue, launch_options
from playground.ui.shared.connection import ServerDefaults

KEY = "bench-key"
MODEL = "gx-2.5-flash"
QUESTION = "What is the capital of France?"
ARM = """([input, chatbot, first]) => {
  const root = document.querySelector(chatbot);
  const before = root.querySelectorAll(".message.bot").length;
  window.__firstWords = new Promise((resolve) => {
    let pressed = null;
    document.querySelector(input).addEventListener("keydown", (event) => {
      if (event.key === "Enter" && pressed === null) pressed = performance.now();
    }, {capture: true});
    const shown = () => {
      const bots = root.querySelectorAll(".message.bot");
      const last = bots[bots.length - 1];
      if (pressed !== null && bots.length > before && last.textContent.includes(first)) {
        observer.disconnect();
        resolve(performance.now() - pressed);
      }
    };
    const observer = new MutationObserver(shown);
    observer.observe(root, {childList: true, subtree: true, characterData: true});
  });
}"""


def request() -> ChatRequest:
    return ChatRequest.build(model=MODEL, messages=[{"role": "user", "content": QUESTION}], stream=True, temperature=0.7, top_p=1.0)


async def direct(client: GatewayClient, conn: Connection) -> tuple[float, str]:
    """The client's own time to the first text piece, and that piece."""
    started = time.perf_counter()
    async with client.chat.stream(conn, request()) as stream:
        async for event in stream:
            if isinstance(event, TextDelta) and event.text.strip():
                return time.perf_counter() - started, event.text.strip()
    raise RuntimeError("the demo gateway answered no text")


class DirectReader:
    """The baseline, read in a thread of its own with its own event loop and client (Playwright's
    sync API holds an event loop in the main thread)."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.client = GatewayClient(Transport())

    def once(self) -> tuple[float, str]:
        return asyncio.run_coroutine_threadsafe(direct(self.client, self.conn), self.loop).result(timeout=60)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)


def minimal_app(client: GatewayClient, conn: Connection) -> gr.Blocks:
    """A `gr.ChatInterface` as small as it can be, streaming the gateway's answer (the comparison)."""
    async def reply(message: str, history: list[Any]) -> AsyncIterator[str]:
        text = ""
        body = ChatRequest.build(model=MODEL, messages=[{"role": "user", "content": message}], stream=True, temperature=0.7, top_p=1.0)
        async with client.chat.stream(conn, body) as stream:
            async for event in stream:
                if isinstance(event, TextDelta):
                    text += event.text
                    yield text

    return gr.ChatInterface(reply, textbox=gr.Textbox(elem_id="mini-input"), chatbot=gr.Chatbot(elem_id="mini-chatbot"))


def launched(blocks: gr.Blocks, **options: Any) -> str:
    for attempt in range(3):  # on a loaded machine Gradio's own 3-second check of the page can fail
        port = free_port()
        try:
            blocks.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, quiet=True, **options)
            return f"http://127.0.0.1:{port}"
        except ValueError:
            blocks.close()
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


def on_screen(page: Page, input_selector: str, chatbot: str, first: str) -> float:
    """Seconds from Enter to the answer's first piece shown in the last bot message."""
    box = page.locator(f"{input_selector} textarea")
    box.fill(QUESTION)
    page.evaluate(ARM, [f"{input_selector} textarea", chatbot, first])
    box.press("Enter")
    return float(page.evaluate("window.__firstWords")) / 1000


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tries", type=int, default=30)
    parser.add_argument("--token-delay", type=float, default=0.03)
    args = parser.parse_args()
    print_header()
    gateway = start_in_thread(DemoConfig(api_key=KEY, token_delay=args.token_delay))
    conn = Connection(gateway.url, KEY)
    app = configure_queue(build_app(Settings(), ServerDefaults(gateway.url, KEY, demo=True)))
    mini = minimal_app(GatewayClient(Transport()), conn)
    times: dict[str, list[float]] = {"direct": [], "app": [], "minimal": []}
    baseline = DirectReader(conn)
    try:
        app_url, mini_url = launched(app, **launch_options()), launched(mini)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            pages = {}
            for name, url, selector in (("app", app_url, "#chat-input"), ("minimal", mini_url, "#mini-input")):
                page = browser.new_context(viewport={"width": 1366, "height": 850}).new_page()
                page.goto(url)
                page.wait_for_selector(f"{selector} textarea")
                pages[name] = page
            for _ in range(args.tries):
                seconds, first = baseline.once()
                times["direct"].append(seconds)
                times["app"].append(on_screen(pages["app"], "#chat-input", "#chat-chatbot", first))
                times["minimal"].append(on_screen(pages["minimal"], "#mini-input", "#mini-chatbot", first))
            browser.close()
    finally:
        baseline.close()
        app.close()
        mini.close()
        gateway.stop()
    base = statistics.median(times["direct"])
    print(f"Enter to first words on screen, {args.tries} tries each, alternating (token delay {args.token_delay * 1000:.0f} ms)")
    print(f"{'path':<34}{'p50 ms':>9}{'p95 ms':>9}{'added over direct p50 ms':>27}")
    for name, label in (("direct", "client directly (baseline)"), ("app", "the app's Chat tab in Chromium"),
                        ("minimal", "minimal gr.ChatInterface in Chromium")):
        p50 = statistics.median(times[name])
        added = "" if name == "direct" else f"{(p50 - base) * 1000:.1f}"
        print(f"{label:<34}{p50 * 1000:>9.1f}{percentile(times[name], 0.95) * 1000:>9.1f}{added:>27}")
    print_footer()


if __name__ == "__main__":
    main()
