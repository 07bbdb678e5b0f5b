"""What an event costs Gradio's queue (issue 25): a send is one event, a data-only component's
processing takes no thread round trip, and the queue runs every admitted reply at once (Gradio's
default ran 40)."""

from __future__ import annotations

import asyncio
import json

import anyio
import gradio as gr
import httpx
import numpy as np
import pytest
from gradio.state_holder import SessionState

from bench.app_queue import chat_chain, open_session, page_events, start_app
from playground.ui.chatbot import Chatbot
from playground.ui.gradio_fixes import process_data_inline


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


async def test_more_replies_than_gradios_default_stream_at_once() -> None:
    """45 replies of about three seconds each, sent together: every one shows its first token
    before any of them ends (with Gradio's 40 the last five waited for the first to finish)."""
    app = start_app(token_delay=0.3)
    try:
        async with httpx.AsyncClient(timeout=120, limits=httpx.Limits(max_connections=200)) as http:
            events = (await page_events(http, app.url))[1]
            sessions = [await open_session(http, app.url, events) for _ in range(45)]
            replies = await asyncio.gather(*(chat_chain(http, app.url, events.send, f"Please repeat {session}", session) for session in sessions))
    finally:
        app.stop()
    assert all(reply.ttft is not None for reply in replies)
    first_end = min(reply.total for reply in replies)
    late = [reply.ttft for reply in replies if reply.ttft > first_end]  # type: ignore[operator]
    assert not late, f"{len(late)} replies began only after the first of them had ended ({first_end:.1f} s)"


async def test_a_send_is_one_event_that_ends_with_the_metrics_and_the_inspector() -> None:
    app = start_app(token_delay=0.0)
    try:
        async with httpx.AsyncClient(timeout=60) as http:
            config, events = await page_events(http, app.url)
            reply = await chat_chain(http, app.url, events.send, "Please repeat tokone", await open_session(http, app.url, events))
    finally:
        app.stop()
    send = next(d for d in config["dependencies"] if d["id"] == events.send)
    assert not [d for d in config["dependencies"] if d.get("trigger_after") == events.send], "a send starts follow-up events"
    shown = {c["id"]: c.get("props", {}).get("elem_id") for c in config["components"]}
    final = dict(zip((shown[i] for i in send["outputs"]), reply.outputs or []))
    assert "tokone" in json.dumps(final["chat-chatbot"])
    assert "tok" in json.dumps(final["chat-metrics"]), f"no metrics in the send's last update: {final['chat-metrics']!r}"
    assert "tokone" in json.dumps([value for elem_id, value in final.items() if elem_id and elem_id.startswith("chat-inspector")]), \
        "the inspector did not get the request"


TEXT_TABS = ("chat", "responses", "messages", "native")


def test_no_action_of_a_text_tab_uploads_its_chat() -> None:
    """Send, tool result, retry, edit, Stop and the branch controls read the chat the server drew
    (`Session.shown`): the page's copy of the whole history is not an input of any of them."""
    from bench.app_queue import find_event
    from playground.settings import Settings
    from playground.ui.app import build_app
    from playground.ui.connection import ServerDefaults

    config = build_app(Settings(), ServerDefaults("http://127.0.0.1:9", "k", demo=True)).get_config_file()
    ids = {c.get("props", {}).get("elem_id"): c["id"] for c in config["components"]}
    for prefix in TEXT_TABS:
        actions = [(f"{prefix}-input", "submit"), (f"{prefix}-tool-send", "click"), (f"{prefix}-retry", "click"),
                   (f"{prefix}-chatbot", "edit"), (f"{prefix}-stop", "click"), (f"{prefix}-branch", "click"), (f"{prefix}-branches", "input")]
        for elem_id, trigger in actions:
            event = next(d for d in config["dependencies"] if d["id"] == find_event(config, elem_id, trigger))
            assert ids[f"{prefix}-chatbot"] not in event["inputs"], f"{elem_id} {trigger} uploads the whole chat"


async def test_a_send_ends_without_sending_the_whole_chat_again() -> None:
    """Gradio's closing message of a streaming event repeats every output's last value: for a send
    that was the whole chat once more per turn. It now carries skips; the page keeps what the last
    update showed (the chat, with the reply)."""
    app = start_app(token_delay=0.0)
    try:
        async with httpx.AsyncClient(timeout=60) as http:
            events = (await page_events(http, app.url))[1]
            session = await open_session(http, app.url, events)
            for turn in range(20):
                reply = await chat_chain(http, app.url, events.send, f"Please repeat turn{turn}x", session)
    finally:
        app.stop()
    chat = json.loads(reply.text)
    assert len(chat) == 40 and "turn19x" in json.dumps(chat[-1]) and "turn0x" in json.dumps(chat[0])
    assert reply.closing is not None and all(value == {"__type__": "update"} for value in reply.closing), \
        f"the closing message carries {len(json.dumps(reply.closing))} bytes"


def test_an_output_message_is_written_as_before_without_copying_its_values() -> None:
    """The queue's stream writes `orjson.dumps(message.model_dump(), default=str)`: the same bytes,
    but the values (the whole chat in a send's first update) are no longer copied first."""
    import orjson
    from gradio.server_messages import ProcessCompletedMessage, ProcessGeneratingMessage

    from playground.ui.gradio_fixes import output_messages_without_copies

    chat = [{"role": "user", "content": [{"type": "text", "text": "héllo"}], "metadata": None, "options": []}]
    output = {"data": [chat, {"__type__": "update", "visible": False}, 1.25, None, True, (1, 2), "text"], "is_generating": True}
    messages = [ProcessGeneratingMessage(event_id="e1", output=output, success=True),
                ProcessCompletedMessage(event_id="e1", output=output, success=False, title="t", avg_time=0.5)]
    written = [orjson.dumps(message.model_dump(), default=str) for message in messages]
    output_messages_without_copies()
    assert [orjson.dumps(message.model_dump(), default=str) for message in messages] == written
    assert all(message.model_dump()["output"]["data"][0] is chat for message in messages), "the values were copied"
    assert messages[0].model_dump(exclude={"output"}) == {"msg": messages[0].msg, "event_id": "e1", "success": True, "time_limit": None}


def apply_as_the_page_does(pending: list, diffs: list) -> list:
    """Gradio's page client (6.31, `Tt`/`Dt`): each output's edits are applied in place to the
    object it handed on with the previous update; an edit of the whole value replaces it."""
    delivered = []
    for index, edits in enumerate(diffs):
        value = pending[index]
        for action, path, new in edits:
            if not path:
                value = new if action == "replace" else value + new
                continue
            parent = value
            for key in path[:-1]:
                parent = parent[key]
            if action in ("replace", "add") and not isinstance(parent, list):
                parent[path[-1]] = new
            elif action == "add":
                parent.insert(path[-1], new)
            elif action == "append":
                parent[path[-1]] += new
            elif action == "delete":
                del parent[path[-1]]
        pending[index] = value
        delivered.append(value)
    return delivered


def test_an_update_the_page_has_not_shown_yet_is_not_emptied_by_the_next() -> None:
    """The last update of a send shows the error banner and is followed at once by one of skips;
    the page applies the second update's diffs to the objects it handed on with the first, so
    edits of an update value emptied the banner before it was shown (a hosted visitor's refused
    base URL showed no error). An update value now changes only as a whole."""
    from gradio import utils

    from playground.ui.gradio_fixes import updates_sent_whole

    updates_sent_whole()
    chunks = [
        [["hi"], {"__type__": "update", "visible": False, "value": ""}, "waiting"],
        [["hi", "reply"], {"__type__": "update", "visible": True, "value": "**This address is not allowed here**"}, "done"],
        [{"__type__": "update"}, {"__type__": "update"}, {"__type__": "update"}],
    ]
    pending = [json.loads(json.dumps(value)) for value in chunks[0]]
    shown = []
    for previous, chunk in zip(chunks, chunks[1:]):
        shown.append(apply_as_the_page_does(pending, [utils.diff(old, new) for old, new in zip(previous, chunk)]))
    assert shown[0][1] == chunks[1][1], f"the banner the page was handed became {shown[0][1]}"
    assert shown[0][0] == ["hi", "reply"] and shown[1] == chunks[2]
