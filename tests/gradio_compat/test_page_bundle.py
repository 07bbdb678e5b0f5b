"""`indexed_page_tree` (`gradio_compat/page_bundle.py`): each rewrite finds its text once in the installed
frontend, the app serves the rewritten files and every other asset as Gradio ships it, and each rewritten
function answers as Gradio's own does, run side by side in Chromium over this app's own events (and, for
the loading-status pass, over a sequence of status messages and direct writes: what each component is
left showing is the same, with far fewer writes). (The whole page built from the rewritten bundle is what
every browser test drives.)"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import gradio as gr
import httpx
import pytest
from playwright.sync_api import Browser, Page

from playground import gradio_compat
from playground.demo_gateway.server import free_port
from playground.gradio_compat import page_bundle
from playground.settings import Settings
from playground.ui.app import build_app
from playground.ui.shared.connection import ServerDefaults

METHOD_ENDS = {"find_attached_events": "traverse(e,t){", "set_event_args": "async cancel(e){",
               "update_loading_stati_state": "dispatch_state_change_events(e){"}
"""What follows each rewritten method in its file: the method is the text from its name to there."""


def method(text: str, name: str) -> str:
    start = text.index(f"async {name}(") if name != "find_attached_events" else text.index(f"{name}(e,t){{")
    return text[start:text.index(METHOD_ENDS[name], start)]


def both_versions(name: str) -> tuple[str, str]:
    """Gradio's method `name` and the rewritten one, as their files hold them."""
    rewrite = next(rewrite for rewrite in page_bundle.REWRITES if rewrite.name == name)
    [(file, _)] = page_bundle.places(rewrite.old)
    original = (page_bundle.ASSETS / file).read_text(encoding="utf-8")
    return method(original, name), method(page_bundle.rewritten_files()[file].decode("utf-8"), name)


@pytest.fixture(scope="module")
def served_url() -> Iterator[str]:
    assert gradio_compat.apply()
    with gr.Blocks() as blocks:
        gr.Markdown("hello")
    port = free_port()
    blocks.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, quiet=True)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        blocks.close()


@pytest.fixture
def blank(browser: Browser) -> Iterator[Page]:
    page = browser.new_page()
    yield page
    page.close()


def test_each_rewrite_finds_its_text_once_in_the_installed_frontend() -> None:
    assert page_bundle.moved_in_frontend() == []
    assert gradio_compat.applied("indexed_page_tree") or not gradio_compat.active()


def test_the_rewritten_files_are_served_and_every_other_asset_is_gradios(served_url: str) -> None:
    rewritten = page_bundle.rewritten_files()
    assert len(rewritten) == 2
    for name, body in rewritten.items():
        served = httpx.get(f"{served_url}assets/{name}", timeout=30)
        assert served.status_code == 200 and served.content == body
        assert served.headers["content-type"].startswith("application/javascript") and served.headers["etag"]
        assert body != (page_bundle.ASSETS / name).read_bytes()
    assert sum(rewrite.new.encode() in body for rewrite in page_bundle.REWRITES for body in rewritten.values()) == len(page_bundle.REWRITES)
    others = [path.name for path in sorted(page_bundle.ASSETS.glob("index-*.js"))] + ["../index.html", "nothing-here.js"]
    for name in others:
        served = httpx.get(f"{served_url}assets/{name}", timeout=30)
        original = page_bundle.ASSETS / name
        if original.is_file() and original.parent == page_bundle.ASSETS:
            assert served.status_code == 200 and served.content == original.read_bytes()
        else:
            assert served.status_code in (403, 404), (name, served.status_code)


def the_apps_events() -> tuple[list[dict[str, Any]], list[int]]:
    """The page's events (their targets) and its component ids, as this app configures them, with events
    whose targets name a node twice, with an empty name, or a node the page does not have."""
    config = build_app(Settings(), ServerDefaults("http://127.0.0.1:9", "k", demo=True)).get_config_file()
    ids = [component["id"] for component in config["components"]]
    events = [{"targets": dependency["targets"]} for dependency in config["dependencies"]]
    events += [{"targets": [[ids[0], "click"], [ids[0], "submit"], [ids[1], ""], [ids[2], None], [ids[1], "change"], [999_999, "load"]]}]
    return events, ids + [999_999, -1]


ATTACHED_SIDE_BY_SIDE = """([gradios, ours, events, ids]) => {
    const methods = [eval(`({${gradios}})`), eval(`({${ours}})`)];
    const attached = (events) => ids.map((id) => methods.map(
        (m) => m.find_attached_events({id, props: {shared_props: {}}}, events).props.shared_props.attached_events));
    const differing = (rows) => rows.filter(([a, b]) => JSON.stringify(a) !== JSON.stringify(b));
    const first = attached(events);
    events.push({targets: [[ids[0], "blur"], [ids[3], "focus"]]});
    const grown = attached(events);
    const another = attached(events.slice(0, 3));
    return {
        differing: [...differing(first), ...differing(grown), ...differing(another)],
        attached: first.filter(([a]) => a.length).length,
        grown: JSON.stringify(grown[0][1]) !== JSON.stringify(first[0][1]),
    };
}"""


@pytest.mark.browser
def test_the_indexed_attached_events_are_gradios_for_every_node_of_this_app(blank: Page) -> None:
    gradios, ours = both_versions("find_attached_events")
    assert gradios != ours
    events, ids = the_apps_events()
    found = blank.evaluate(ATTACHED_SIDE_BY_SIDE, [gradios, ours, json.loads(json.dumps(events)), ids])
    assert found["differing"] == []
    assert found["attached"] > 300, "the app's events are attached to its nodes"
    assert found["grown"], "an event added to the same list is found"


EVENT_ARGS_SIDE_BY_SIDE = """async ([gradios, ours]) => {
    const run = async (source, args, state) => {
        const calls = [];
        const self = {
            get_state_cb: async (id) => { calls.push(["looked up", id]); return state; },
            update_state_cb: async (id, value, flag) => { calls.push(["updated", id, value, flag]); },
        };
        try {
            const undo = await eval(`({${source}})`).set_event_args.call(self, 7, args);
            await undo();
            return {calls, error: null};
        } catch (error) {
            return {calls, error: error.constructor.name};
        }
    };
    const cases = [[{}, {value: 1}], [{a: 2}, {value: 1, a: 5}], [{a: 2}, null], [undefined, {value: 1}], [{}, null]];
    const results = [];
    for (const [args, state] of cases) {
        results.push([await run(gradios, args, state), await run(ours, args, state)]);
    }
    return results;
}"""


@pytest.mark.browser
def test_event_arguments_are_set_and_undone_as_gradio_does_without_a_lookup_when_there_are_none(blank: Page) -> None:
    gradios, ours = both_versions("set_event_args")
    results = blank.evaluate(EVENT_ARGS_SIDE_BY_SIDE, list((gradios, ours)))

    def without_lookups(run: dict[str, Any]) -> dict[str, Any]:
        return {**run, "calls": [call for call in run["calls"] if call[0] != "looked up"]}

    assert [without_lookups(theirs) for theirs, _ in results] == [without_lookups(mine) for _, mine in results]
    assert results[1][0]["calls"] == [["looked up", 7], ["updated", 7, {"a": 2}, False], ["updated", 7, {"a": 5}, False]]
    assert results[0][0]["calls"] == [["looked up", 7]] and results[0][1]["calls"] == [], "no lookup for an event without arguments"
    assert results[3][0]["error"] == results[3][1]["error"] == "TypeError"


STATI_SIDE_BY_SIDE = """async ([gradios, ours]) => {
    const run = async (source) => {
        const shown = {}, writes = [];
        let raw = async (id, state) => { writes.push(id); if ("loading_status" in state) shown[id] = state.loading_status; };
        const self = {loading_stati: {current: {}}, update_state_cb: raw};
        const pass = () => eval(`({${source}})`).update_loading_stati_state.call(self);
        const seen = [];
        const step = async (change) => { change(); await pass(); seen.push(JSON.stringify(shown)); };
        const current = self.loading_stati.current;
        await step(() => { current[1] = {status: "pending", fn_index: 3}; current[2] = {status: "complete", fn_index: 4}; });
        await step(() => {});
        await step(() => { current[1] = {...current[1], status: "complete"}; });
        await step(() => { self.update_state_cb(2, {loading_status: {status: null}}, false); });
        await step(() => { self.update_state_cb(1, {value: "typed"}, false); });
        await step(() => { current[2].status = "pending"; });
        await step(() => { current[7] = {status: "pending", fn_index: 5}; });
        await step(() => { raw = async (id, state) => { writes.push(id); shown[id] = state.loading_status; }; self.update_state_cb = raw; });
        await step(() => { delete current[7]; });
        return {seen, writes: writes.length};
    };
    return [await run(gradios), await run(ours)];
}"""


@pytest.mark.browser
def test_the_loading_status_pass_leaves_every_component_showing_what_gradios_does_with_fewer_writes(blank: Page) -> None:
    gradios, ours = both_versions("update_loading_stati_state")
    assert gradios != ours
    theirs, mine = blank.evaluate(STATI_SIDE_BY_SIDE, [gradios, ours])
    assert mine["seen"] == theirs["seen"], "a component shows another status than Gradio's pass leaves it"
    assert '"2":{"status":"complete","fn_index":4}' in theirs["seen"][4], "a direct write is written over by the next pass"
    assert mine["writes"] < theirs["writes"] / 1.5, (mine["writes"], theirs["writes"])
