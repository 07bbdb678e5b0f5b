"""What the client tests share beyond tests/conftest.py: a client with room for slow probes."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from playground.client.gateway import GatewayClient
from playground.client.transport import Transport


@pytest.fixture
async def report_client() -> AsyncIterator[GatewayClient]:
    """A client whose read timeout leaves room for the report's slow-first-token cases."""
    client = GatewayClient(Transport(connect_timeout=2.0, read_timeout=10.0))
    yield client
    await client.aclose()
