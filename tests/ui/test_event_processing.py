"""What an event costs Gradio's queue (issue 25): a send is one event, and the queue runs every
admitted reply at once (Gradio's default ran 40). The patches' share: tests/gradio_compat/."""

from __future__ import annotations

import asyncio
import json

import httpx

from bench.app_queue import chat_chain, open_session, page_events, start_app


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
    following = [d for d in config["dependencies"] if d.get("trigger_after") == events.send]
    by_id = {c["id"]: c for c in config["components"]}
    assert [(d["queue"], [by_id[i]["type"] for i in d["inputs"]]) for d in following] == [(False, ["state"])], \
        "a send starts one follow-up, keeping the conversation in the browser: queue-free, reading only the session"
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
    from playground.ui.shared.connection import ServerDefaults

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
                reply = await chat_chain(http, app.url, events.send, f"What is {turn} + 1000?", session)
    finally:
        app.stop()
    chat = json.loads(reply.text)
    assert len(chat) == 40 and "19 + 1000 = 1,019" in json.dumps(chat[-1]) and "What is 0 + 1000?" in json.dumps(chat[0])
    assert reply.closing is not None and all(value == {"__type__": "update"} for value in reply.closing), \
        f"the closing message carries {len(json.dumps(reply.closing))} bytes"
