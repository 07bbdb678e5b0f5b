"""What a send's display updates cost the server: `Blocks.postprocess_data` answering a send's
first and last updates (the message box's value and placeholder, two banners' value and
visibility, the tool panel's visibility, the tool box emptied, the chat), with the app's Gradio
fixes, with and without `display_updates` (without: Gradio builds a component per update),
alternating in one process. CPU of the process per send (two updates), medians.

    python -m bench.display_updates [--sends 500] [--runs 5]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from typing import Any

import gradio as gr
from gradio.state_holder import SessionState

from bench.header import print_footer, print_header
from playground import gradio_compat
from playground.gradio_compat import display_updates

CHAT = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello there"}]


def send_page() -> tuple[gr.Blocks, Any]:
    """The conversation panel's outputs an action writes at its start and end (with the inspector's four)."""
    with gr.Blocks() as blocks:
        chatbot = gr.Chatbot()
        draft = gr.MultimodalTextbox(placeholder="idle", file_types=["image"], file_count="multiple")
        tool_result = gr.Textbox(placeholder="result")
        error, notice, metrics = gr.Markdown(visible=False), gr.Markdown(visible=False), gr.Markdown()
        with gr.Group(visible=False) as tool_panel:
            tool_label = gr.Markdown()
        inspector = [gr.Code(), gr.Code(), gr.HTML(), gr.Code()]
        outputs = [chatbot, draft, tool_result, error, notice, metrics, tool_panel, tool_label, *inspector]
        gr.Button().click(lambda: None, None, outputs)
    return blocks, next(iter(blocks.fns.values()))


def updates() -> tuple[list[Any], list[Any]]:
    """A send's first update (box emptied, replying) and last one (idle, banners hidden, inspector)."""
    skip = gr.skip()
    first = [CHAT[:1], gr.update(value={"text": "", "files": []}, placeholder="replying"), "", gr.update(value="", visible=False),
             gr.update(value="", visible=False), "", gr.update(visible=False), "", skip, skip, skip, skip]
    last = [CHAT, gr.update(placeholder="idle"), skip, gr.update(value="", visible=False), gr.update(value="", visible=False),
            "12 tokens", gr.update(visible=False), "", '{"model": "m"}', "{}", "<p>timeline</p>", "curl ..."]
    return first, last


async def cpu_per_send(blocks: gr.Blocks, event: Any, sends: int) -> float:
    first, last = updates()
    session = SessionState(blocks)
    start = time.process_time()
    for _ in range(sends):
        await blocks.postprocess_data(event, list(first), session)
        await blocks.postprocess_data(event, list(last), session)
    return (time.process_time() - start) / sends * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sends", type=int, default=500)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print_header()
    gradio_compat.apply()
    installed = display_updates.shown_update
    blocks, event = send_page()
    results: dict[str, list[float]] = {"without": [], "with": []}
    for _ in range(args.runs):
        for name in ("without", "with"):
            display_updates.shown_update = installed if name == "with" else None
            results[name].append(asyncio.run(cpu_per_send(blocks, event, args.sends)))
    display_updates.shown_update = installed
    without, with_ = (statistics.median(results[name]) for name in ("without", "with"))
    print(f"{args.sends} sends a run, {args.runs} runs; CPU ms per send's two updates (median)")
    print(f"{'app fixes':<40}{'CPU ms / send':>14}{'ratio':>8}")
    print(f"{'without display_updates (baseline)':<40}{without:>14.3f}{1:>8.2f}")
    print(f"{'with display_updates':<40}{with_:>14.3f}{with_ / without:>8.2f}")
    print_footer()


if __name__ == "__main__":
    main()
