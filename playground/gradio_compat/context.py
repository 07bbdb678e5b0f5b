"""Reads of Gradio's private context, for code that has no `gr.Request` parameter to take it from:
the request of the event being handled, the page being built, and the translated-text type.

Gradio's public way to the request is a `request: gr.Request` parameter of a handler; the
session quotas, the visitor's language and the price table are read from helpers that every
handler calls, where threading a parameter through every handler would be the cost.
"""

from __future__ import annotations

from typing import Any

import gradio as gr
from gradio.context import Context, LocalContext
from gradio.i18n import I18nData

I18nText = I18nData
"""What `gr.I18n(...)(key)` gives: a text the browser translates (`.key` is its catalogue key)."""


def current_request() -> Any | None:
    """The request of the event being handled (a `gr.Request`), None outside an event."""
    return LocalContext.request.get(None)


def current_blocks() -> gr.Blocks | None:
    """The page whose layout is being built (inside `with gr.Blocks()`), None outside one."""
    return Context.root_block


def translation_key(text: Any) -> str | None:
    """The catalogue key of a translated text (`I18nText`), None for anything else."""
    return text.key if isinstance(text, I18nData) else None
