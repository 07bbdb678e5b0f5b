"""Visitors who leave are forgotten (issue 41): a page whose heartbeat closed has its session state
released after the (here shortened) window; a live page, a page whose heartbeat reconnected, a page
still sending events after its heartbeat broke (Gradio 6.31's page does not reopen it) and a job
still running keep theirs. Driven over real sockets as the page does: heartbeat, queue/join,
queue/data."""

from __future__ import annotations

import asyncio
import json
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

import gradio as gr
import httpx
from starlette.middleware import Middleware

from playground import gradio_compat
from playground.demo_gateway.server import free_port
from playground.settings import Settings
from playground.ui.web.visitors import PageGuard, VisitorRules

WINDOW_S = 0.5
finish_job = threading.Event()
deleted: list[Any] = []


def remember(text: str, kept: list[str] | None) -> list[str]:
    return [*(kept or []), text]


async def long_job(text: str) -> str:
    while not finish_job.is_set():
        await asyncio.sleep(0.05)
    return text


async def heartbeat(http: httpx.AsyncClient, url: str, session: str, opened: asyncio.Event) -> None:
    async with http.stream("GET", f"{url}/gradio_api/heartbeat/{session}") as stream:
        async for _ in stream.aiter_bytes():
            opened.set()


async def open_page(http: httpx.AsyncClient, url: str, session: str) -> asyncio.Task[None]:
    opened = asyncio.Event()
    task = asyncio.create_task(heartbeat(http, url, session, opened))
    await asyncio.wait_for(opened.wait(), 30)
    return task


async def close_page(task: asyncio.Task[None]) -> None:
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)


async def join(http: httpx.AsyncClient, url: str, fn_index: int, data: list[Any], session: str) -> str:
    answer = await http.post(f"{url}/gradio_api/queue/join",
                             json={"data": data, "fn_index": fn_index, "session_hash": session, "event_data": None, "trigger_id": None})
    answer.raise_for_status()
    return str(answer.json()["event_id"])


async def completed(http: httpx.AsyncClient, url: str, session: str) -> dict[str, Any]:
    async with http.stream("GET", f"{url}/gradio_api/queue/data", params={"session_hash": session}) as stream:
        async for line in stream.aiter_lines():
            if line.startswith("data:") and (message := json.loads(line[5:])).get("msg") == "process_completed":
                return dict(message)
    raise AssertionError("the event did not complete")


async def until(condition: Callable[[], bool], timeout: float = 30.0) -> None:
    """Wait for `condition` (a deadline for a broken release, not a timing assertion)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the condition did not come true"
        await asyncio.sleep(0.05)


async def test_a_closed_page_is_released_and_live_reconnected_and_working_pages_are_kept() -> None:
    gradio_compat.apply()
    with gr.Blocks() as blocks:
        text = gr.Textbox()
        kept = gr.State([], delete_callback=deleted.append)
        shown = gr.Textbox()
        text.submit(remember, [text, kept], kept)
        text.change(long_job, text, shown)
    rules = VisitorRules.from_settings(Settings(session_release_s=WINDOW_S), release_every_s=0.1)
    port = free_port()
    blocks.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, quiet=True,
                  app_kwargs={"middleware": [Middleware(PageGuard, rules=rules)], "lifespan": rules.lifespan})
    url, (remember_fn, job_fn) = f"http://127.0.0.1:{port}", list(blocks.fns)
    holder = blocks.state_holder
    closed, live, blip, working, busy = (uuid.uuid4().hex[:12] for _ in range(5))
    try:
        async with httpx.AsyncClient(timeout=60) as http:

            async def in_use() -> None:
                while True:
                    await join(http, url, remember_fn, ["still here", None], busy)
                    await completed(http, url, busy)
                    await asyncio.sleep(0.05)

            pages = {session: await open_page(http, url, session) for session in (closed, live, blip, working, busy)}
            for session in pages:
                await join(http, url, remember_fn, [f"hello {session}", None], session)
                await completed(http, url, session)
            assert all(session in holder.session_data for session in pages)
            await join(http, url, job_fn, ["a long job"], working)
            await until(lambda: any(working in (event.session_hash for event in job or ()) for job in blocks._queue.active_jobs))

            for session in (closed, blip, working, busy):
                await close_page(pages[session])
            pages[blip] = await open_page(http, url, blip)  # the blip's page reconnects at once
            using = asyncio.create_task(in_use())  # the busy page lost its heartbeat and goes on
            await until(lambda: closed not in holder.session_data)
            assert [f"hello {closed}"] in deleted, "the closed page's gr.State went through its delete callback"
            back = await http.post(f"{url}/gradio_api/queue/join", json={"data": ["back again", None], "fn_index": remember_fn,
                                                                         "session_hash": closed, "event_data": None, "trigger_id": None})
            assert back.status_code == 409 and "Reload the page" in back.text, "a released page is told to reload, not run on empty state"
            assert rules.release is not None
            passes = rules.release.passes
            await until(lambda: rules.release is not None and rules.release.passes >= passes + 2)  # the blip's window has passed too
            assert live in holder.session_data and blip in holder.session_data
            assert holder.session_data[blip].state_data, "a reconnected page keeps its conversation"
            assert working in holder.session_data, "a running job keeps its session"
            assert holder.session_data[busy].state_data[kept._id][0] == f"hello {busy}", "a page in use keeps its state"
            using.cancel()
            await asyncio.gather(using, return_exceptions=True)
            await until(lambda: busy not in holder.session_data)  # once unused for the window, it goes too

            finish_job.set()
            await until(lambda: working not in holder.session_data)
            assert live in holder.session_data and blip in holder.session_data
            for task in pages.values():
                await close_page(task)
    finally:
        finish_job.set()
        blocks.close()
