"""The Batch tab in Chromium, shared by its browser tests: an app of its own on the demo gateway
(its own data folder, so runs of other tests are not listed; `APPS` names both), opening the tab,
picking a choice."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.server import RunningGateway, free_port, start_in_thread
from playground.settings import Settings
from playground.ui.app import build_app, configure_queue, launch_options
from playground.ui.shared.connection import ServerDefaults
from tests.e2e.conftest import SERVER_KEY
from tests.e2e.pages import open_tab


@dataclass(frozen=True)
class BatchApp:
    """What a module's Batch app runs on: its data folder (its store) and its demo gateway."""

    data_dir: Path
    gateway: RunningGateway

    @property
    def gateway_url(self) -> str:
        return self.gateway.url


APPS: dict[str, BatchApp] = {}
"""Each running Batch app by its URL (what `batch_app` yields), for a test that runs the command line beside it."""


@pytest.fixture(scope="module")
def batch_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    gateway = start_in_thread(DemoConfig(api_key=SERVER_KEY, token_delay=0.01))
    settings = Settings(read_timeout=10, data_dir=tmp_path_factory.mktemp("data"))
    blocks = configure_queue(build_app(settings, ServerDefaults(gateway.url, SERVER_KEY, demo=True)))
    port = free_port()
    blocks.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, quiet=True, **launch_options(settings))
    url = f"http://127.0.0.1:{port}"
    APPS[url] = BatchApp(settings.data_dir, gateway)
    yield url
    APPS.pop(url, None)
    blocks.close()
    gateway.stop()


def open_batch(browser: Browser, url: str) -> Page:
    page = browser.new_context(viewport={"width": 1500, "height": 1100}).new_page()
    page.goto(url)
    open_tab(page, "Batch", "#batch-user textarea")
    return page


def choose(page: Page, dropdown: str, option: str) -> None:
    page.click(f"{dropdown} input")
    page.locator(dropdown).get_by_role("option", name=option, exact=True).click()
