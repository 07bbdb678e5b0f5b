"""Fixtures: the demo gateway on a real socket, and clients that talk to it."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator, Iterator

import pytest

from playground.client.gateway import GatewayClient
from playground.client.transport import Connection, Transport
from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.server import RunningGateway, start_in_thread
from tests.browser import browser  # noqa: F401 - the browser tests' fixture, for every folder

DEMO_KEY = "sk-demo-secret-1234567890"
BUSY_LOOP = "import time\nend = time.monotonic() + 3 * 3600\nwhile time.monotonic() < end: pass"
OWN_DATA_DIR = "PLAYGROUND_TESTS_OWN_DATA_DIR"
"""Set to the folder the run made for its stores, so a parallel worker (pytest-xdist) knows to make its own."""
BUSY = pytest.StashKey[list[subprocess.Popen[bytes]]]()


def pytest_configure(config: pytest.Config) -> None:
    """Every app a test builds keeps its store in this run's own folder (`Settings.data_dir`), never
    in the user's: a store written by another checkout's newer code would be refused. Run in
    parallel, each worker has a folder of its own, so no test counts another worker's runs. With
    --busy N, the run (not each worker) starts N busy loops."""
    worker = getattr(config, "workerinput", None)
    ours = os.environ.get("PLAYGROUND_DATA_DIR")
    if ours is None or (worker is not None and os.environ.get(OWN_DATA_DIR) == ours):
        os.environ["PLAYGROUND_DATA_DIR"] = os.environ[OWN_DATA_DIR] = tempfile.mkdtemp(prefix="playground-tests-")
    if worker is None:
        config.stash[BUSY] = [subprocess.Popen([sys.executable, "-c", BUSY_LOOP]) for _ in range(config.getoption("--busy"))]


def pytest_unconfigure(config: pytest.Config) -> None:
    for hog in config.stash.get(BUSY, []):
        hog.kill()
        hog.wait()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--busy", type=int, default=0, metavar="N",
                     help="run the tests beside N busy-loop processes (CPU contention as on a loaded machine or a busy Space; "
                          "each stops by itself after 3 h at most)")


STALL_SECONDS = 3.0
READ_TIMEOUT = 1.0


@pytest.fixture(scope="session")
def gateway() -> Iterator[RunningGateway]:
    running = start_in_thread(DemoConfig(api_key=DEMO_KEY, token_delay=0.0, stall_seconds=STALL_SECONDS, retry_after_ms=20))
    yield running
    running.stop()


@pytest.fixture
def conn(gateway: RunningGateway) -> Connection:
    return Connection(gateway.url, DEMO_KEY)


class RecordingSleep:
    """Stands in for asyncio.sleep in retry tests: records the waits, waits not at all."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


@pytest.fixture
def sleeps() -> RecordingSleep:
    return RecordingSleep()


@pytest.fixture
async def client(sleeps: RecordingSleep) -> AsyncIterator[GatewayClient]:
    gateway_client = GatewayClient(Transport(connect_timeout=2.0, read_timeout=READ_TIMEOUT, sleep=sleeps))
    yield gateway_client
    await gateway_client.aclose()
