"""The "Developer" section each tab has, closed by default: the switches a developer wants and a
first-time visitor does not need (raw extension fields, the demo gateway's test markers).

The default view of a tab speaks plainly; the wire names and the demo's test markers live here.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import gradio as gr

from playground.gradio_compat import I18nText
from playground.ui.i18n import t

DEMO_MARKERS = t("developer.markers")
VIDEO_MARKERS = t("developer.video_markers")


@contextmanager
def developer_section(tab: str, *notes: I18nText) -> Iterator[gr.Accordion]:
    """A closed "Developer" accordion for `tab`, starting with the demo's test markers and `notes`."""
    with gr.Accordion(t("developer.panel"), open=False, elem_id=f"{tab}-developer", elem_classes=["developer-section"]) as section:
        for note in (DEMO_MARKERS, *notes):
            gr.Markdown(note, elem_classes=["developer-notes"])
        yield section
