"""Fixtures: the demo MCP server and the misbehaving one, each on a real socket."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from playground.demo_mcp.server import RunningServer, start_in_thread
from tests.client.mcp.misbehaving import RunningMisbehaving, start


@pytest.fixture(scope="package")
def demo_mcp() -> Iterator[RunningServer]:
    running = start_in_thread()
    yield running
    running.stop()


@pytest.fixture(scope="package")
def misbehaving() -> Iterator[RunningMisbehaving]:
    running = start()
    yield running
    running.stop()
