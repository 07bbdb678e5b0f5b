"""Settings the app writes into Gradio's objects after the page is built: every event private,
progress shown only where it is seen (patch `progress_targets`), and component subclasses drawn by
the page as Gradio's own.

`keep_api_private` and `drawn_as_gradios_own` are not optional patches but what the app needs on
every Gradio version: the first fails (the app does not start) rather than leave the API public
when Gradio's events no longer carry `api_visibility`; the internals test names either when
what it relies on moves.
"""

from __future__ import annotations

from typing import TypeVar

import gradio as gr

T = TypeVar("T", bound=type)


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
    (issue 25, bench.browser_trace). It keeps one for every input of every event that completed too,
    which no setting narrows: the events a page's load runs read nothing deep in the tree (issue 41,
    tests/gradio_compat/test_progress_targets.py)."""
    for function in blocks.fns.values():
        asked = function.show_progress_on if function.show_progress_on is not None else function.outputs
        shown = [block for block in asked if isinstance(block, gr.Chatbot)
                 or (function.queue and function.show_progress != "hidden" and not isinstance(block, (gr.State, gr.BrowserState)))]
        if len(shown) < len(asked):
            function.show_progress_on = shown


def drawn_as_gradios_own(component: T) -> T:
    """A subclass of a Gradio component that the page draws with its parent's frontend (Gradio's
    own templates, such as `gr.TextArea`, are made so). A subclass, unlike a method replaced on
    one instance, is what a session's copy of the component is built from after a `gr.update`."""
    component.is_template = True  # type: ignore[attr-defined]  # Gradio's flag for its own templates
    return component
