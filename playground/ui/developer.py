"""The "Developer" section each tab has, closed by default: the switches a developer wants and a
first-time visitor does not need (raw extension fields, the demo gateway's test markers).

The default view of a tab speaks plainly; the wire names and the demo's test markers live here.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import gradio as gr

DEMO_MARKERS = (
    "**Demo gateway test markers** (ignored by real gateways): put `[[fault:NAME]]` in a prompt to make the demo "
    "fail on purpose (for example `[[fault:cut]]` cuts a stream, `[[fault:status:429]]` answers *too many requests*); "
    "the word *forbidden* makes a picture or video request be refused."
)
VIDEO_MARKERS = "`[[video_mb:50]]` in a video prompt makes the demo's result about 50 MB (to try big downloads)."


@contextmanager
def developer_section(tab: str, *notes: str) -> Iterator[gr.Accordion]:
    """A closed "Developer" accordion for `tab`, starting with the demo's test markers and `notes`."""
    with gr.Accordion("Developer", open=False, elem_id=f"{tab}-developer", elem_classes=["developer-section"]) as section:
        gr.Markdown("\n\n".join((DEMO_MARKERS, *notes)), elem_classes=["developer-notes"])
        yield section
