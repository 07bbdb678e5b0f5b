"""Peak memory while saving a large vidA result, relative to the video's size.

The demo gateway runs in its own process and serves a vidA task padded to about `--mb` MB
(`[[video_mb:N]]`). Each approach downloads it in a fresh worker process, which reports its
peak Python allocations (tracemalloc) and its peak resident memory growth (ru_maxrss):

- streaming: `VideoAPI.save_result` (JSON parsed in chunks, base64 decoded into the file);
- naive: the usual way, `response.json()` then `base64.b64decode` then write (the baseline).

    python -m bench.video_download_memory [--mb 50] [--runs 2]
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from bench.header import print_footer, print_header

KEY = "bench-key"


def _max_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def _streaming(url: str, task_id: str, directory: Path) -> int:
    from playground.client.transport import Connection, Transport
    from playground.client.video import VideoAPI, VideoTask

    transport = Transport(read_timeout=120)
    try:
        saved = await VideoAPI(transport).save_result(Connection(url, KEY), VideoTask(task_id, "succeeded"), directory)
        return saved.size
    finally:
        await transport.aclose()


async def _naive(url: str, task_id: str, directory: Path) -> int:
    import httpx

    async with httpx.AsyncClient(timeout=120) as http:
        response = await http.get(f"{url}/v1/video/generations/download", params={"id": task_id}, headers={"Authorization": f"Bearer {KEY}"})
        video = base64.b64decode(response.json()["base64"])
    (directory / f"{task_id}.mp4").write_bytes(video)
    return len(video)


def worker(approach: str, url: str, task_id: str) -> None:
    import httpx  # noqa: F401 - imported before measuring, like the app has it loaded

    import playground.client.video  # noqa: F401

    rss_before = _max_rss_mb()
    tracemalloc.start()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as directory:
        size = asyncio.run({"streaming": _streaming, "naive": _naive}[approach](url, task_id, Path(directory)))
    seconds = time.perf_counter() - started
    _, peak = tracemalloc.get_traced_memory()
    print(json.dumps({"size": size, "traced_peak": peak, "rss_growth_mb": _max_rss_mb() - rss_before, "seconds": seconds}))


def _start_gateway(port: int) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "playground.demo_gateway", "--port", str(port), "--key", KEY,
               "--video-queue-seconds", "0", "--video-run-seconds", "0"]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


async def _finished_task(url: str, mb: int) -> str:
    import httpx

    async with httpx.AsyncClient(timeout=30) as http:
        for _ in range(100):
            try:
                await http.get(f"{url}/health")
                break
            except httpx.TransportError:
                await asyncio.sleep(0.1)
        headers = {"Authorization": f"Bearer {KEY}"}
        task = (await http.post(f"{url}/v1/video/generations", json={"model": "vidA-2", "prompt": f"bench [[video_mb:{mb}]]"}, headers=headers)).json()
        await asyncio.sleep(0.1)
        status = (await http.get(f"{url}/v1/video/generations/{task['task_id']}", headers=headers)).json()["status"]
        assert status == "succeeded", status
        return task["task_id"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mb", type=int, default=50)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--worker", nargs=3, metavar=("APPROACH", "URL", "TASK"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(*args.worker)
        return
    print_header()
    from playground.demo_gateway.server import free_port

    port = free_port()
    url = f"http://127.0.0.1:{port}"
    gateway = _start_gateway(port)
    try:
        task_id = asyncio.run(_finished_task(url, args.mb))
        results: dict[str, list[dict[str, float]]] = {"streaming": [], "naive": []}
        for _ in range(args.runs):
            for approach, runs in results.items():
                command = [sys.executable, "-m", "bench.video_download_memory", "--worker", approach, url, task_id]
                output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
                runs.append(json.loads(output.strip().splitlines()[-1]))
    finally:
        gateway.terminate()
        gateway.wait(10)
    size = results["streaming"][0]["size"]
    print(f"vidA download of a {size / 1e6:.1f} MB video ({size * 4 / 3 * 2 / 1e6:.0f} MB of JSON: base64 + data_url), {args.runs} runs each")
    print(f"{'approach':<10} {'traced peak MB':>15} {'x video':>8} {'RSS growth MB':>14} {'x video':>8} {'seconds':>8}")
    for approach, runs in results.items():
        traced = statistics.median(r["traced_peak"] for r in runs) / 1e6
        rss = statistics.median(r["rss_growth_mb"] for r in runs) * 1.048576
        seconds = statistics.median(r["seconds"] for r in runs)
        print(f"{approach:<10} {traced:>15.1f} {traced * 1e6 / size:>8.2f} {rss:>14.1f} {rss * 1e6 / size:>8.2f} {seconds:>8.2f}")
    print_footer()


if __name__ == "__main__":
    main()
