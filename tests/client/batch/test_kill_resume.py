"""Kill -9 in the middle of a run, start again, resume: no row lost, none run twice.

A real process runs a Batch run kept in the local store against the demo gateway (slowed so the
run takes a few seconds); once some cells are stored it gets SIGKILL, with requests in flight. A
second process opens the same store and resumes. The gateway counts every request it received
by row and format: each cell was asked for at most once, every cell has its outcome, the answers
stored before the kill are unchanged, and a cell whose request was out when the process died is
shown as interrupted (it may have been charged), never sent again."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from playground.client.batch.store import INTERRUPTED
from playground.client.batch.stored_run import StoredRun
from playground.demo_gateway.app import create_app
from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.server import free_port
from playground.store.database import FILE_NAME, Database
from tests.client.batch.resume_worker import CONCURRENCY
from tests.conftest import DEMO_KEY

ROWS = 16
ROOT = Path(__file__).resolve().parents[3]
QUESTION = re.compile(rb"question (\d+)")


class CountingGateway:
    """The demo gateway behind an ASGI layer that keeps (path, row) of every request body it received."""

    def __init__(self) -> None:
        self.app = create_app(DemoConfig(api_key=DEMO_KEY, token_delay=0.03))
        self.received: Counter[tuple[str, int]] = Counter()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []

        async def listen() -> Any:
            message = await receive()
            if message["type"] == "http.request":
                chunks.append(message.get("body", b""))
                found = QUESTION.search(b"".join(chunks)) if not message.get("more_body") else None
                if found:
                    self.received[(scope["path"], int(found.group(1)))] += 1
            return message

        await self.app(scope, listen, send)


@pytest.fixture
def counting() -> Iterator[tuple[str, CountingGateway]]:
    gateway = CountingGateway()
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(gateway, host="127.0.0.1", port=port, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}", gateway
    server.should_exit = True
    thread.join(10)


def _worker(data_dir: Path, url: str, *run: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "tests.client.batch.resume_worker", str(data_dir), url, *run],
                            cwd=ROOT, stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})


def _stored_cells(data_dir: Path) -> int:
    try:
        with closing(sqlite3.connect(data_dir / FILE_NAME)) as reader:
            return int(reader.execute("SELECT count(*) FROM cells").fetchone()[0])
    except sqlite3.OperationalError:  # the first process has not made the tables yet
        return 0


async def test_kill_9_mid_run_then_resume_loses_nothing_and_repeats_nothing(counting: tuple[str, CountingGateway], tmp_path: Path) -> None:
    url, gateway = counting
    first = _worker(tmp_path, url, "new", str(ROWS))
    assert first.stdout is not None
    run_id = first.stdout.readline().strip()
    deadline = time.monotonic() + 60
    while _stored_cells(tmp_path) < 8 and first.poll() is None and time.monotonic() < deadline:
        await asyncio.sleep(0.02)
    os.kill(first.pid, signal.SIGKILL)
    first.wait(10)
    assert first.returncode == -signal.SIGKILL

    before = StoredRun.open(Database(tmp_path / FILE_NAME), run_id)  # a reader of its own, as the next start is
    answered_before = {key: cell.answer for key, cell in before.cells.items() if not cell.error}
    interrupted = {key for key, cell in before.cells.items() if cell.error == INTERRUPTED}
    total = ROWS * 2
    assert 8 <= len(answered_before) < total  # killed mid-run
    assert 1 <= len(interrupted) <= CONCURRENCY  # requests were out when it died: at most the ones in flight
    before.database.close()

    second = _worker(tmp_path, url, run_id)
    out, _ = second.communicate(timeout=120)
    assert second.returncode == 0 and out.split() == [run_id, "done"]

    database = Database(tmp_path / FILE_NAME)
    after = StoredRun.open(database, run_id)
    assert len(after.cells) == total  # no row lost: every cell has its outcome
    assert {key: after.cells[key].answer for key in answered_before} == answered_before  # what was stored stays
    assert {key for key, cell in after.cells.items() if cell.error} == interrupted  # the rest were answered
    assert all([mark["passed"] for mark in cell.marks] == [True]  # graded once, after its answer
               for cell in after.cells.values() if not cell.error)
    paths = {0: "/v1/chat/completions", 1: "/v1/messages"}
    assert max(gateway.received.values()) == 1  # none run twice
    for key, cell in after.cells.items():  # every answer came from exactly one request; an interrupted cell from at most one
        asked = gateway.received[(paths[cell.column], cell.row)]
        assert asked == 1 if not cell.error else asked <= 1, key
    database.close()
