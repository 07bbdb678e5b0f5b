"""An update of a component's value and display props builds no component, and the page and the
session get what Gradio's rebuilt component gave them (patch `display_updates`)."""

from __future__ import annotations

import inspect
from typing import Any

import gradio as gr
from gradio.blocks import Blocks
from gradio.context import Context
from gradio.state_holder import SessionState

from playground.gradio_compat import display_updates, sessions, updates
from playground.gradio_compat.marks import unpatched

MESSAGE = {"text": "", "files": []}


def send_like_outputs() -> tuple[gr.Blocks, Any, list[Any]]:
    """The components a send updates, with the kinds of update it sends them."""
    with gr.Blocks() as blocks:
        with gr.Group(visible=False) as panel:
            label = gr.Markdown()
        outputs = [gr.MultimodalTextbox(placeholder="idle", file_types=["image"], file_count="multiple"),
                   gr.Markdown(visible=False, elem_classes=["banner"]), gr.Textbox(placeholder="result"), panel, label]
        gr.Button().click(lambda: None, None, outputs)
    return blocks, next(iter(blocks.fns.values())), outputs


UPDATES = [
    [gr.update(value=MESSAGE, placeholder="replying"), gr.update(value="**no**", visible=True), gr.update(value=""),
     gr.update(visible=True), "tool call"],
    [gr.update(placeholder="idle"), gr.update(value="", visible=False), gr.skip(), gr.update(visible=False), gr.skip()],
    [gr.update(value={"text": "hi", "files": []}, placeholder=None), gr.update(visible=None, value="x"), gr.update(value=None),
     gr.update(), gr.update(value="**b**")],
]


def installed() -> None:
    sessions.keep_session_component_ids()
    updates.skipped_outputs_cost_nothing()
    display_updates.display_updates_build_nothing()


def config_of(component: Any) -> dict[str, Any]:
    config = dict(component.get_config())
    config.pop("value", None)  # Gradio's rebuilt copy drops its start value; the page is sent the value in the update
    return config


async def test_a_display_update_is_answered_and_kept_as_gradio_does_without_building_a_component() -> None:
    installed()
    blocks, event, outputs = send_like_outputs()
    patched_session, gradio_session = SessionState(blocks), SessionState(blocks)
    gradios_own = unpatched(Blocks.postprocess_data)
    for round_ in UPDATES:
        built_before = Context.id
        answered = await blocks.postprocess_data(event, list(round_), patched_session)
        assert Context.id == built_before, "a component was built for a display update"
        expected = await gradios_own(blocks, event, list(round_), gradio_session)
        assert answered == expected
        for component in outputs:
            assert config_of(patched_session[component._id]) == config_of(gradio_session[component._id])
            assert patched_session[component._id].constructor_args.get("placeholder") == \
                gradio_session[component._id].constructor_args.get("placeholder")
    # the session's copy is its own: the page's component is untouched
    assert outputs[0].placeholder == "idle" and outputs[1].visible is False


async def test_an_update_of_other_props_is_still_gradios_and_one_output_events_take_the_same_path() -> None:
    installed()
    with gr.Blocks() as blocks:
        box = gr.Textbox(placeholder="idle")
        gr.Button().click(lambda: None, None, box)
        gr.Button().click(lambda: None, None, [box, gr.Markdown()])
    one, two = blocks.fns.values()
    session = SessionState(blocks)
    built_before = Context.id
    assert await blocks.postprocess_data(one, gr.update(value="v", placeholder="p"), session) == [
        {"__type__": "update", "value": "v", "placeholder": "p"}]
    assert Context.id == built_before
    assert session[box._id].placeholder == "p"
    assert await blocks.postprocess_data(two, [gr.update(lines=4), gr.skip()], session) == [
        {"__type__": "update", "lines": 4}, {"__type__": "update"}]
    assert Context.id == built_before + 1, "an update of a prop outside DISPLAY_PROPS is Gradio's rebuild"
    assert session[box._id].lines == 4 and session[box._id].placeholder == "p"
    with gr.Blocks() as blocks:
        note = gr.Markdown()
        gr.Button().click(lambda: None, None, [note, gr.Markdown()])
    assert not display_updates.display_only(note, gr.update(placeholder="a Markdown takes none"))


def test_every_display_prop_is_stored_as_given_by_the_components_the_app_updates() -> None:
    for make in (gr.MultimodalTextbox, gr.Textbox, gr.Markdown, gr.Group, gr.Column, gr.Button, gr.Code, gr.HTML):
        for prop in display_updates.DISPLAY_PROPS:
            if prop not in inspect.signature(make.__init__).parameters:  # not taken as a display update of it
                continue
            given = False if prop == "visible" else "shown as given"
            component = make(**{prop: given}, render=False)
            assert getattr(component, prop) == given, f"{make.__name__}({prop}=...) stores something else"
