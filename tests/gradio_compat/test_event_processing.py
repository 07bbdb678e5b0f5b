"""What Gradio's queue costs per event and per streamed update, with the patches (issue 25): a
data-only component's processing takes no thread round trip, output messages are written without a
copy, and an update value is streamed whole."""

from __future__ import annotations

from itertools import pairwise

import json
from typing import Any

import anyio
import gradio as gr
import numpy as np
import pytest
from gradio.state_holder import SessionState

from playground.gradio_compat.chatbot import Chatbot
from playground.gradio_compat.updates import SMALL_TABLE_ROWS, output_messages_without_copies, process_data_inline, updates_sent_whole
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
        inputs = [gr.Textbox(), gr.Slider(0, 2), gr.Checkbox(), gr.Dropdown(["a", "b"]), gr.MultimodalTextbox(), Chatbot(),
                  gr.BrowserState(["stored"]), gr.Dataframe(headers=["name", "value"])]
        outputs = [Chatbot(), gr.Markdown(), gr.Textbox(), gr.State()]
        gr.Button().click(lambda *values: None, inputs, outputs)
    event = next(iter(blocks.fns.values()))
    session = SessionState(blocks)
    history = [{"role": "user", "content": [{"type": "text", "text": "hi"}]}]
    table = {"headers": ["name", "value"], "data": [["city", "Paris"]] * SMALL_TABLE_ROWS}
    values = await blocks.preprocess_data(event, ["typed", 0.7, True, "b", {"text": "draft", "files": []}, history, None, table], session)
    assert values[:5] == ["typed", 0.7, True, "b", {"text": "draft", "files": []}]
    assert values[5][0]["content"] == [{"text": "hi", "type": "text"}]
    assert values[6] == ["stored"], "a browser state reads its default when the page sends none"
    assert values[7].shape == (SMALL_TABLE_ROWS, 2) and list(values[7].columns) == ["name", "value"]
    shown = await blocks.postprocess_data(event, [[{"role": "assistant", "content": "hello"}], "**note**", "done", {"new": 2}], session)
    assert shown[0][0]["content"] == [{"type": "text", "text": "hello"}] and shown[1:3] == ["**note**", "done"]
    assert thread_hops == []


async def test_a_streaming_handler_is_started_without_a_thread_and_a_plain_one_still_takes_one(thread_hops: list[str]) -> None:
    process_data_inline()

    async def stream(text: str) -> Any:
        yield text + "!"

    def plain(text: str) -> str:
        return text.upper()

    with gr.Blocks() as blocks:
        box = gr.Textbox()
        box.submit(stream, box, box)
        box.change(plain, box, box)
    streaming, sync = blocks.fns.values()
    assert (await blocks.call_function(streaming, ["hi"], state=SessionState(blocks)))["prediction"] == "hi!"
    assert (await blocks.call_function(sync, ["hi"], state=SessionState(blocks)))["prediction"] == "HI"
    assert [hop.rpartition(".")[2] for hop in thread_hops] == ["plain"]


async def test_an_image_and_a_large_table_are_still_processed_in_a_thread(thread_hops: list[str]) -> None:
    process_data_inline()
    with gr.Blocks() as blocks:
        gr.Button().click(lambda: None, None, gr.Image())
        gr.Button().click(lambda table: None, gr.Dataframe(headers=["n"]), None)
    image, table = blocks.fns.values()
    shown = await blocks.postprocess_data(image, np.zeros((4, 4, 3), dtype=np.uint8), SessionState(blocks))
    assert shown[0]["path"]
    [read] = await blocks.preprocess_data(table, [{"headers": ["n"], "data": [[row] for row in range(SMALL_TABLE_ROWS + 1)]}], SessionState(blocks))
    assert len(read) == SMALL_TABLE_ROWS + 1
    assert thread_hops == ["Image.postprocess", "Dataframe.preprocess"]


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
