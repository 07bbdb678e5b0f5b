"""A visitor as a browser makes one: load the page (its HTML, which carries the config), open the heartbeat with
the first event, run the page's load events (and the `.then` events that follow them) through the
queue or the direct route as each is configured, send chat messages, and close the page (the
heartbeat and the event streams end).

A first visit's browser has nothing stored, so each load event's inputs are the components' values
in the config (`gr.State` and `gr.BrowserState` empty); an event's client-side `js` is not run.
"""

from __future__ import annotations

import asyncio
import uuid
from dataclasses import dataclass, field
from typing import Any

import httpx

from bench.app_queue import ChatEvents, chat_chain, run_direct, stream_event


@dataclass(frozen=True)
class PageEvents:
    """What a page load runs, read from the app's config."""

    loads: tuple[dict[str, Any], ...]
    then: dict[int, tuple[dict[str, Any], ...]]
    """The events that follow each event (`trigger_after`), with their own followers in turn."""
    defaults: dict[int, Any]

    @classmethod
    def of(cls, config: dict[str, Any]) -> PageEvents:
        dependencies = config["dependencies"]
        loads = tuple(d for d in dependencies if d.get("backend_fn") and any(t[1] == "load" for t in d.get("targets", [])))
        then: dict[int, list[dict[str, Any]]] = {}
        for dependency in dependencies:
            if dependency.get("trigger_after") is not None and dependency.get("backend_fn"):
                then.setdefault(dependency["trigger_after"], []).append(dependency)
        defaults = {c["id"]: None if c.get("type") in ("state", "browserstate") else c.get("props", {}).get("value")
                    for c in config["components"]}
        return cls(loads, {key: tuple(value) for key, value in then.items()}, defaults)

    def inputs(self, dependency: dict[str, Any]) -> list[Any]:
        return [self.defaults.get(component) for component in dependency["inputs"]]


@dataclass
class Visit:
    """One open page: its session hash, its heartbeat, and what its load events did."""

    session: str
    heartbeat: asyncio.Task[None]
    failed: list[str] = field(default_factory=list)
    queued: asyncio.Lock = field(default_factory=asyncio.Lock)
    """One queued event at a time: the page reads all of a session's events from one stream, and two
    streams of one session would share (and lose) each other's messages."""

    async def close(self) -> None:
        """Close the page: its heartbeat ends (its event streams ended with their events)."""
        self.heartbeat.cancel()
        await asyncio.gather(self.heartbeat, return_exceptions=True)


async def _heartbeat(http: httpx.AsyncClient, url: str, session: str) -> None:
    async with http.stream("GET", f"{url}/gradio_api/heartbeat/{session}") as stream:
        async for _ in stream.aiter_raw():
            pass


async def _drain(http: httpx.AsyncClient, url: str) -> None:
    async with http.stream("GET", url) as answer:
        answer.raise_for_status()
        async for _ in answer.aiter_raw():  # as sent (compressed): the browser's bytes, not parsed here
            pass


async def _run(http: httpx.AsyncClient, url: str, page: PageEvents, dependency: dict[str, Any], visit: Visit) -> None:
    """One event as the page triggers it, then the events that follow it."""
    try:
        if dependency.get("queue"):
            async with visit.queued:
                reply = await stream_event(http, url, dependency["id"], page.inputs(dependency), visit.session)
            ok = reply.messages > 0
        else:
            await run_direct(http, url, dependency["id"], page.inputs(dependency), visit.session)
            ok = True
    except httpx.HTTPStatusError as error:
        visit.failed.append(f"{dependency['id']}: HTTP {error.response.status_code}")
        ok = False
    followers = [d for d in page.then.get(dependency["id"], ()) if ok or not d.get("trigger_only_on_success")]
    await asyncio.gather(*(_run(http, url, page, follower, visit) for follower in followers))


async def load_page(http: httpx.AsyncClient, url: str, page: PageEvents, visit: Visit) -> None:
    """GET the page (its config is in it), then its load events beside `visit`'s heartbeat."""
    await _drain(http, f"{url}/")
    await asyncio.gather(*(_run(http, url, page, dependency, visit) for dependency in page.loads))


async def visit_once(http: httpx.AsyncClient, url: str, page: PageEvents, chat: ChatEvents, messages: int = 1) -> Visit:
    """Load the page, send `messages` chat messages, close the page. A connection the server drops is
    noted in `failed` (the page would show it), not raised."""
    session = uuid.uuid4().hex[:12]
    visit = Visit(session, asyncio.create_task(_heartbeat(http, url, session)))
    try:
        await load_page(http, url, page, visit)
        for turn in range(messages):
            reply = await chat_chain(http, url, chat.send, f"visitor message {turn}", visit.session)
            if reply.ttft is None:
                visit.failed.append("the chat message got no reply")
    except httpx.TransportError as error:
        visit.failed.append(f"{type(error).__name__} (the server dropped a connection)")
    finally:
        await visit.close()
    if visit.heartbeat.done() and not visit.heartbeat.cancelled() and visit.heartbeat.exception() is not None:
        visit.failed.append(f"heartbeat: {type(visit.heartbeat.exception()).__name__}")
    return visit
