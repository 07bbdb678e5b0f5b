"""What the tab handler tests share: the server's defaults pointing at the demo gateway."""

from __future__ import annotations

import pytest

from playground import gradio_compat

from playground.demo_gateway.server import RunningGateway
from playground.ui.shared.connection import ServerDefaults
from tests.conftest import DEMO_KEY


@pytest.fixture
def defaults(gateway: RunningGateway) -> ServerDefaults:
    return ServerDefaults(gateway.url, DEMO_KEY, demo=True)


@pytest.fixture(scope="session", autouse=True)
def gradio_as_the_app_runs_it() -> None:
    """The app applies its Gradio patches when it builds the page (`gradio_compat.apply`): a handler
    tested on its own runs as under the app, whichever test ran first."""
    gradio_compat.apply()
