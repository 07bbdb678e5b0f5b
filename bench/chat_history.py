"""What one streamed chat update costs the server as the history grows: what Gradio runs for the
chatbot on every yield (its `postprocess` of the whole history, the dump of its models, two scans
of the value for files to move to its cache, the walk adding the root URL to file URLs, and the
diff against the previous update that is sent to the page), for Gradio's own `gr.Chatbot` (the
same-run baseline) and the app's `Chatbot`, which remembers finished messages and lets a
text-only value skip the scans and the walk.

    python -m bench.chat_history [--messages 10,200,800] [--updates 30]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time

import gradio as gr
from gradio import processing_utils, utils

from playground import gradio_compat
from playground.ui.conversation.chatbot import Chatbot

WORDS = ["the", "quick", "brown", "fox", "jumps", "over", "a", "lazy", "dog", "while", "the", "gateway", "streams", "tokens"]


def history(messages: int, reply: str) -> list[dict]:
    turns = [{"role": "user" if i % 2 == 0 else "assistant", "content": " ".join(WORDS[(i + j) % len(WORDS)] for j in range(60))}
             for i in range(messages - 1)]
    return [*turns, {"role": "assistant", "content": reply}]


async def per_update_ms(chatbot: gr.Chatbot, messages: int, updates: int) -> float:
    """Mean time of one streamed update: the reply grows by a word, the history stays."""
    previous = await one_update(chatbot, history(messages, "warm"))
    reply, spent = "", 0.0
    for update in range(updates):
        reply += f" word{update}"
        value = history(messages, reply)
        started = time.perf_counter()
        shown = await one_update(chatbot, value)
        utils.diff(previous, shown)
        spent += time.perf_counter() - started
        previous = shown
    return spent / updates * 1000


async def one_update(chatbot: gr.Chatbot, value: list[dict]) -> object:
    """Gradio 6.31's `postprocess_data` and `process_api` steps for one output."""
    processed = chatbot.postprocess(value)
    dumped = processed.model_dump() if hasattr(processed, "model_dump") else processed
    await processing_utils.async_move_files_to_cache(dumped, chatbot, postprocess=True)
    cached = await processing_utils.async_move_files_to_cache(processed, chatbot, postprocess=True)
    return processing_utils.add_root_url([cached], "http://127.0.0.1:7860", None)[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", default="10,200,800")
    parser.add_argument("--updates", type=int, default=30)
    args = parser.parse_args()
    gradio_compat.apply()
    print(f"one streamed update's chatbot postprocess, dump, file scans, root-URL walk and diff, mean of {args.updates} (load {os.getloadavg()[0]:.1f})")
    print(f"{'messages':>9}{'gr.Chatbot ms (baseline)':>26}{'app Chatbot ms':>16}{'ratio':>8}")
    for messages in (int(n) for n in args.messages.split(",")):
        base = asyncio.run(per_update_ms(gr.Chatbot(render=False), messages, args.updates))
        ours = asyncio.run(per_update_ms(Chatbot(render=False), messages, args.updates))
        print(f"{messages:>9}{base:>26.2f}{ours:>16.2f}{ours / base:>8.2f}")


if __name__ == "__main__":
    main()
