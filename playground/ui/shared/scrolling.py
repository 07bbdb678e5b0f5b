"""What a person just started is brought into view: pressing an example, Generate or Send
scrolls the place its result appears to the top of the window, in the browser (no server round
trip), smoothly unless the visitor asked the system for reduced motion."""

from __future__ import annotations

import json

import gradio as gr


def scroll_statement(elem_id: str) -> str:
    """JavaScript statements that scroll the element `elem_id` into view (nothing if it is not on the page)."""
    return (f"const shown = document.getElementById({json.dumps(elem_id)});"
            " if (shown) shown.scrollIntoView({block: 'start', behavior:"
            " window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth'});")


def into_view_js(elem_id: str) -> str:
    """A `js=` function of no inputs and no outputs that scrolls `elem_id` into view."""
    return f"() => {{ {scroll_statement(elem_id)} }}"


def bring_into_view(trigger: gr.Button, elem_id: str) -> None:
    """Clicking `trigger` scrolls `elem_id` (where what it starts is shown) into view."""
    trigger.click(None, None, None, js=into_view_js(elem_id), queue=False)


def shown_into_view_js(elem_id: str) -> str:
    """A `js=` function of no inputs and no outputs that scrolls `elem_id` just into view (the least scroll that shows
    it) when it is shown, and does nothing when it is hidden or already in view."""
    return (f"() => {{ const shown = document.getElementById({json.dumps(elem_id)});"
            " if (shown && shown.offsetParent !== null) shown.scrollIntoView({block: 'nearest', behavior:"
            " window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth'}); }")
