"""Start-up: `python app.py` to its first HTTP 200, against a minimal `gr.ChatInterface` app
started the same way (a fresh process each), alternating runs.

    python -m bench.startup [--runs 10]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from bench.header import print_footer, print_header
from playground.demo_gateway.server import free_port

ROOT = Path(__file__).resolve().parents[1]
MINIMAL_APP = """
import gradio as gr, os
gr.ChatInterface(lambda message, history: message).launch(
    server_name="127.0.0.1", server_port=int(os.environ["GRADIO_SERVER_PORT"]))
"""
DEADLINE_S = 90.0


def time_to_first_200(command: list[str]) -> float:
    """Seconds from spawning `command` to the first 200 on its port; the process is then stopped."""
    port = free_port()
    env = {**os.environ, "GRADIO_SERVER_PORT": str(port), "GRADIO_ANALYTICS_ENABLED": "False", "GATEWAY_BASE_URL": ""}
    start = time.perf_counter()
    errors = tempfile.TemporaryFile()
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=errors)
    try:
        while time.perf_counter() - start < DEADLINE_S:
            if process.poll() is not None:
                errors.seek(0)
                said = errors.read().decode("utf-8", "replace").strip().splitlines()[-3:]
                raise RuntimeError(f"{command} exited with {process.returncode} before answering: {' | '.join(said)}")
            try:
                if httpx.get(f"http://127.0.0.1:{port}/", timeout=1).status_code == 200:
                    return time.perf_counter() - start
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"{command} did not answer within {DEADLINE_S:.0f} s")
    finally:
        process.terminate()
        process.wait(10)
        errors.close()


def measure(runs: int) -> tuple[list[float], list[float]]:
    ours, baseline = [], []
    for _ in range(runs):
        ours.append(time_to_first_200([sys.executable, "app.py"]))
        baseline.append(time_to_first_200([sys.executable, "-c", MINIMAL_APP]))
    return ours, baseline


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    runs = parser.parse_args().runs
    print_header()
    ours, baseline = measure(runs)
    print(f"{'app':<28}{'median s':>10}{'min s':>8}{'max s':>8}")
    for name, times in (("python app.py", ours), ("minimal gr.ChatInterface", baseline)):
        print(f"{name:<28}{statistics.median(times):>10.2f}{min(times):>8.2f}{max(times):>8.2f}")
    print(f"ratio (app / minimal): {statistics.median(ours) / statistics.median(baseline):.2f}  (goal: at most 1.3)")
    print_footer()


if __name__ == "__main__":
    main()
