"""What Gradio's queue costs per event and per streamed update, with the patches (issue 25): a
data-only component's processing takes no thread round trip, output messages are written without a
copy, and an update value is streamed whole."""

from __future__ import annotations

from itertools import pairwise

import json

import anyio
import gradio as gr
import numpy as np
import pytest
from gradio.state_holder import SessionState

from playground.gradio_compat.chatbot import Chatbot
from playground.gradio_compat.updates import output_messages_without_copies, process_data_inline, updates_sent_whole
from tests.gradio_compat.page_diffs import apply_in_place


@pytest.fixture
def thread_hops(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the functions Gradio hands to a worker thread."""
    hops: list[str] = []
    run_sync = anyio.to_thread.run_sync

    async def counted(func, *args, **options):  # type: ignore[no-untyped-def]
        hops.append(f"{type(getattr(func, '__self__', None)).__name__}.{func.__name__}")
        return await run_sync(func, *args, **options)

    monkeypatch.setattr(anyio.to_thread, "run_sync", counted)
    return hops


async def test_data_only_components_are_processed_without_a_thread(thread_hops: list[str]) -> None:
    process_data_inline()
    with gr.Blocks() as blocks:
        inputs = [gr.Textbox(), gr.Slider(0, 2), gr.Checkbox(), gr.Dropdown(["a", "b"]), gr.MultimodalTextbox(), Chatbot()]
        outputs = [Chatbot(), gr.Markdown(), gr.Textbox()]
        gr.Button().click(lambda *values: None, inputs, outputs)
    event = next(iter(blocks.fns.values()))
    session = SessionState(blocks)
    history = [{"role": "user", "content": [{"type": "text", "text": "hi"}]}]
    values = await blocks.preprocess_data(event, ["typed", 0.7, True, "b", {"text": "draft", "files": []}, history], session)
    assert values[:5] == ["typed", 0.7, True, "b", {"text": "draft", "files": []}]
    assert values[5][0]["content"] == [{"text": "hi", "type": "text"}]
    shown = await blocks.postprocess_data(event, [[{"role": "assistant", "content": "hello"}], "**note**", "done"], session)
    assert shown[0][0]["content"] == [{"type": "text", "text": "hello"}] and shown[1:] == ["**note**", "done"]
    assert thread_hops == []


async def test_an_image_is_still_processed_in_a_thread(thread_hops: list[str]) -> None:
    process_data_inline()
    with gr.Blocks() as blocks:
        gr.Button().click(lambda: None, None, gr.Image())
    shown = await blocks.postprocess_data(next(iter(blocks.fns.values())), np.zeros((4, 4, 3), dtype=np.uint8), SessionState(blocks))
    assert shown[0]["path"]
    assert thread_hops == ["Image.postprocess"]


def test_an_output_message_is_written_as_before_without_copying_its_values() -> None:
    """The queue's stream writes `orjson.dumps(message.model_dump(), default=str)`: the same bytes,
    but the values (the whole chat in a send's first update) are no longer copied first."""
    import orjson
    from gradio.server_messages import ProcessCompletedMessage, ProcessGeneratingMessage

    chat = [{"role": "user", "content": [{"type": "text", "text": "héllo"}], "metadata": None, "options": []}]
    output = {"data": [chat, {"__type__": "update", "visible": False}, 1.25, None, True, (1, 2), "text"], "is_generating": True}
    messages = [ProcessGeneratingMessage(event_id="e1", output=output, success=True),
                ProcessCompletedMessage(event_id="e1", output=output, success=False, title="t", avg_time=0.5)]
    written = [orjson.dumps(message.model_dump(), default=str) for message in messages]
    output_messages_without_copies()
    assert [orjson.dumps(message.model_dump(), default=str) for message in messages] == written
    assert all(message.model_dump()["output"]["data"][0] is chat for message in messages), "the values were copied"
    assert messages[0].model_dump(exclude={"output"}) == {"msg": messages[0].msg, "event_id": "e1", "success": True, "time_limit": None}


def test_an_update_the_page_has_not_shown_yet_is_not_emptied_by_the_next() -> None:
    """The last update of a send shows the error banner and is followed at once by one of skips;
    the page applies the second update's diffs to the objects it handed on with the first, so
    edits of an update value emptied the banner before it was shown (a hosted visitor's refused
    base URL showed no error). An update value now changes only as a whole."""
    from gradio import utils

    updates_sent_whole()
    chunks = [
        [["hi"], {"__type__": "update", "visible": False, "value": ""}, "waiting"],
        [["hi", "reply"], {"__type__": "update", "visible": True, "value": "**This address is not allowed here**"}, "done"],
        [{"__type__": "update"}, {"__type__": "update"}, {"__type__": "update"}],
    ]
    pending = [json.loads(json.dumps(value)) for value in chunks[0]]
    shown = []
    for previous, chunk in pairwise(chunks):
        shown.append(apply_in_place(pending, [utils.diff(old, new) for old, new in zip(previous, chunk)]))
    assert shown[0][1] == chunks[1][1], f"the banner the page was handed became {shown[0][1]}"
    assert shown[0][0] == ["hi", "reply"] and shown[1] == chunks[2]
