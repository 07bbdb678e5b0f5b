"""Embedding 10,000 short texts through the Embeddings tab's handler, against the openai SDK
doing the same, in float and in base64.

The demo gateway runs in its own process. Each approach runs in a fresh worker process, which
reports its time, its peak resident memory growth (ru_maxrss; tracemalloc would slow the
many small allocations of float JSON several times over) and the bytes received:

- tab, float / tab, base64: `embed_texts` (the tab's handler: batches of 512, vectors as numpy,
  every view built: heatmap, map, search, table and the download files);
- openai SDK, float / base64 (the baseline): `embeddings.create` with the same batches, the
  vectors gathered into one numpy array.

    python -m bench.embeddings [--texts 10000] [--runs 2]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import statistics
import subprocess
import sys
import time

from bench.header import print_footer, print_header

KEY = "bench-key"
MODEL = "text-embedding-3-small"
APPROACHES = ("tab float", "tab base64", "openai float", "openai base64")


def texts_for(count: int) -> list[str]:
    topics = ["bread", "trains", "revenue", "cats", "rain", "chess", "music", "gardens"]
    return [f"Note {i}: a short sentence about {topics[i % len(topics)]} and item {i % 97}." for i in range(count)]


async def _tab(url: str, texts: list[str], encoding: str) -> tuple[tuple[int, ...], int]:
    from playground.client.gateway import GatewayClient
    from playground.client.transport import Transport
    from playground.ui.shared.connection import ServerDefaults
    from playground.ui.tabs.embeddings.handlers import EmbeddingsForm, embed_texts

    client = GatewayClient(Transport(read_timeout=120))
    try:
        form = EmbeddingsForm(texts="\n".join(texts), list_model=MODEL, encoding=encoding)
        view = await embed_texts(client, ServerDefaults(url, KEY, demo=True), "", "", form)
        assert not view.error, view.error
        return (len(view.table), len(view.files)), view.received
    finally:
        await client.aclose()


def _openai(url: str, texts: list[str], encoding: str) -> tuple[tuple[int, ...], int]:
    import numpy as np
    import openai

    from playground.client.embeddings import LIST_BATCH_SIZE

    received = 0
    sdk = openai.OpenAI(base_url=url + "/v1", api_key=KEY, max_retries=0, timeout=120)
    parts = []
    for start in range(0, len(texts), LIST_BATCH_SIZE):
        asked = {"encoding_format": "float"} if encoding == "float" else {}  # the SDK asks base64 itself and decodes it only then
        raw = sdk.embeddings.with_raw_response.create(model=MODEL, input=texts[start:start + LIST_BATCH_SIZE], **asked)
        received += len(raw.http_response.content)
        parts.append(np.array([item.embedding for item in raw.parse().data], dtype=np.float32))
    vectors = np.concatenate(parts)
    return vectors.shape, received


def worker(approach: str, url: str, count: int) -> None:
    import numpy  # noqa: F401 - loaded before measuring, as in the running app
    import openai  # noqa: F401

    import playground.ui.tabs.embeddings.handlers  # noqa: F401

    texts = texts_for(count)
    who, encoding = approach.split()
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    started = time.perf_counter()
    shape, received = asyncio.run(_tab(url, texts, encoding)) if who == "tab" else _openai(url, texts, encoding)
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - rss_before
    print(json.dumps({"seconds": seconds, "rss_growth": peak, "received": received, "shape": list(shape)}))


def _start_gateway(port: int) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "playground.demo_gateway", "--port", str(port), "--key", KEY]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _wait_until_up(url: str) -> None:
    import httpx

    for _ in range(100):
        try:
            httpx.get(f"{url}/health")
            return
        except httpx.TransportError:
            time.sleep(0.1)
    raise RuntimeError("the demo gateway did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--texts", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--worker", nargs=3, metavar=("APPROACH", "URL", "COUNT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker[0], args.worker[1], int(args.worker[2]))
        return
    print_header()
    from playground.demo_gateway.server import free_port

    port = free_port()
    url = f"http://127.0.0.1:{port}"
    gateway = _start_gateway(port)
    results: dict[str, list[dict[str, float]]] = {approach: [] for approach in APPROACHES}
    try:
        _wait_until_up(url)
        for _ in range(args.runs):
            for approach in APPROACHES:
                command = [sys.executable, "-m", "bench.embeddings", "--worker", approach, url, str(args.texts)]
                output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
                results[approach].append(json.loads(output.strip().splitlines()[-1]))
    finally:
        gateway.terminate()
        gateway.wait(10)
    print(f"{args.texts:,} short texts, {MODEL} (1536 numbers each), medians of {args.runs} runs; baseline: the openai SDK, same batches")
    print(f"{'approach':<15} {'seconds':>8} {'texts/s':>9} {'RSS +MB':>8} {'MB received':>12} {'ratio to SDK':>13}")
    for approach in APPROACHES:
        runs = results[approach]
        seconds = statistics.median(r["seconds"] for r in runs)
        peak = statistics.median(r["rss_growth"] for r in runs) / 1e6
        received = statistics.median(r["received"] for r in runs) / 1e6
        baseline = statistics.median(r["seconds"] for r in results["openai " + approach.split()[1]])
        print(f"{approach:<15} {seconds:>8.2f} {args.texts / seconds:>9,.0f} {peak:>8.1f} {received:>12.1f} {seconds / baseline:>13.2f}")
    print_footer()


if __name__ == "__main__":
    main()
