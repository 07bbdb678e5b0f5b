"""An output an event skips costs nothing: Gradio no longer builds a component for it on every
update, and what the page receives is what Gradio sent before."""

from __future__ import annotations

import gradio as gr
from gradio.state_holder import SessionState

from playground.gradio_compat.updates import skipped_outputs_cost_nothing


def four_outputs() -> tuple[gr.Blocks, object, list]:
    with gr.Blocks() as blocks:
        outputs = [gr.Chatbot(), gr.Textbox(), gr.Markdown(), gr.Markdown()]
        gr.Button().click(lambda: None, None, outputs)
    return blocks, next(iter(blocks.fns.values())), outputs


async def test_skipped_outputs_are_answered_as_skips_and_leave_the_session_alone() -> None:
    skipped_outputs_cost_nothing()
    blocks, event, (_chatbot, box, note, _other) = four_outputs()
    session = SessionState(blocks)
    held = session.get(box._id, None)
    answered = await blocks.postprocess_data(event, [[{"role": "user", "content": "hi"}], gr.skip(), gr.update(visible=False), "text"],
                                             session)
    assert answered == [[{"role": "user", "metadata": None, "content": [{"text": "hi", "type": "text"}], "options": None}],
                        {"__type__": "update"}, {"visible": False, "__type__": "update"}, "text"]
    assert (session.get(box._id, None)) is held, "a skipped output was built anew for the session"
    assert session[note._id].visible is False, "the update of another output was lost"
    assert await blocks.postprocess_data(event, [gr.skip()] * 4, session) == [{"__type__": "update"}] * 4
    assert await blocks.postprocess_data(event, gr.skip(), session) == [{"__type__": "update"}] * 4
    assert await blocks.postprocess_data(event, [gr.skip(), "one", gr.skip(), gr.skip()], session) == [
        {"__type__": "update"}, "one", {"__type__": "update"}, {"__type__": "update"}]
