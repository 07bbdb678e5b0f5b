"""What the UI adds to the first token as a person meets it: in Chromium, from the Enter key to the
answer's first words on screen, in the app's Chat tab and in a minimal `gr.ChatInterface` that
streams the same answer from the same demo gateway through the same client; the baseline is the
client's own time to first token, read directly in the same run. Alternating, one try each in turn.

    python -m bench.ui_latency_browser [--tries 30] [--token-delay 0.03] [--before REF] [--port N] [--profile 12]

The time on screen is taken in the page (`performance.now()` at the Enter keydown, and at the
first DOM change that shows the answer's first piece in the last bot message). The app runs as
`bench.serve_app` runs it, in a process of its own, on the bench's demo gateway (`--gateway-url`),
and so does the minimal app;
`--before REF` adds the app of commit REF (extracted with `git archive`, this tree's `bench/` over
its own) to the alternation. `--port N`: the apps on N, N+1 and the minimal app on N+2 (free ports
when not given). `--profile K`: after the timed tries, one more send per app under a CDP CPU profile
of the page (the profiler slows the page, so its send is not timed), and the K functions with the
most self time and the K with the most inclusive time. Needs /usr/bin/chromium (or CHROMIUM_PATH).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import gradio as gr
from playwright.sync_api import Page, sync_playwright

from bench.browser_trace import ARGS, CHROMIUM
from bench.concurrent_chat import AppProcess, start_app_process
from bench.header import print_footer, print_header
from bench.reply_cpu import ROOT, extract
from playground.client.chat import ChatRequest
from playground.client.gateway import GatewayClient
from playground.client.results import TextDelta
from playground.client.transport import Connection, Transport
from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.server import free_port, start_in_thread

KEY = "bench-key"
MODEL = "gx-2.5-flash"
QUESTION = "What is the capital of France?"
PAGE_WAIT_MS = 120_000
"""How long a page may take to load or answer: the suite runs this at its smallest setting on a busy machine."""
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


def launched(blocks: gr.Blocks, port: int | None = None) -> str:
    for attempt in range(3):  # on a loaded machine Gradio's own 3-second check of the page can fail
        chosen = port or free_port()
        try:
            blocks.launch(server_name="127.0.0.1", server_port=chosen, prevent_thread_lock=True, quiet=True)
            return f"http://127.0.0.1:{chosen}"
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


def frame_name(node: dict[str, Any]) -> str:
    frame = node["callFrame"]
    return f"{frame['functionName'] or '(anonymous)'} {frame['url'].rsplit('/', 1)[-1]}:{frame['lineNumber']}:{frame['columnNumber']}"


def profile_times(profile: dict[str, Any]) -> tuple[dict[str, float], dict[str, float]]:
    """Milliseconds per function (name, script, line:column) in a CDP CPU profile: self time, and
    inclusive time (the samples with the function anywhere on the stack, counted once)."""
    nodes = {node["id"]: node for node in profile["nodes"]}
    parent = {child: node["id"] for node in profile["nodes"] for child in node.get("children", [])}
    own: dict[str, float] = collections.defaultdict(float)
    inclusive: dict[str, float] = collections.defaultdict(float)
    for sample, delta in zip(profile["samples"][:-1], profile["timeDeltas"][1:]):
        own[frame_name(nodes[sample])] += delta / 1000
        on_stack, node_id = set(), sample
        while node_id is not None:
            on_stack.add(frame_name(nodes[node_id]))
            node_id = parent.get(node_id)
        for name in on_stack:
            inclusive[name] += delta / 1000
    return own, inclusive


def profiled(page: Page, first: str, top: int) -> tuple[float, list[tuple[str, float]], list[tuple[str, float]]]:
    """One send under a CDP CPU profile of the page: the time to its first words, its top functions (self, inclusive)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Profiler.enable")
    cdp.send("Profiler.setSamplingInterval", {"interval": 200})
    box = page.locator("#chat-input textarea")
    box.fill(QUESTION)
    page.evaluate(ARM, ["#chat-input textarea", "#chat-chatbot", first])
    cdp.send("Profiler.start")
    box.press("Enter")
    shown = float(page.evaluate("window.__firstWords"))
    profile = cdp.send("Profiler.stop")["profile"]
    cdp.detach()
    own, inclusive = profile_times(profile)
    return shown, sorted(own.items(), key=lambda item: -item[1])[:top], sorted(inclusive.items(), key=lambda item: -item[1])[:top]


def serve_minimal(gateway: str, port: int) -> None:
    """The minimal app in this process (`--serve-minimal`), until it is ended."""
    mini = minimal_app(GatewayClient(Transport()), Connection(gateway, KEY))
    launched(mini, port)
    print("ready", flush=True)
    while True:
        time.sleep(3600)


def started_minimal(gateway: str, port: int | None) -> AppProcess:
    """The minimal app in a process of its own, like the apps (`bench.serve_app`)."""
    port = port or free_port()
    process = subprocess.Popen([sys.executable, "-m", "bench.ui_latency_browser", "--serve-minimal", gateway, "--port", str(port)], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert process.stdout is not None
    for line in process.stdout:
        if line.strip() == b"ready":
            return AppProcess(f"http://127.0.0.1:{port}", process)
    raise RuntimeError(f"the minimal app did not start (exit code {process.wait(10)})")


def started(name: str, root: Path, gateway: str, port: int | None, token_delay: float) -> AppProcess:
    print(f"starting {name} ({root})", flush=True)
    return start_app_process(token_delay, root=root, extra=["--gateway-url", gateway], port=port)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tries", type=int, default=30)
    parser.add_argument("--token-delay", type=float, default=0.03)
    parser.add_argument("--before", help="a commit to compare with, alternating (e.g. main before the change)")
    parser.add_argument("--port", type=int, help="the apps on N (and N+1 with --before), the minimal app on N+2")
    parser.add_argument("--profile", type=int, default=0, help="after the tries, one profiled send per app: its K busiest functions")
    parser.add_argument("--serve-minimal", metavar="GATEWAY_URL", help=argparse.SUPPRESS)  # the minimal app's own process
    args = parser.parse_args()
    if args.serve_minimal:
        serve_minimal(args.serve_minimal, args.port)
        return
    print_header()
    gateway = start_in_thread(DemoConfig(api_key=KEY, token_delay=args.token_delay))
    conn = Connection(gateway.url, KEY)
    scratch = tempfile.TemporaryDirectory(prefix="ui-latency-")
    apps = {"app": started("this tree", ROOT, gateway.url, args.port, args.token_delay)}
    labels = {"direct": "client directly (baseline)", "app": "the app's Chat tab in Chromium"}
    if args.before:
        before = extract(args.before, Path(scratch.name))
        apps["before"] = started(f"before ({args.before})", before, gateway.url, args.port and args.port + 1, args.token_delay)
        labels["app"] = "this tree's Chat tab in Chromium"
        labels["before"] = f"before ({args.before[:10]}) Chat tab"
    labels["minimal"] = "minimal gr.ChatInterface in Chromium"
    apps["minimal"] = started_minimal(gateway.url, args.port and args.port + 2)
    times: dict[str, list[float]] = {name: [] for name in labels}
    baseline = DirectReader(conn)
    profiles: dict[str, tuple[float, list[tuple[str, float]], list[tuple[str, float]]]] = {}
    try:
        urls = {name: app.url for name, app in apps.items()}
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            pages, selectors = {}, {}
            for name, url in urls.items():
                selectors[name] = ("#mini-input", "#mini-chatbot") if name == "minimal" else ("#chat-input", "#chat-chatbot")
                page = browser.new_context(viewport={"width": 1366, "height": 850}).new_page()
                page.set_default_timeout(PAGE_WAIT_MS)
                page.goto(url)
                page.wait_for_selector(f"{selectors[name][0]} textarea")
                pages[name] = page
            for _ in range(args.tries):
                seconds, first = baseline.once()
                times["direct"].append(seconds)
                for name, page in pages.items():
                    times[name].append(on_screen(page, *selectors[name], first))
            for name in [name for name in apps if name != "minimal"] if args.profile else ():
                profiles[name] = profiled(pages[name], baseline.once()[1], args.profile)
            browser.close()
    finally:
        baseline.close()
        for app in apps.values():
            app.stop()
        gateway.stop()
        scratch.cleanup()
    base = statistics.median(times["direct"])
    print(f"Enter to first words on screen, {args.tries} tries each, alternating (token delay {args.token_delay * 1000:.0f} ms)")
    print(f"{'path':<38}{'p50 ms':>9}{'p95 ms':>9}{'added over direct p50 ms':>27}")
    for name, label in labels.items():
        p50 = statistics.median(times[name])
        added = "" if name == "direct" else f"{(p50 - base) * 1000:.1f}"
        print(f"{label:<38}{p50 * 1000:>9.1f}{percentile(times[name], 0.95) * 1000:>9.1f}{added:>27}")
    for name, (shown, own, inclusive) in profiles.items():
        print(f"\n{labels[name]}: one send under the CPU profiler (Enter to the first words: {shown:.0f} ms), ms self | inclusive")
        for (function, ms), (outer, outer_ms) in zip(own, inclusive):
            print(f"{ms:8.1f}  {function[:60]:<60} | {outer_ms:8.1f}  {outer[:60]}")
    print_footer()


if __name__ == "__main__":
    main()
