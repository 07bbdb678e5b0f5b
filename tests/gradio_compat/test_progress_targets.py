"""Events show progress only where a person can see it (issue 25): Gradio's page keeps a loading
status for every component an event has shown progress on and walks its component tree for each of
them on every streamed update, so a tab that had run a video job streamed replies 1.5x slower."""

from __future__ import annotations

import gradio as gr
import pytest

from playground.settings import Settings
from playground.ui.app import build_app
from playground.ui.shared.connection import ServerDefaults


@pytest.fixture(scope="module")
def page() -> dict:
    blocks = build_app(Settings(), ServerDefaults("http://127.0.0.1:9", "k", demo=True))
    return {"blocks": blocks, "config": blocks.get_config_file()}


def targets(config: dict, dependency: dict) -> list[int]:
    return dependency["show_progress_on"] if dependency["show_progress_on"] is not None else dependency["outputs"]


def by_elem_id(config: dict, elem_id: str) -> int:
    return next(c["id"] for c in config["components"] if c.get("props", {}).get("elem_id") == elem_id)


def event(config: dict, elem_id: str, trigger: str) -> dict:
    component = by_elem_id(config, elem_id)
    return next(d for d in config["dependencies"] if [component, trigger] in [list(t) for t in d["targets"]])


def test_a_send_shows_progress_on_its_chatbot_only(page: dict) -> None:
    config = page["config"]
    for tab in ("chat", "responses", "messages", "native"):
        send = event(config, f"{tab}-input", "submit")
        assert len(send["outputs"]) > 10
        assert targets(config, send) == [by_elem_id(config, f"{tab}-chatbot")], f"{tab}: the send's progress is not on its chatbot alone"


def test_no_state_and_no_quick_event_carries_a_loading_status(page: dict) -> None:
    config, blocks = page["config"], page["blocks"]
    states = {block._id for block in blocks.blocks.values() if isinstance(block, (gr.State, gr.BrowserState))}
    chatbots = {block._id for block in blocks.blocks.values() if isinstance(block, gr.Chatbot)}
    for dependency in config["dependencies"]:
        shown = set(targets(config, dependency))
        assert not shown & states, f"event {dependency['id']} shows progress on a state"
        if not dependency["queue"] or dependency["show_progress"] == "hidden":
            assert shown <= chatbots, f"event {dependency['id']} (answers at once or hides progress) keeps loading statuses"


def test_a_queued_generation_still_shows_its_progress(page: dict) -> None:
    """Progress stays where it tells a person something: what a queued generation changes."""
    config = page["config"]
    generate = next(d for d in config["dependencies"] if d["queue"] and d["show_progress"] == "full"
                    and by_elem_id(config, "images-gallery") in d["outputs"])
    assert by_elem_id(config, "images-gallery") in targets(config, generate)


def tree_positions(config: dict) -> dict[int, int]:
    """Each component's place in the depth-first walk Gradio's page makes to find it (`update_state`)."""
    positions: dict[int, int] = {}

    def walk(node: dict) -> None:
        positions[node["id"]] = len(positions)
        for child in node.get("children") or []:
            walk(child)

    walk(config["page"][""]["layout"])  # the layout the page reads (its page entry's)
    return positions


def statuses_after_load(config: dict) -> set[int]:
    """The components a fresh page keeps a loading status for once its load events ran, as Gradio 6.31's
    page does it (statustracker's `LoadingStatus.resolve_args`): an event's progress targets from its first
    status message, and, once it completes (its `stream_state` is then "closed"), its inputs too. None is
    ever removed, and every later status message of any event walks the tree once for each of them."""
    ran = {d["id"] for d in config["dependencies"] if any(trigger == "load" for _, trigger in d["targets"])}
    grew = True
    while grew:
        following = {d["id"] for d in config["dependencies"] if d.get("trigger_after") in ran} - ran
        ran |= following
        grew = bool(following)
    kept: set[int] = set()
    for dependency in config["dependencies"]:
        if dependency["id"] in ran and dependency["backend_fn"]:
            kept |= set(targets(config, dependency)) | set(dependency["inputs"])
    return kept


def test_the_pages_load_leaves_loading_statuses_near_the_top_of_the_tree(page: dict) -> None:
    """What a Chat reply's status messages cost the page (issue 41): the Batch tab's load event read its 52
    form boxes, deep in the tree (65,856 nodes walked per status message); it now reads none, and the
    Batch and Video states the load's restores read are made before the tabs (about 1,500 nodes now)."""
    config = page["config"]
    positions = tree_positions(config)
    kept = statuses_after_load(config)
    walked = sum(positions.get(component, len(positions)) for component in kept)
    batch_boxes = {by_elem_id(config, f"batch-model-{index}") for index in range(8)} | {by_elem_id(config, "batch-temperature")}
    assert not kept & batch_boxes, "a load event reads the Batch form"
    assert walked < 2_000, f"the page's load leaves loading statuses that walk {walked} tree nodes per status message"
