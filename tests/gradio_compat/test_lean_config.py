"""The page config without what Gradio 6.31's frontend does not read or reads as absent (patch
`lean_page_config`, issue 41): class ids of Gradio's own components, event keys at the values the
frontend treats as absent, the top-level layout; everything else as Gradio builds it, the frontend's
reading as recorded, and the app's events still run from the lean config. (The page in Chromium:
every tab's examples in tests/e2e/test_examples_browser.py.)"""

from __future__ import annotations

import json
import re
from typing import Any

import gradio as gr
import httpx
from gradio.blocks import Blocks

from bench.app_queue import chat_once, page_events, run_direct, start_app
from playground import gradio_compat
from playground.gradio_compat.lean_config import AS_ABSENT, NEVER_READ, PRIVATE_ONLY, drawn_by_gradio, frontend_moved, lean_config
from playground.gradio_compat.marks import unpatched
from playground.settings import Settings
from playground.ui.app import build_app
from playground.ui.shared.connection import ServerDefaults

PAGE_CONFIG = re.compile(r"window\.gradio_config = (\{.*?\});</script>", re.S)


def app_blocks() -> Blocks:
    return build_app(Settings(), ServerDefaults("http://127.0.0.1:9", "k", demo=True))


def left_out(key: str, value: Any, dependency: dict[str, Any]) -> bool:
    """Whether the patch's rules leave `key` (holding `value`) out of `dependency`."""
    if key in NEVER_READ or (key in PRIVATE_ONLY and dependency.get("api_visibility") == "private"):
        return True
    return any(value == absent and type(value) is type(absent) for absent in AS_ABSENT.get(key, ()))


def test_the_frontend_still_reads_the_config_as_recorded() -> None:
    assert frontend_moved() == []


def test_the_apps_config_leaves_out_only_what_the_frontend_does_not_read() -> None:
    assert gradio_compat.apply()
    blocks = app_blocks()
    ours = blocks.get_config_file()
    theirs = unpatched(Blocks.get_config_file)(blocks)
    assert "layout" in theirs and "layout" not in ours and ours["page"][""]["layout"] == theirs["layout"]
    assert all("component_class_id" in component for component in theirs["components"])
    assert not [c["id"] for c in ours["components"] if "component_class_id" in c], "every component here is Gradio's own"
    assert [{**c, "component_class_id": None} for c in ours["components"]] == [{**c, "component_class_id": None} for c in theirs["components"]]
    for mine, gradios in zip(ours["dependencies"], theirs["dependencies"], strict=True):
        assert mine == {key: value for key, value in gradios.items() if not left_out(key, value, gradios)}
    kept_keys = {key for dependency in ours["dependencies"] for key in dependency}
    assert not kept_keys & set(NEVER_READ) and {"queue", "show_progress", "cancels", "api_visibility", "backend_fn"} <= kept_keys
    left = len(json.dumps(theirs, default=str)) - len(json.dumps(ours, default=str))
    assert left > 250_000, f"only {left} bytes left out"
    assert {key: value for key, value in ours.items() if key not in ("components", "dependencies")} == {
        key: value for key, value in theirs.items() if key not in ("components", "dependencies", "layout")}


class Gauge:
    """Stands in for a custom component's block (its class defined outside Gradio; a real component
    class made here would have Gradio write a .pyi beside this file)."""


def test_a_custom_components_class_id_is_kept() -> None:
    text = gr.Textbox(render=False)
    config = {"page": {"": {"layout": {"id": 0}}}, "layout": {"id": 0}, "dependencies": [],
              "components": [{"id": 1, "type": "gauge", "component_class_id": "c" * 64}, {"id": 2, "type": "textbox", "component_class_id": "t" * 64}]}
    assert not drawn_by_gradio(Gauge()) and drawn_by_gradio(text)
    lean = lean_config(config, {1: Gauge(), 2: text})
    assert lean["components"] == [{"id": 1, "type": "gauge", "component_class_id": "c" * 64}, {"id": 2, "type": "textbox"}]
    assert "layout" not in lean


async def test_the_served_page_is_lean_and_its_events_run() -> None:
    app = start_app(token_delay=0.0)
    try:
        async with httpx.AsyncClient(timeout=60) as http:
            html = (await http.get(f"{app.url}/")).text
            config, events = await page_events(http, app.url)
            reply = await chat_once(http, app, "Hello there")
            stopped = await run_direct(http, app.url, events.stop, [None], "lean-stop-1")
    finally:
        app.blocks.close()
        app.gateway.stop()
    inline = json.loads(PAGE_CONFIG.search(html).group(1))  # type: ignore[union-attr]  # the page inlines its config
    for served in (inline, config):
        assert "layout" not in served and served["page"][""]["layout"]["children"]
        assert not [c for c in served["components"] if "component_class_id" in c]
        assert not [d["id"] for d in served["dependencies"] if set(d) & {*NEVER_READ, "trigger_only_on_success", "rendered_in"}]
    send = next(d for d in config["dependencies"] if d["id"] == events.send)
    assert send["queue"] is not False and "trigger_after" not in send
    assert reply.text and reply.ttft is not None and isinstance(stopped, list)
