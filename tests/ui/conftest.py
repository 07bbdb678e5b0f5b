"""What the tab handler tests share: the server's defaults pointing at the demo gateway."""

from __future__ import annotations

import pytest

from playground.demo_gateway.server import RunningGateway
from playground.ui.shared.connection import ServerDefaults
from tests.conftest import DEMO_KEY


@pytest.fixture
def defaults(gateway: RunningGateway) -> ServerDefaults:
    return ServerDefaults(gateway.url, DEMO_KEY, demo=True)
