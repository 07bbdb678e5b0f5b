"""Start-up: `python app.py` to its first HTTP 200, against a minimal `gr.ChatInterface` app
started the same way (a fresh process each), alternating runs; then, in Chromium, each page's
first contentful paint, the time until its first text box is on screen (the page usable), the
page's bytes on the wire, and a first visit's (the page, its scripts, styles and fonts, by then).

    python -m bench.startup [--runs 10] [--no-browser] [--before REF] [--tab chat]

`--before REF` adds the app of commit REF (alternating with this tree's); `--tab chat` adds this
tree's app built with that tab alone, the ceiling of a first page that holds only the open tab.

Needs /usr/bin/chromium (or CHROMIUM_PATH) for the page timings.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from bench.browser_trace import ARGS, CHROMIUM
from bench.header import print_footer, print_header
from bench.reply_cpu import extract
from playground.demo_gateway.server import free_port

ROOT = Path(__file__).resolve().parents[1]
MINIMAL_APP = """
import gradio as gr, os
gr.ChatInterface(lambda message, history: message).launch(
    server_name="127.0.0.1", server_port=int(os.environ["GRADIO_SERVER_PORT"]))
"""
DEADLINE_S = 90.0


PAGE_TIMINGS = """() => ({
    paint: (performance.getEntriesByName("first-contentful-paint")[0] || {}).startTime ?? null,
    usable: performance.now(),
    page_kb: ((performance.getEntriesByType("navigation")[0] || {}).transferSize || 0) / 1000,
    visit_kb: [...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")]
        .reduce((total, entry) => total + (entry.transferSize || 0), 0) / 1000,
})"""


def time_to_first_200(command: list[str], page_timings: Callable[[str], dict[str, float]] | None = None) -> dict[str, float]:
    """Seconds from spawning `command` to the first 200 on its port (`start`), and with
    `page_timings` what it measures of the page; the process is then stopped."""
    port = free_port()
    env = {**os.environ, "GRADIO_SERVER_PORT": str(port), "GRADIO_ANALYTICS_ENABLED": "False", "GATEWAY_BASE_URL": ""}
    start = time.perf_counter()
    errors = tempfile.TemporaryFile()  # noqa: SIM115 - closed in the finally below, after the process
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=errors)
    try:
        while time.perf_counter() - start < DEADLINE_S:
            if process.poll() is not None:
                errors.seek(0)
                said = errors.read().decode("utf-8", "replace").strip().splitlines()[-3:]
                raise RuntimeError(f"{command} exited with {process.returncode} before answering: {' | '.join(said)}")
            try:
                if httpx.get(f"http://127.0.0.1:{port}/", timeout=1).status_code == 200:
                    measured = {"start": time.perf_counter() - start}
                    if page_timings is not None:
                        measured.update(page_timings(f"http://127.0.0.1:{port}/"))
                    return measured
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"{command} did not answer within {DEADLINE_S:.0f} s")
    finally:
        process.terminate()
        process.wait(10)
        errors.close()


def browser_timer(browser: Any) -> Callable[[str], dict[str, float]]:
    """Milliseconds from navigation to the page's first contentful paint and to its first text
    box on screen, in a fresh browser context (nothing cached)."""

    def page_timings(url: str) -> dict[str, float]:
        context = browser.new_context()
        try:
            page = context.new_page()
            page.goto(url)
            page.wait_for_selector("textarea", state="visible", timeout=DEADLINE_S * 1000)
            return dict(page.evaluate(PAGE_TIMINGS))
        finally:
            context.close()

    return page_timings


def one_tab_app(tab: str) -> str:
    """`app.py` with only the tab `tab` in the page (the other tabs left out of `TABS` before it
    is built): the ceiling of a first page that holds only the open tab."""
    return ("import runpy, playground.ui.app as page, playground.ui.tabs.registry as registry\n"
            f"page.TABS = registry.TABS = tuple(tab for tab in registry.TABS if tab.id == {tab!r})\n"
            "runpy.run_path('app.py', run_name='__main__')\n")


def apps(before: Path | None, tab: str | None) -> list[tuple[str, list[str]]]:
    """The apps a round starts, by name: this tree's, `before`'s, the one-tab build, the minimal app."""
    chosen = [("app", [sys.executable, "app.py"])]
    if before is not None:
        chosen.append(("before", [sys.executable, str(before / "app.py")]))
    if tab is not None:
        chosen.append((f"{tab} tab only", [sys.executable, "-c", one_tab_app(tab)]))
    return [*chosen, ("minimal", [sys.executable, "-c", MINIMAL_APP])]


def measure(runs: int, page_timings: Callable[[str], dict[str, float]] | None,
            chosen: list[tuple[str, list[str]]]) -> dict[str, list[dict[str, float]]]:
    """Each app started `runs` times, alternating, with the load average when each run ended."""
    measured: dict[str, list[dict[str, float]]] = {name: [] for name, _ in chosen}
    for _ in range(runs):
        for name, command in chosen:
            run = time_to_first_200(command, page_timings)
            measured[name].append({**run, "load": os.getloadavg()[0]})
    return measured


def print_table(measured: dict[str, list[dict[str, float]]]) -> None:
    rows = [("start s (to first 200)", "start"), ("first paint ms", "paint"), ("text box on screen ms", "usable"),
            ("page KB on the wire", "page_kb"), ("visit KB (with scripts)", "visit_kb")]
    baseline = measured["minimal"]
    for app, ours in measured.items():
        if app == "minimal":
            continue
        loads = [run["load"] for run in ours]
        print(f"{app} (load {min(loads):.1f}-{max(loads):.1f} at its runs' ends)")
        print(f"{'measure':<26}{'app median':>12}{'minimal median':>16}{'ratio':>8}   app min-max / minimal min-max")
        for title, key in rows:
            mine = [run[key] for run in ours if run.get(key) is not None]
            theirs = [run[key] for run in baseline if run.get(key) is not None]
            if not mine or not theirs:
                continue
            ratio = statistics.median(mine) / statistics.median(theirs)
            print(f"{title:<26}{statistics.median(mine):>12.2f}{statistics.median(theirs):>16.2f}{ratio:>8.2f}"
                  f"   {min(mine):.2f}-{max(mine):.2f} / {min(theirs):.2f}-{max(theirs):.2f}")
    print("ratio (app / minimal) goals: start at most 1.1, first paint at most 1.0")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--no-browser", action="store_true", help="time the start only")
    parser.add_argument("--before", help="a commit to compare with (extracted with git archive), alternating")
    parser.add_argument("--tab", help="also the app built with only this tab (e.g. chat): the first page's ceiling")
    args = parser.parse_args()
    print_header()
    with tempfile.TemporaryDirectory(prefix="startup-") as scratch:
        chosen = apps(extract(args.before, Path(scratch)) if args.before else None, args.tab)
        if args.no_browser:
            measured = measure(args.runs, None, chosen)
        else:
            from playwright.sync_api import sync_playwright

            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                try:
                    measured = measure(args.runs, browser_timer(browser), chosen)
                finally:
                    browser.close()
    print_table(measured)
    print_footer()


if __name__ == "__main__":
    main()
