"""A long session does not grow Gradio's per-session state by more than its own history
(issue 25: 260 KB a turn, from components registered again under fresh ids on every event)."""

from __future__ import annotations

import json
import tracemalloc
import uuid

import gradio as gr
import httpx
from gradio.state_holder import SessionState

from bench.app_queue import chat_chain, open_session, page_events, run_direct, start_app
from playground.demo_gateway.server import free_port
from playground import gradio_compat
from playground.settings import Settings
from playground.ui.app import build_app
from playground.ui.shared.connection import ServerDefaults


def session_entries(blocks: gr.Blocks, session: str) -> tuple[int, int]:
    """(components the session holds, config copies it holds)."""
    state = blocks.state_holder[session]
    return len(state.blocks_config.blocks), len(state.config_values)


async def test_a_component_updated_then_read_keeps_one_entry_in_the_session() -> None:
    gradio_compat.apply()
    with gr.Blocks() as blocks:
        box = gr.Textbox(elem_id="box")
        echo = gr.Textbox()
        gr.Button(elem_id="update").click(lambda: gr.update(placeholder="typing…"), None, box, queue=False)
        gr.Button(elem_id="read").click(lambda text: text, box, echo, queue=False)
    port = free_port()
    blocks.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, quiet=True)
    try:
        update, read = (index for index, fn in blocks.fns.items() if fn.inputs is not None)
        session = uuid.uuid4().hex[:12]
        counts = []
        async with httpx.AsyncClient(timeout=30) as http:
            for _ in range(5):
                await run_direct(http, f"http://127.0.0.1:{port}", update, [], session)
                await run_direct(http, f"http://127.0.0.1:{port}", read, ["hello"], session)
                counts.append(session_entries(blocks, session))
        assert counts == [counts[0]] * 5
        assert counts[0][1] == 0, "the session keeps config copies only deep links would use"
    finally:
        blocks.close()


async def test_chat_turns_grow_the_session_by_about_their_history() -> None:
    app = start_app(token_delay=0.0)
    try:
        async with httpx.AsyncClient(timeout=60) as http:
            events = (await page_events(http, app.url))[1]
            session = await open_session(http, app.url, events)
            history: list = []
            entries = []
            for turn in range(12):
                reply = await chat_chain(http, app.url, events.send, f"turn {turn}", session)
                history = json.loads(reply.text)
                entries.append(session_entries(app.blocks, session))
        assert "turn 11" in json.dumps(history), "the last turn is not in the chat"
        assert entries[-1] == entries[1], f"session entries grew: {entries}"
        assert entries[-1][1] == 0, "the session keeps config copies (with the whole history) only deep links would use"
    finally:
        app.stop()


def test_a_new_session_holds_no_copies_of_the_page_config() -> None:
    blocks = build_app(Settings(), ServerDefaults("http://127.0.0.1:9", "k", demo=True))
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        sessions = [SessionState(blocks) for _ in range(10)]
        per_session = (tracemalloc.get_traced_memory()[0] - before) / len(sessions)
    finally:
        tracemalloc.stop()
    assert per_session < 200_000, f"a new session costs {per_session / 1000:.0f} KB"
    assert all(not session.config_values for session in sessions)
