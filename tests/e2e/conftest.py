"""Browser fixtures: the real app (Gradio + demo gateway) and headless Debian Chromium."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.server import RunningGateway, free_port, start_in_thread
from playground.settings import Settings
from playground.ui.app import build_app, configure_queue, launch_options
from playground.ui.shared.connection import ServerDefaults

SERVER_KEY = "sk-server-secret-0987654321"


@dataclass
class RunningApp:
    url: str
    gateway: RunningGateway


@contextmanager
def running_app(defaults: ServerDefaults, settings: Settings | None = None) -> Iterator[str]:
    """The app for `defaults` on a free port of 127.0.0.1, as the page reaches it: its URL."""
    blocks = configure_queue(build_app(settings or Settings(read_timeout=10), defaults))
    port = free_port()
    blocks.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, quiet=True, **launch_options())
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        blocks.close()


def fresh_page(browser: Browser, url: str) -> Iterator[Page]:
    """A page of its own (a new browser context) on `url`, once the chat's input is on screen."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    tab = context.new_page()
    tab.goto(url)
    tab.wait_for_selector("#chat-input textarea")
    yield tab
    context.close()


@pytest.fixture(scope="session")
def app_server() -> Iterator[RunningApp]:
    gateway = start_in_thread(DemoConfig(api_key=SERVER_KEY, token_delay=0.02, video_queue_seconds=1.0, video_run_seconds=6.0))
    with running_app(ServerDefaults(gateway.url, SERVER_KEY, demo=True)) as url:
        yield RunningApp(url, gateway)
    gateway.stop()


@pytest.fixture
def page(browser: Browser, app_server: RunningApp) -> Iterator[Page]:
    yield from fresh_page(browser, app_server.url)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test in this folder drives the browser: `-m browser` selects them all (and only them)."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)
