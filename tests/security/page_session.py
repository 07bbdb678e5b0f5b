"""The real app launched in hosted mode, and a script that drives Gradio's event protocol the way
the page does (heartbeat, queue/join, queue/data) or the way an attacker would (no heartbeat,
no session, direct posts)."""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.server import free_port, start_in_thread
from playground.settings import Settings
from playground.ui.app import build_app, configure_queue, launch_options
from playground.ui.shared.connection import ServerDefaults, SessionQuotas
from playground.ui.web.visitor_identity import TrustedProxies
from playground.ui.web.visitors import PageSessions, VisitorRules

LOOPBACK_PROXY = tuple(TrustedProxies.of("127.0.0.1", "::1").networks)
"""Trust X-Forwarded-For from loopback: how these tests play visitors at other addresses behind a proxy."""

SERVER_KEY = "sk-hosted-secret-5550123"


@dataclass
class LaunchedApp:
    url: str
    blocks: Any
    config: dict[str, Any]
    hosted: bool = False
    rules: VisitorRules | None = None
    """What the page guard knows (its page sessions, the visitors' files)."""

    def dependency(self, api_name: str) -> tuple[int, dict[str, Any]]:
        for index, fn in self.blocks.fns.items():
            if fn.api_name == api_name:
                return index, next(d for d in self.config["dependencies"] if d["id"] == index)
        raise KeyError(api_name)

    def inputs(self, api_name: str, **by_elem_id: Any) -> tuple[int, list[Any]]:
        """fn_index and the data the page would send: each input's current (default) value."""
        index, dependency = self.dependency(api_name)
        components = {c["id"]: c for c in self.config["components"]}
        data = []
        for component_id in dependency["inputs"]:
            component = components[component_id]
            props = component.get("props", {})
            value = props.get("value")
            if value is None and component.get("type") in ("textbox", "code", "dropdown"):
                value = ""  # what the page sends for an empty box
            data.append(by_elem_id.get(props.get("elem_id") or "", value))
        return index, data


@contextmanager
def launched(hosted: bool, requests_per_minute: int = 0, page_grace_s: float | None = None, sweep_every_s: float | None = None,
             **settings_values: Any) -> Iterator[LaunchedApp]:
    """The app on a free port; `settings_values` are further `Settings` fields (`trusted_proxies`,
    `uploads_per_minute`, ...); a page session's grace after its heartbeat closed and the media
    sweep's interval can be made short."""
    gateway = start_in_thread(DemoConfig(api_key=SERVER_KEY, token_delay=0.0))
    settings = Settings(hosted=hosted, requests_per_minute=requests_per_minute, read_timeout=10, **settings_values)
    defaults = ServerDefaults(gateway.url, SERVER_KEY, demo=True, hosted=hosted, quotas=SessionQuotas(requests_per_minute, 0))
    blocks = configure_queue(build_app(settings, defaults))
    port = free_port()
    sessions = PageSessions() if page_grace_s is None else PageSessions(grace_s=page_grace_s)
    rules = VisitorRules.from_settings(settings, sessions, sweep_every_s)
    options = launch_options(settings, rules)
    blocks.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, quiet=True, **options)
    url = f"http://127.0.0.1:{port}"
    try:
        yield LaunchedApp(url, blocks, httpx.get(f"{url}/config").json(), hosted, rules)
    finally:
        blocks.close()
        gateway.stop()


@asynccontextmanager
async def page_session(http: httpx.AsyncClient, app: LaunchedApp, headers: dict[str, str] | None = None) -> AsyncIterator[str]:
    """A session whose 'page' holds its heartbeat open, as Gradio's page does."""
    session = secrets.token_hex(6)
    ready = asyncio.Event()

    async def heartbeat() -> None:
        async with http.stream("GET", f"{app.url}/gradio_api/heartbeat/{session}", headers=headers) as response:
            ready.set()
            async for _ in response.aiter_bytes():
                pass

    task = asyncio.create_task(heartbeat())
    await asyncio.wait_for(ready.wait(), 10)
    try:
        yield session
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


async def run_event(http: httpx.AsyncClient, app: LaunchedApp, session: str | None, fn_index: int, data: list[Any],
                    headers: dict[str, str] | None = None) -> tuple[int, Any]:
    """Join the queue and read the event's outcome: (HTTP status of the join, output data or the refusal)."""
    body: dict[str, Any] = {"data": data, "fn_index": fn_index, "event_data": None, "trigger_id": None}
    if session is not None:
        body["session_hash"] = session
    joined = await http.post(f"{app.url}/gradio_api/queue/join", json=body, headers=headers)
    if joined.status_code != 200:
        return joined.status_code, joined.json()
    event_id = joined.json()["event_id"]
    async with http.stream("GET", f"{app.url}/gradio_api/queue/data", params={"session_hash": session}, headers=headers) as stream:
        async for line in stream.aiter_lines():
            if not line.startswith("data:"):
                continue
            message = json.loads(line[5:])
            if message.get("event_id") == event_id and message.get("msg") == "process_completed":
                return 200, (message.get("output") or {}).get("data")
    return 200, None


async def upload(http: httpx.AsyncClient, app: LaunchedApp, name: str, data: bytes, headers: dict[str, str] | None = None) -> httpx.Response:
    """What the page's file input does: a multipart POST to `/gradio_api/upload`, no session in it."""
    return await http.post(f"{app.url}/gradio_api/upload", params={"upload_id": secrets.token_hex(5)},
                           files={"files": (name, data)}, headers=headers)


async def run_direct(http: httpx.AsyncClient, app: LaunchedApp, session: str, fn_index: int, data: list[Any],
                     headers: dict[str, str] | None = None) -> httpx.Response:
    """An event that skips the queue (`queue=False`), as the page posts it."""
    body = {"data": data, "fn_index": fn_index, "session_hash": session, "event_data": None, "trigger_id": None}
    return await http.post(f"{app.url}/gradio_api/run/predict", json=body, headers=headers)


@contextmanager
def private_temp_dir(folder: Path) -> Iterator[Path]:
    """GRADIO_TEMP_DIR set to `folder` while an app is built and runs: its uploads and media files
    (and its sweep) stay there, away from other apps on the machine."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GRADIO_TEMP_DIR", str(folder))
        yield folder


async def after_sweeps(app: LaunchedApp, count: int = 2, within_s: float = 30.0) -> None:
    """Wait until the media sweep has run `count` more times (a closed page's grace is shorter than
    the tests' sweep interval times two); fails after `within_s`."""
    files = app.rules.files if app.rules is not None else None
    assert files is not None
    target = files.sweeps + count
    deadline = time.monotonic() + within_s
    while files.sweeps < target:
        assert time.monotonic() < deadline, f"the media sweep did not run {count} times in {within_s} s"
        await asyncio.sleep(0.05)
