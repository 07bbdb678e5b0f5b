"""Drives the running app through Gradio's queue, as a browser does: join an event, read the
session's event stream, and time the first visible token and the end of a chat reply.

Used by the UI benchmarks (`ui_latency`, `long_session`); the app is built in-process with the
demo gateway, like the browser tests.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import httpx
from gradio_client.utils import apply_diff

from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.server import RunningGateway, free_port, start_in_thread
from playground.settings import Settings
from playground.ui.app import build_app, configure_queue, launch_options
from playground.ui.shared.connection import ServerDefaults

KEY = "bench-key"
CHAT_FORM = ["gx-2.5-flash", "", True, 0.7, 1.0, 0, "auto", "", "", "", "", True]


@dataclass
class Reply:
    ttft: float | None
    total: float
    text: str
    messages: int
    join: float | None = None  # seconds the queue-join request took
    outputs: list[Any] | None = None  # every output's value on the page at the end
    closing: list[Any] | None = None  # the data of the event's closing message, as sent


@dataclass
class RunningApp:
    url: str
    gateway: RunningGateway
    blocks: Any
    send_index: int
    inputs: int

    def stop(self) -> None:
        self.blocks.close()
        self.gateway.stop()


@dataclass(frozen=True)
class ChatEvents:
    """A text tab's events as the page calls them: `send` (the input's submit: checks, shows the
    message and streams the reply, one queued event) and `stop` (outside the queue, cheap)."""

    send: int
    stop: int


def find_event(config: dict[str, Any], elem_id: str, trigger: str) -> int:
    """The id of the event `trigger` of the component with `elem_id`, from the app's /config."""
    component = next(c["id"] for c in config["components"] if c.get("props", {}).get("elem_id") == elem_id)
    return next(d["id"] for d in config["dependencies"] if [component, trigger] in [list(t) for t in d.get("targets", [])])


def chat_events(config: dict[str, Any], prefix: str = "chat") -> ChatEvents:
    return ChatEvents(find_event(config, f"{prefix}-input", "submit"), find_event(config, f"{prefix}-stop", "click"))


async def page_events(http: httpx.AsyncClient, url: str, prefix: str = "chat") -> tuple[dict[str, Any], ChatEvents]:
    """The page config as the browser reads it, and the text tab's events in it."""
    config = (await http.get(f"{url}/config")).json()
    return config, chat_events(config, prefix)


async def open_session(http: httpx.AsyncClient, url: str, events: ChatEvents) -> str:
    """A session as a page load makes it (Gradio builds its per-session state at its first event:
    here a Stop with nothing running, which changes nothing)."""
    session_hash = uuid.uuid4().hex[:12]
    await run_direct(http, url, events.stop, [None], session_hash)
    return session_hash


def start_app(token_delay: float = 0.03) -> RunningApp:
    gateway = start_in_thread(DemoConfig(api_key=KEY, token_delay=token_delay))
    blocks = configure_queue(build_app(Settings(), ServerDefaults(gateway.url, KEY, demo=True)))
    port = free_port()
    blocks.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, quiet=True, **launch_options())
    index, inputs = next((i, len(fn.inputs)) for i, fn in blocks.fns.items()
                         if getattr(fn.fn, "__name__", "") == "send" and getattr(fn.inputs[0], "elem_id", "") == "chat-input")
    return RunningApp(f"http://127.0.0.1:{port}", gateway, blocks, index, inputs)




def shows_reply(chatbot: Any) -> bool:
    """Whether a chatbot value holds an assistant message with some text."""
    return isinstance(chatbot, list) and any(
        isinstance(m, dict) and m.get("role") == "assistant" and "text" in json.dumps(m.get("content")) and m.get("content")
        for m in chatbot)


def shown_value(old: Any, new: Any) -> Any:
    """An output's value on the page after an update: an update dict changes only what it carries
    (a skip, `{"__type__": "update"}`, changes nothing)."""
    if isinstance(new, dict) and new.get("__type__") == "update":
        return new.get("value", old)
    return new


async def chat_once(http: httpx.AsyncClient, app: RunningApp, text: str, session_hash: str | None = None) -> Reply:
    """Send one chat message as the browser does; time the first update that shows reply text."""
    return await chat_chain(http, app.url, app.send_index, text, session_hash or uuid.uuid4().hex[:12])


async def chat_chain(http: httpx.AsyncClient, url: str, send: int, text: str, session_hash: str) -> Reply:
    """A send as the browser makes it: one queued event that shows the message and streams the
    reply (the chat so far is the server's: the page does not upload it)."""
    no_variables = {"headers": ["variable", "value"], "data": [], "metadata": None}
    tail = [*CHAT_FORM, no_variables, "", ""]  # the form, the Variables table, base URL and key
    return await stream_event(http, url, send, [{"text": text, "files": []}, None, *tail], session_hash)


async def run_direct(http: httpx.AsyncClient, url: str, fn_index: int, data: list[Any], session_hash: str) -> list[Any]:
    """An event that skips the queue (`queue=False`), as the browser calls it."""
    answer = await http.post(f"{url}/gradio_api/run/predict", json={"data": data, "fn_index": fn_index, "session_hash": session_hash,
                                                                    "event_data": None, "trigger_id": None})
    answer.raise_for_status()
    return answer.json()["data"]


async def join_queue(http: httpx.AsyncClient, url: str, fn_index: int, data: list[Any], session_hash: str) -> str:
    """Join the queue with `data`, as the page does; the event's id."""
    joined = await http.post(f"{url}/gradio_api/queue/join",
                             json={"data": data, "fn_index": fn_index, "session_hash": session_hash, "event_data": None, "trigger_id": None})
    joined.raise_for_status()
    return str(joined.json()["event_id"])


async def event_outputs(http: httpx.AsyncClient, url: str, event_id: str, session_hash: str) -> AsyncIterator[tuple[str, list[Any]]]:
    """The event's output messages from the session's stream, until it ends: ("process_generating"
    or "process_completed", the message's data per output)."""
    async with http.stream("GET", f"{url}/gradio_api/queue/data", params={"session_hash": session_hash}) as stream:
        async for line in stream.aiter_lines():
            if not line.startswith("data:"):
                continue
            message = json.loads(line[5:])
            if message.get("event_id") not in (None, event_id):
                continue
            kind = message.get("msg")
            if kind in ("process_generating", "process_completed"):
                yield kind, (message.get("output") or {}).get("data") or []
            if kind in ("process_completed", "close_stream"):
                return


async def stream_event(http: httpx.AsyncClient, url: str, fn_index: int, data: list[Any], session_hash: str) -> Reply:
    """Join the queue with `data` and follow the event to its end; the first output is the chatbot."""
    start = time.perf_counter()
    event_id = await join_queue(http, url, fn_index, data, session_hash)
    join = time.perf_counter() - start
    ttft: float | None = None
    seen = 0
    chunks: list[Any] | None = None  # the event's last chunk per output, as its diffs apply to
    values: list[Any] | None = None  # what the page shows per output
    closing: list[Any] | None = None
    async for kind, output in event_outputs(http, url, event_id, session_hash):
        seen += 1
        if kind == "process_completed":
            closing = list(output)
        if chunks is None or kind == "process_completed":
            chunks = list(output)
        else:  # streamed updates after the first carry diffs of each output
            chunks = [apply_diff(old, diff) for old, diff in zip(chunks, output)]
        values = [shown_value(old, new) for old, new in zip(values or [None] * len(chunks), chunks)]
        if ttft is None and values and shows_reply(values[0]):
            ttft = time.perf_counter() - start
    return Reply(ttft, time.perf_counter() - start, json.dumps(values[0] if values else None, ensure_ascii=False), seen, join, values, closing)
