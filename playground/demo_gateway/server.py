"""Runs the demo gateway with uvicorn on 127.0.0.1, in a background thread (app, tests, bench)."""

from __future__ import annotations

import logging
import re
import socket
import threading
import time
from dataclasses import dataclass

import uvicorn

from playground.demo_gateway.app import create_app
from playground.demo_gateway.config import DemoConfig


_KEY_PARAM = re.compile(r"([?&](?:key|api_key)=)[^&#\s\"]*", re.IGNORECASE)


class _RedactKeyParams(logging.Filter):
    """The native endpoints take the key as `?key=`: uvicorn's access log must not record it."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(_KEY_PARAM.sub(r"\1***", arg) if isinstance(arg, str) else arg for arg in record.args)
        elif isinstance(record.msg, str):
            record.msg = _KEY_PARAM.sub(r"\1***", record.msg)
        return True


def redact_access_log() -> None:
    """Install the filter on uvicorn's access logger (once)."""
    access = logging.getLogger("uvicorn.access")
    if not any(isinstance(f, _RedactKeyParams) for f in access.filters):
        access.addFilter(_RedactKeyParams())


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


@dataclass
class RunningGateway:
    url: str
    config: DemoConfig
    server: uvicorn.Server
    thread: threading.Thread

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


def start_in_thread(config: DemoConfig | None = None, host: str = "127.0.0.1", port: int | None = None) -> RunningGateway:
    """Start the demo gateway and return once it accepts connections."""
    config = config or DemoConfig()
    port = port or free_port(host)
    redact_access_log()
    server = uvicorn.Server(uvicorn.Config(create_app(config), host=host, port=port, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, name="demo-gateway", daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError(f"the demo gateway did not start on {host}:{port}")
        time.sleep(0.02)
    return RunningGateway(f"http://{host}:{port}", config, server, thread)
