"""The demo gateway in a process of its own, for the composition root (`app.py`) alone.

The app's event loop and Gradio's queue run on one core (one interpreter, one GIL); the demo
gateway in a thread of the same interpreter took its CPU from them and was starved by them under
load (issue 25: 50 sessions reached first token at p95 0.58 s with the gateway in a thread, 0.47 s
in its own process). A process of its own runs it on the machine's other core.

The child imports the demo gateway and the client's egress guard, never Gradio; it ends when the
app's process ends, also when that process is killed. The demo MCP server (`MCPProcess`) runs the
same way in a child of its own.
"""

from __future__ import annotations

import dataclasses
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

import uvicorn

from playground.client.egress import EgressGuard
from playground.client.transport import GuardedHTTPTransport
from playground.demo_gateway.app import create_app
from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.server import free_port, redact_access_log
from playground.demo_mcp.server import PATH as MCP_PATH
from playground.demo_mcp.server import create_app as create_mcp_app

HOST = "127.0.0.1"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
START_DEADLINE_S = 60.0
PARENT_CHECK_S = 0.5
NOT_SENT = ("clock", "callback_transport")
"""DemoConfig fields that do not cross processes: the child keeps its own clock and builds its transport."""


def callback_transport(hosted: bool, allowed_hosts: tuple[str, ...] = ()) -> Callable[[], Any] | None:
    """In hosted mode the demo gateway's vidD callbacks go through the app's egress guard."""
    if not hosted:
        return None
    guard = EgressGuard(allowed_hosts=allowed_hosts)
    return lambda: GuardedHTTPTransport(guard)


def _end_with_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_S)
    os._exit(0)


def serve(launch: dict[str, Any]) -> None:
    """The child: serve the demo gateway (or the demo MCP server) as `launch` says until the parent process is gone."""
    threading.Thread(target=_end_with_parent, args=(launch["parent"],), name="parent-watch", daemon=True).start()
    if launch.get("serve") == "mcp":
        uvicorn.Server(uvicorn.Config(create_mcp_app(HOST), host=HOST, port=launch["port"], log_level="warning")).run()
        return
    sent = launch["config"]
    config = DemoConfig(**{**sent, "quirks": tuple(sent["quirks"])},
                        callback_transport=callback_transport(launch["hosted"], tuple(launch["allowed_hosts"])))
    redact_access_log()
    uvicorn.Server(uvicorn.Config(create_app(config), host=HOST, port=launch["port"], log_level="warning", lifespan="off")).run()


def spawn(launch: dict[str, Any]) -> subprocess.Popen[bytes]:
    """A child process of this module, handed `launch` (which may hold a key) on its stdin, never on its command line."""
    process = subprocess.Popen([sys.executable, "-m", "playground.demo_process"], stdin=subprocess.PIPE, cwd=ROOT)
    assert process.stdin is not None
    process.stdin.write(json.dumps(launch).encode())
    process.stdin.close()
    return process


@dataclasses.dataclass
class GatewayProcess:
    port: int
    process: subprocess.Popen[bytes]

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    @classmethod
    def start(cls, config: DemoConfig, hosted: bool = False, allowed_hosts: tuple[str, ...] = ()) -> GatewayProcess:
        """Start the child and return at once (its URL is known); `wait_ready` before serving pages.
        The launch (with the key) goes on the child's stdin, never on its command line."""
        port = free_port(HOST)
        sent = {field.name: getattr(config, field.name) for field in dataclasses.fields(config) if field.name not in NOT_SENT}
        launch = {"config": sent, "hosted": hosted, "allowed_hosts": list(allowed_hosts), "port": port, "parent": os.getpid()}
        return cls(port, spawn(launch))

    def wait_ready(self, deadline_s: float = START_DEADLINE_S) -> None:
        _wait_ready(self.process, self.port, "the demo gateway", deadline_s)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(10)


@dataclasses.dataclass
class MCPProcess:
    """The demo MCP server in a child process, for `app.py` when no MCP server is configured."""

    port: int
    process: subprocess.Popen[bytes]

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}{MCP_PATH}"

    @classmethod
    def start(cls) -> MCPProcess:
        """Start the child and return at once (its URL is known); `wait_ready` before serving pages."""
        port = free_port(HOST)
        launch = {"serve": "mcp", "port": port, "parent": os.getpid()}
        return cls(port, spawn(launch))

    def wait_ready(self, deadline_s: float = START_DEADLINE_S) -> None:
        _wait_ready(self.process, self.port, "the demo MCP server", deadline_s)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(10)


def _wait_ready(process: subprocess.Popen[bytes], port: int, what: str, deadline_s: float) -> None:
    deadline = time.monotonic() + deadline_s
    while True:
        try:
            with socket.create_connection((HOST, port), timeout=1):
                return
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{what} did not start on {HOST}:{port} (exit code {process.poll()})") from None
            time.sleep(0.05)


if __name__ == "__main__":
    serve(json.loads(sys.stdin.read()))
