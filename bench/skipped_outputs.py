"""What a skipped output costs per streamed update: an event streaming a chatbot alone, and the
same event with eight more outputs it skips (`gr.skip()`), with Gradio as it is (baseline) and
with the app's Gradio fixes, each in a fresh process, alternating. CPU of the process (server and
the reading client) per update.

    python -m bench.skipped_outputs [--updates 200] [--runs 5]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SKIPPED = 8


def measure(fixed: bool, updates: int, runs: int) -> dict[str, list[float]]:
    """In this process: CPU ms per update for the chatbot alone and with `SKIPPED` skipped outputs."""
    import gradio as gr
    import httpx

    from bench.app_queue import stream_event
    from playground.demo_gateway.server import free_port
    from playground import gradio_compat

    if fixed:
        gradio_compat.apply()

    def reply(skips: int) -> Callable[[], AsyncIterator[Any]]:
        async def stream() -> AsyncIterator[Any]:
            history = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": ""}]
            for _ in range(updates):
                history[-1]["content"] += " word"
                yield (history, *(gr.skip(),) * skips) if skips else history
        return stream

    with gr.Blocks() as blocks:
        chatbot = gr.Chatbot()
        others = [gr.Markdown() for _ in range(SKIPPED)]
        gr.Button().click(reply(0), None, chatbot)
        gr.Button().click(reply(SKIPPED), None, [chatbot, *others])
    port = free_port()
    blocks.queue().launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, quiet=True)
    alone, with_skips = list(blocks.fns)[:2]

    async def run() -> dict[str, list[float]]:
        result: dict[str, list[float]] = {"alone": [], "skipped": []}
        async with httpx.AsyncClient(timeout=60) as http:
            for _ in range(runs):
                for name, index in (("alone", alone), ("skipped", with_skips)):
                    start = time.process_time()
                    await stream_event(http, f"http://127.0.0.1:{port}", index, [], uuid.uuid4().hex[:12])
                    result[name].append((time.process_time() - start) / updates * 1000)
        return result

    try:
        return asyncio.run(run())
    finally:
        blocks.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--updates", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--child", choices=["gradio", "app"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.child == "app", args.updates, args.runs)))
        return
    from bench.header import print_footer, print_header

    print_header()
    rows = {}
    for child in ("gradio", "app"):
        done = subprocess.run([sys.executable, "-m", "bench.skipped_outputs", "--child", child, "--updates", str(args.updates),
                               "--runs", str(args.runs)], cwd=ROOT, capture_output=True, text=True, check=True)
        rows[child] = json.loads(done.stdout.strip().splitlines()[-1])
    print(f"{args.updates} updates a reply, {args.runs} replies each; CPU ms per update (median)")
    print(f"{'Gradio':<22}{'chatbot alone':>15}{f'+ {SKIPPED} skipped':>15}{'ratio':>8}")
    for child, title in (("gradio", "as it is (baseline)"), ("app", "with the app's fixes")):
        alone, skipped = (statistics.median(rows[child][name]) for name in ("alone", "skipped"))
        print(f"{title:<22}{alone:>15.2f}{skipped:>15.2f}{skipped / alone:>8.2f}")
    print_footer()


if __name__ == "__main__":
    main()
