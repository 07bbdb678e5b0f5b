"""Presentation mode's demo pace: the browser's cookies name a pace, and only a call to the built-in
demo gateway asks for it (`x-demo-pace`); a real gateway never receives the header."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import gradio as gr
import pytest
import uvicorn
from gradio.context import LocalContext

from playground.client.gateway import GatewayClient
from playground.client.transport import DEMO_PACE_HEADER
from playground.demo_gateway.app import create_app
from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.server import free_port
from playground.ui.shared.connection import ServerDefaults, resolve_connection
from playground.ui.shared.links import LinkOpener
from playground.ui.shared.presentation import PACE_COOKIE, PACES, PRESENT_COOKIE, PRESENT_PARAMETER, pace_from_cookies
from tests.ui.i18n.test_i18n_catalogue import FakeRequest

KEY = "k-presentation"
SLOW = f"{PRESENT_COOKIE}=1; {PACE_COOKIE}=slow"


class RecordedGateway:
    """A demo gateway on a real socket that keeps the headers of every request it receives."""

    def __init__(self) -> None:
        self.headers: list[dict[str, str]] = []
        inner = create_app(DemoConfig(api_key=KEY))

        async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
            if scope["type"] == "http":
                self.headers.append({name.decode().lower(): value.decode() for name, value in scope["headers"]})
            await inner(scope, receive, send)

        port = free_port()
        self.url = f"http://127.0.0.1:{port}"
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="off"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        while not self.server.started:
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture(scope="module")
def gateways() -> Iterator[tuple[RecordedGateway, RecordedGateway]]:
    """(the built-in demo gateway, a real gateway a visitor typed)."""
    demo, real = RecordedGateway(), RecordedGateway()
    yield demo, real
    demo.stop()
    real.stop()


@contextmanager
def event_with(cookie: str) -> Iterator[None]:
    token = LocalContext.request.set(FakeRequest({"cookie": cookie}))  # type: ignore[arg-type]  # the lookups read only .headers
    try:
        yield
    finally:
        LocalContext.request.reset(token)


def test_only_a_known_pace_in_presentation_mode_is_read_from_the_cookies() -> None:
    assert pace_from_cookies(SLOW) == PACES["slow"]
    assert pace_from_cookies(f"{PRESENT_COOKIE}=1; {PACE_COOKIE}=fast") == 0.0
    assert pace_from_cookies(f"{PRESENT_COOKIE}=1; {PACE_COOKIE}=normal") is None
    assert pace_from_cookies(f"{PRESENT_COOKIE}=0; {PACE_COOKIE}=slow") is None  # the mode is off
    assert pace_from_cookies(f"{PACE_COOKIE}=slow") is None
    for value in ("0.0001", "999", "1e9", "slow%20", '"slow"x', "-1"):
        assert pace_from_cookies(f"{PRESENT_COOKIE}=1; {PACE_COOKIE}={value}") is None, value
    assert pace_from_cookies('=;;"broken') is None
    assert pace_from_cookies(None) is None


async def test_the_demo_gateway_is_asked_the_visitors_pace_and_a_real_gateway_never(
        gateways: tuple[RecordedGateway, RecordedGateway]) -> None:
    demo, real = gateways
    defaults = ServerDefaults(demo.url, KEY, demo=True)
    client = GatewayClient()
    try:
        with event_with(SLOW):
            to_demo = resolve_connection(defaults, "", "")
            to_real = resolve_connection(defaults, real.url, KEY)
        assert to_demo.demo_pace == PACES["slow"] and to_real.demo_pace is None
        _, exchange = await client.list_models(to_demo)
        await client.list_models(to_real)
        assert demo.headers[-1][DEMO_PACE_HEADER] == "0.25"
        assert exchange.request_headers[DEMO_PACE_HEADER] == "0.25"  # the inspector shows what was sent
        assert all(DEMO_PACE_HEADER not in headers for headers in real.headers)

        configured_real = ServerDefaults(real.url, KEY, demo=False)  # a server set up with a real gateway: no demo to pace
        with event_with(SLOW):
            assert resolve_connection(configured_real, "", "").demo_pace is None
        with event_with(f"{PRESENT_COOKIE}=0; {PACE_COOKIE}=slow"):
            assert resolve_connection(defaults, "", "").demo_pace is None
        assert resolve_connection(defaults, "", "").demo_pace is None  # outside an event
    finally:
        await client.aclose()


def test_a_link_turns_presentation_mode_on_or_off_and_a_wrong_value_is_named() -> None:
    with gr.Blocks() as blocks:
        with gr.Tabs() as tabs, gr.Tab("Chat", id="chat"):
            gr.Markdown("chat")
        opener = LinkOpener(blocks, tabs, {"chat": None}, None, LinkOpener.notice_box())
    for value in ("1", "0"):
        tab, notice, _ = opener.values({PRESENT_PARAMETER: value}, None)
        assert tab == gr.skip() and notice == {"__type__": "update", "visible": False}  # applied in the browser, nothing to say
    _, notice, _ = opener.values({PRESENT_PARAMETER: "yes", "tab": "chat"}, None)
    assert notice["visible"] and "present=yes" in notice["value"] and "present=1" in notice["value"]
