"""What the Batch tab costs the visitor's browser while nobody touches it: Chromium's renderer CPU (every
renderer process, from /proc) over a window, on the page as Gradio's bundle draws it (the same-run
baseline) and on the page with this app's rewrites of that bundle (`gradio_compat.page_bundle`),
alternating in one run on one app.

Two moments a person meets:

- after Batch's sample example filled its three columns, the form at rest (Gradio ran a deferred
  `change` listener again through its whole trigger, and the column pickers' three listeners kept
  deferring each other: about five calls a second for as long as the page stayed open);
- while a run streams its progress (2 columns, pasted rows, a slow gateway so the run outlasts the
  window; each status message handed every loading status of the page to a depth-first search).

    python -m bench.batch_page_cpu [--rounds 2] [--window-s 10]

Prints, per bundle and moment, the median renderer CPU seconds over the window and the direct calls
the page made, and the rewritten bundle's ratio to Gradio's. Needs /usr/bin/chromium (or CHROMIUM_PATH).
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Browser, Page, sync_playwright

from bench.header import print_footer, print_header
from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.server import RunningGateway, free_port, start_in_thread
from playground.gradio_compat import page_bundle
from playground.settings import Settings
from playground.ui.app import build_app, configure_queue, launch_options
from playground.ui.shared.connection import ServerDefaults
from tests.browser import CHROMIUM, CHROMIUM_ARGS
from tests.e2e.pages import open_tab

KEY = "bench-key"
ROWS = "question\n" + "".join(f"What is {n} plus {n}?\n" for n in range(40))
BUNDLES = ("Gradio's bundle (baseline)", "the rewritten bundle")


def renderer_cpu_s() -> float:
    """CPU seconds used so far by every Chromium renderer process on the machine."""
    total = 0.0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as command:
                if b"--type=renderer" not in command.read():
                    continue
            with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except OSError:
            continue
    return total


def measured(page: Page, window_s: float) -> tuple[float, int]:
    """(renderer CPU seconds, direct calls the page made) over the window."""
    calls: list[str] = []
    page.on("request", lambda request: calls.append(request.url) if "/gradio_api/run/" in request.url else None)
    started = renderer_cpu_s()
    page.wait_for_timeout(window_s * 1000)
    return renderer_cpu_s() - started, len(calls)


def batch_page(browser: Browser, url: str) -> Page:
    page = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    page.goto(url)
    page.wait_for_selector("#chat-input textarea")
    open_tab(page, "Batch", "#batch-user textarea")
    return page


def after_the_sample(browser: Browser, url: str, gateway: RunningGateway, window_s: float) -> tuple[float, int]:
    page = batch_page(browser, url)
    page.click("#batch-example-0")
    page.wait_for_selector("#batch-data-status:has-text('8 rows')")
    page.wait_for_timeout(2000)
    try:
        return measured(page, window_s)
    finally:
        page.context.close()


def while_a_run_streams(browser: Browser, url: str, gateway: RunningGateway, window_s: float) -> tuple[float, int]:
    page = batch_page(browser, url)
    page.fill("#batch-user textarea", "Answer briefly: {{question}}")
    page.fill("#batch-paste textarea", ROWS)
    page.click("#batch-paste-use")
    page.wait_for_selector("#batch-data-status:has-text('40 rows')")
    gateway.config.token_delay = 0.3  # the run outlasts the window
    try:
        page.click("#batch-run")
        page.wait_for_selector("#batch-progress .batch-progress[data-status=running]")
        page.wait_for_timeout(2000)
        return measured(page, window_s)
    finally:
        gateway.config.token_delay = 0.01
        page.click("#batch-stop")
        page.context.close()


MOMENTS: dict[str, Callable[[Browser, str, RunningGateway, float], tuple[float, int]]] = {
    "the sample's form at rest": after_the_sample,
    "a run streaming its progress": while_a_run_streams,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--window-s", type=float, default=10.0)
    args = parser.parse_args()
    print_header()
    gateway = start_in_thread(DemoConfig(api_key=KEY, token_delay=0.01))
    settings = Settings(read_timeout=10, data_dir=Path(tempfile.mkdtemp(prefix="bench-batch-page-")))
    blocks = configure_queue(build_app(settings, ServerDefaults(gateway.url, KEY, demo=True)))
    port = free_port()
    blocks.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, quiet=True, **launch_options(settings))
    url = f"http://127.0.0.1:{port}"
    rewritten = page_bundle.rewritten_files()
    results: dict[tuple[str, str], list[tuple[float, int]]] = {}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for round_ in range(args.rounds):
                order = BUNDLES if round_ % 2 == 0 else tuple(reversed(BUNDLES))
                for bundle in order:
                    page_bundle.serve_files(rewritten if bundle == BUNDLES[1] else {})
                    for moment, measure in MOMENTS.items():
                        results.setdefault((moment, bundle), []).append(measure(browser, url, gateway, args.window_s))
            browser.close()
    finally:
        page_bundle.serve_files(rewritten)
        blocks.close()
        gateway.stop()
    print(f"Chromium's renderer CPU over {args.window_s:g} s on the Batch tab, median of {args.rounds} round(s), bundles alternating")
    print("| moment | bundle | renderer CPU s | direct calls | ratio to the baseline |")
    print("|---|---|---|---|---|")
    for moment in MOMENTS:
        baseline = statistics.median(cpu for cpu, _ in results[(moment, BUNDLES[0])])
        for bundle in BUNDLES:
            cpu = statistics.median(value for value, _ in results[(moment, bundle)])
            calls = statistics.median(count for _, count in results[(moment, bundle)])
            print(f"| {moment} | {bundle} | {cpu:.2f} | {calls:.0f} | {cpu / baseline if baseline else float('nan'):.2f} |")
    print_footer()


if __name__ == "__main__":
    main()
