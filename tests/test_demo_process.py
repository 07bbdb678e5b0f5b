"""The demo gateway in a process of its own (`playground.demo_process`, started by `app.py`):
it speaks the spec over its socket, its key never reaches a command line, hosted mode keeps the
egress guard on its callbacks, and it ends with the app's process, also when that is killed."""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from playground.client.chat import ChatRequest
from playground.client.gateway import GatewayClient
from playground.client.transport import Connection, Transport
from playground.client.video_requests import VideoInput, build_video_request
from playground.demo_gateway.config import DemoConfig
from playground.demo_process import GatewayProcess
from tests.recorder import Recorder

KEY = "process-key-7f3a"
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def gateway() -> Iterator[GatewayProcess]:
    running = GatewayProcess.start(DemoConfig(api_key=KEY, video_queue_seconds=0.1, video_run_seconds=0.3))
    try:
        running.wait_ready()
        yield running
    finally:
        running.stop()


async def test_it_streams_a_reply_over_its_socket_and_its_key_is_on_no_command_line(gateway: GatewayProcess) -> None:
    client = GatewayClient(Transport())
    try:
        request = ChatRequest.build(model="gx-2.5-flash", messages=[{"role": "user", "content": "What is 37 times 41?"}], stream=True)
        async with client.chat.stream(Connection(gateway.url, KEY), request) as stream:
            async for _ in stream:
                pass
        assert "1517" in stream.result.text.replace(",", "")  # worked out by the process's own demo gateway
    finally:
        await client.aclose()
    command_line = Path(f"/proc/{gateway.process.pid}/cmdline").read_bytes()
    assert KEY.encode() not in command_line and b"playground.demo_process" in command_line


@pytest.mark.parametrize("hosted", [False, True])
async def test_hosted_mode_sends_its_callbacks_through_the_egress_guard(hosted: bool) -> None:
    demo = GatewayProcess.start(DemoConfig(api_key=KEY, video_queue_seconds=0.1, video_run_seconds=0.3), hosted=hosted)
    client = GatewayClient(Transport())
    try:
        demo.wait_ready()
        with Recorder().running() as inside:  # a loopback address: private, refused in hosted mode
            request = build_video_request(VideoInput(model="vidD-1-5-pro-251215", prompt="a hook", callback_url=f"{inside.url}/hook"))
            await client.video.submit(Connection(demo.url, KEY), request)
            deadline = time.monotonic() + (2 if hosted else 10)  # hosted: time for the job to end and its callback to be tried
            while not inside.requests and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
        assert inside.requests == ([] if hosted else ["POST /hook"])
    finally:
        await client.aclose()
        demo.stop()


def test_it_ends_when_the_app_process_is_killed() -> None:
    app = subprocess.Popen([sys.executable, "-c", (
        "import json, time\n"
        "from playground.demo_gateway.config import DemoConfig\n"
        "from playground.demo_process import GatewayProcess\n"
        "demo = GatewayProcess.start(DemoConfig(api_key='k'))\n"
        "demo.wait_ready()\n"
        "print(json.dumps({'pid': demo.process.pid}), flush=True)\n"
        "time.sleep(120)\n")], cwd=ROOT, stdout=subprocess.PIPE)
    try:
        assert app.stdout is not None
        child = json.loads(app.stdout.readline())["pid"]
        assert Path(f"/proc/{child}").exists()
        app.send_signal(signal.SIGKILL)
        app.wait(10)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and _running(child):
            time.sleep(0.1)
        assert not _running(child), "the demo gateway outlived the app"
    finally:
        app.kill()


def _running(pid: int) -> bool:
    """Alive and not a zombie (a zombie has ended; its parent has not reaped it)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def test_a_child_that_cannot_start_is_reported() -> None:
    demo = GatewayProcess.start(DemoConfig(api_key=KEY))
    demo.process.kill()
    with pytest.raises(RuntimeError, match="did not start"):
        demo.wait_ready(deadline_s=5)
