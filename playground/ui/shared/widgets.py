"""Shared Gradio pieces every tab uses: error banner, notice, metrics line, inspector and view code."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import gradio as gr

from playground.client.transport import Exchange
from playground.ui.shared.codegen import curl_snippet, python_snippet
from playground.ui.i18n import say, t
from playground.ui.shared.render import inspector_request, inspector_response
from playground.ui.shared.timeline import timeline_html


def error_banner(prefix: str) -> gr.Markdown:
    return gr.Markdown(visible=False, elem_id=f"{prefix}-error", elem_classes=["error-banner"])


def notice_banner(prefix: str) -> gr.Markdown:
    return gr.Markdown(visible=False, elem_id=f"{prefix}-notice", elem_classes=["notice-banner"])


def metrics_line(prefix: str) -> gr.Markdown:
    return gr.Markdown(elem_id=f"{prefix}-metrics", elem_classes=["metrics-line"])


def banner_update(text: str) -> Any:
    return gr.update(value=text, visible=bool(text))


@dataclass
class Inspector:
    """The exact request, the raw response or events, and code that reproduces the call."""

    request: gr.Code
    response: gr.Code
    timeline: gr.HTML
    curl: gr.Code
    python: gr.Code

    @classmethod
    def build(cls, prefix: str) -> Inspector:
        with gr.Accordion(t("inspector.panel"), open=False, elem_id=f"{prefix}-inspector"):
            with gr.Tab(t("inspector.request_tab")):
                request = gr.Code(language="json", label=t("inspector.request"), interactive=False, elem_id=f"{prefix}-inspector-request")
            with gr.Tab(t("inspector.response_tab")):
                response = gr.Code(language=None, label=t("inspector.response"), interactive=False, elem_id=f"{prefix}-inspector-response")
            with gr.Tab(t("inspector.timeline_tab")):
                timeline = gr.HTML(t("inspector.timeline_empty"),
                                   elem_id=f"{prefix}-inspector-timeline")
            with gr.Tab(t("inspector.curl")):
                curl = gr.Code(language="shell", label=t("inspector.curl"), interactive=False, elem_id=f"{prefix}-code-curl")
            with gr.Tab(t("inspector.python_tab")):
                python = gr.Code(language="python", label=t("inspector.python"), interactive=False, elem_id=f"{prefix}-code-python")
        return cls(request, response, timeline, curl, python)

    @property
    def components(self) -> list[gr.Code | gr.HTML]:
        return [self.request, self.response, self.timeline, self.curl, self.python]

    @staticmethod
    def note(text: str) -> tuple[Any, ...]:
        """Values that say there is nothing to show (and why) instead of an exchange."""
        return text, "", "", "", ""

    @staticmethod
    def values(exchange: Exchange | None) -> tuple[Any, ...]:
        """Values for `components`; skipped (left as they are) when there is no new exchange."""
        if exchange is None:
            return (gr.skip(),) * 5
        return (inspector_request(exchange), inspector_response(exchange), timeline_html(exchange) or say("inspector.not_streamed"),
                curl_snippet(exchange), python_snippet(exchange))
