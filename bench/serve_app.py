"""The app with its demo gateway in a process of its own, for benchmarks that measure its CPU.

    python -m bench.serve_app --port 7861 [--token-delay 0.03]

With `BENCH_GATEWAY=process` in the environment the demo gateway runs in a second process
(`python -m playground.demo_gateway`) instead of a thread of the app's, to measure what sharing the
app's interpreter costs (README's Benchmarks); the app's CPU figures then leave the gateway out.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time

import httpx

from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.server import free_port, start_in_thread
from playground.settings import Settings
from playground.ui.app import build_app, configure_queue, launch_options
from playground.ui.connection import ServerDefaults

KEY = "bench-key"


def gateway_process(token_delay: float) -> str:
    """Start the demo gateway in a child process; its base URL once it answers."""
    port = free_port()
    child = subprocess.Popen([sys.executable, "-m", "playground.demo_gateway", "--port", str(port), "--key", KEY,
                              "--token-delay", str(token_delay), "--video-queue-seconds", "2", "--video-run-seconds", "60"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    # a terminated app stops its gateway too (no interpreter shutdown: Gradio's threads would hold it)
    signal.signal(signal.SIGTERM, lambda *_: (child.terminate(), os._exit(0)))
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            httpx.get(f"{url}/v1/models", headers={"Authorization": f"Bearer {KEY}"}, timeout=2)
            return url
        except httpx.TransportError:
            time.sleep(0.1)
    raise RuntimeError("the demo gateway process did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--token-delay", type=float, default=0.03)
    args = parser.parse_args()
    if os.environ.get("BENCH_GATEWAY") == "process":
        url = gateway_process(args.token_delay)
    else:
        url = start_in_thread(DemoConfig(api_key=KEY, token_delay=args.token_delay, video_queue_seconds=2, video_run_seconds=60)).url
    blocks = configure_queue(build_app(Settings(), ServerDefaults(url, KEY, demo=True)))
    blocks.launch(server_name="127.0.0.1", server_port=args.port, prevent_thread_lock=True, quiet=True, **launch_options())
    print("ready", flush=True)
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    main()
