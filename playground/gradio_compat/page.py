"""Settings the app writes into Gradio's event objects after the page is built: every event
private, and progress shown only where it is seen (patch `progress_targets`).

`keep_api_private` is not an optional patch but what the app needs on every Gradio version: it
fails (the app does not start) rather than leave the API public when Gradio's events no longer
carry `api_visibility`.
"""

from __future__ import annotations

import gradio as gr


def keep_api_private(blocks: gr.Blocks) -> None:
    """The app offers no API of its own: every event is for its page only (README, "Publishing").
    The same as passing `api_visibility="private"` to each of the page's 250 event listeners."""
    for function in blocks.fns.values():
        if not hasattr(function, "api_visibility"):
            raise RuntimeError(f"Gradio {gr.__version__}'s events have no api_visibility: the app cannot keep its API private")
        function.api_visibility = "private"


def narrow_progress_targets(blocks: gr.Blocks) -> None:
    """Each event shows its progress only where a person can see it: on what a queued event
    with visible progress changes, states excepted, and on the chatbots of any event (they draw
    "typing" and "generating" from it). An event that skips the queue answers at once, so its
    progress would only flicker. Gradio's page keeps a loading status for every component any
    event has shown progress on, and on every streamed update walks its whole component tree once
    for each of them: the quick events of one video job made a later reply's updates 1.5x slower
    (issue 25, bench.browser_trace)."""
    for function in blocks.fns.values():
        asked = function.show_progress_on if function.show_progress_on is not None else function.outputs
        shown = [block for block in asked if isinstance(block, gr.Chatbot)
                 or (function.queue and function.show_progress != "hidden" and not isinstance(block, (gr.State, gr.BrowserState)))]
        if len(shown) < len(asked):
            function.show_progress_on = shown
