"""Small page actions the browser tests share."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from playwright.sync_api import Locator, Page, Request, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playground.ui.tabs.registry import TABS
from playground.ui.shared.examples import in_language


def open_tab(page: Page, name: str, ready_selector: str) -> None:
    """Select the tab called `name` and wait until `ready_selector` is on the page. Tabs that do
    not fit the bar sit behind its overflow menu (which holds a second button of the same name)."""
    shown = page.get_by_role("tab", name=name, exact=True).filter(visible=True)
    more = page.locator("button[aria-label='More tabs']").filter(visible=True)
    shown.or_(more).first.wait_for()  # the tab bar is laid out (it measures itself first)
    if shown.count():
        shown.first.click()
    else:
        more.first.click()
        page.locator(".overflow-dropdown button", has_text=name).filter(visible=True).first.click()
    page.wait_for_selector(ready_selector)


def open_accordion(page: Page, label: str, inside: str, timeout_ms: int = 60_000, within: str | None = None) -> None:
    """Open the accordion called `label` (the first on the page, or the first in `within`) until
    `inside` shows, as a person does: a click that the page lost while it was still applying its
    first updates (seen on a loaded machine) is made again once the panel has had time to open."""
    deadline = time.monotonic() + timeout_ms / 1000
    scope = page.locator(within) if within else page
    while True:
        scope.get_by_text(label, exact=True).first.click()
        try:
            page.locator(inside).wait_for(state="visible", timeout=10_000)
            return
        except PlaywrightTimeoutError:
            if time.monotonic() > deadline:
                raise


def click_during_stream(page: Page, selector: str) -> None:
    """Click a button while the page draws a streamed reply. The click is the DOM event a mouse
    click ends in: a mouse click first waits for animation frames (to scroll and hit-test), and a
    page drawing a long reply on a loaded machine can go tens of seconds without one."""
    button = page.locator(selector)
    expect(button).to_be_visible()
    button.dispatch_event("click")


def settle(page: Page, action: Callable[[], object], timeout_ms: int = 20_000) -> None:
    """Do `action`, then wait until every direct (unqueued) event it started has come back from the
    server: at least one, none in flight, and none new over two polls in a row."""
    started: list[object] = []
    finished: list[object] = []

    def direct(request: Request) -> bool:
        return "/gradio_api/run/predict" in request.url

    on_request = lambda request: started.append(request) if direct(request) else None  # noqa: E731
    on_done = lambda request: finished.append(request) if direct(request) else None  # noqa: E731
    page.on("request", on_request)
    page.on("requestfinished", on_done)
    page.on("requestfailed", on_done)
    try:
        action()
        quiet = 0
        for _ in range(timeout_ms // 100):
            page.wait_for_timeout(100)
            seen = len(started)
            quiet = quiet + 1 if seen and len(finished) >= seen else 0
            if quiet >= 2:
                return
        raise AssertionError(f"{len(started)} events started, {len(finished)} came back")
    finally:
        page.remove_listener("request", on_request)
        page.remove_listener("requestfinished", on_done)
        page.remove_listener("requestfailed", on_done)


HOLD_FRAMES_JS = """() => {
  const frames = window.__frames || (window.__frames = {held: false, queued: new Map(), next: -1,
    raf: window.requestAnimationFrame.bind(window), caf: window.cancelAnimationFrame.bind(window)});
  if (!frames.wrapped) {
    frames.wrapped = true;
    window.requestAnimationFrame = (callback) => {
      if (!frames.held) return frames.raf(callback);
      const id = frames.next--;
      frames.queued.set(id, callback);
      return id;
    };
    window.cancelAnimationFrame = (id) => (frames.queued.delete(id) ? undefined : frames.caf(id));
  }
  frames.held = true;
}"""
RELEASE_FRAMES_JS = """() => {
  const frames = window.__frames;
  frames.held = false;
  const queued = [...frames.queued.values()];
  frames.queued.clear();
  for (const callback of queued) frames.raf(callback);
}"""
WATCH_REVEALS_JS = """async () => {
  const core = performance.getEntriesByType("resource").map((entry) => entry.name).find((name) => /\\/assets\\/core-[^/]+\\.js$/.test(name));
  const tree = (await import(core)).AppTree.prototype;
  const reveals = window.__reveals = {started: 0, done: 0};
  const reveal = tree.render_previously_invisible_children;
  tree.render_previously_invisible_children = async function (id) {
    reveals.started += 1;
    try {
      return await reveal.call(this, id);
    } finally {
      reveals.done += 1;
    }
  };
}"""


@contextmanager
def frames_held(page: Page) -> Iterator[None]:
    """The page's animation-frame callbacks wait until the block ends, as on a loaded machine where
    the next frame comes late (Playwright's own waits run in a world of their own and go on)."""
    page.evaluate(HOLD_FRAMES_JS)
    try:
        yield
    finally:
        page.evaluate(RELEASE_FRAMES_JS)


def watch_reveals(page: Page) -> None:
    """Count the page's reveals of content shown for the first time (a closed accordion opened, a
    tab not yet visited), so `wait_for_reveals` can wait for them to end. Gradio 6.31 mounts such
    content at once and applies the props it was built with a frame later (`AppTree.
    render_previously_invisible_children`, see `playground/gradio_compat/revealed.py`)."""
    page.evaluate(WATCH_REVEALS_JS)


def wait_for_reveals(page: Page, at_least: int = 1) -> None:
    """Wait until at least `at_least` reveals started since `watch_reveals` and every one has ended."""
    page.wait_for_function("(least) => window.__reveals.started >= least && window.__reveals.done === window.__reveals.started", arg=at_least)


def save_session_file(page: Page, tab: str, folder: object) -> str:
    """Save the tab's session file through the page and return where the download was kept."""
    page.click(f"#{tab}-session-file")
    page.click(f"#{tab}-session-save")
    with page.expect_download() as download:
        page.locator(f"#{tab}-session-download a").first.click()
    saved = f"{folder}/{tab}-session.json"
    download.value.save_as(saved)
    return saved


def choose_session_file(page: Page, tab: str, path: str) -> None:
    """Give the tab's "Load a saved file" button a file (through the file chooser it opens)."""
    page.click(f"#{tab}-session-file")
    with page.expect_file_chooser() as chooser:
        page.click(f"#{tab}-session-load")
    chooser.value.set_files(path)


def load_session_file(page: Page, tab: str, path: str) -> None:
    """Load a saved session file into the tab and wait until it says so."""
    choose_session_file(page, tab, path)
    expect(page.locator(f"#{tab}-session-status")).to_contain_text("Loaded", timeout=30_000)


def import_curl(page: Page, command: str, keep_base_url: bool = False) -> None:
    """Paste a curl command into the import panel and open it in its tab (with "keep my base URL"
    when `keep_base_url`)."""
    if not page.locator("#curl-command textarea").is_visible():
        open_accordion(page, "Import a curl command", "#curl-command textarea", within="#curl-import")
    page.fill("#curl-command textarea", command)
    page.click("#curl-import-keep" if keep_base_url else "#curl-import-button")
    expect(page.locator("#curl-status")).to_have_text(re.compile(r"\S"), timeout=30_000)


EXAMPLE_PROMPT_BOX = {tab.id: f"#{tab.example_box} textarea" for tab in TABS if tab.example_box is not None}


def example_prompt(example: object, language: str = "en") -> str:
    """The text an example puts in its tab's prompt box, on a page in `language` (words, `Said`, in that language)."""
    values = example.values  # type: ignore[attr-defined]
    for name in ("draft", "user", "texts", "prompt"):
        if name in values:
            value = values[name]
            value = value["text"] if isinstance(value, dict) else value
            return str(in_language(value, language))
    raise ValueError(f"example {example!r} fills no prompt box")


def click_example(page: Page, tab: str, index: int, example: object) -> None:
    """Click a tab's example and wait, as a person would, until its prompt is in the box."""
    page.click(f"#{tab}-example-{index}")
    expect(page.locator(EXAMPLE_PROMPT_BOX[tab])).to_have_value(example_prompt(example))


def compare_kept_reports(page: Page, before: str, after: str) -> Locator:
    """The Report's History: the two kept reports whose gateway addresses hold `before` and
    `after` picked and compared; the comparison's box, once it shows something."""
    page.click("#report-history-panel")
    page.click("#report-history-refresh")
    expect(page.locator("#report-history-note")).to_contain_text("2 reports kept", timeout=30_000)
    for box, gateway in (("#report-history-before", before), ("#report-history-after", after)):
        page.click(f"{box} input")
        page.locator(box).get_by_role("option").filter(has_text=gateway).click()
        expect(page.locator(f"{box} input")).to_have_value(re.compile(re.escape(gateway)))
    page.click("#report-history-compare")
    diff = page.locator("#report-history-diff")
    expect(diff).not_to_be_empty(timeout=30_000)
    return diff


def settled(page: Page, selector: str, quiet_ms: int = 1500, tries: int = 20) -> str:
    """The text of `selector` once it has stayed the same for `quiet_ms` (the last update it was waiting for has arrived)."""
    text = page.locator(selector).inner_text()
    for _ in range(tries):
        page.wait_for_timeout(quiet_ms)
        now = page.locator(selector).inner_text()
        if now == text and now:
            return now
        text = now
    raise AssertionError(f"{selector} kept changing: {text!r}")
