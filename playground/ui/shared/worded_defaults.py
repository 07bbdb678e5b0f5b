"""A default a person may edit (Compare's message, Batch's prompt template) in the visitor's language,
and only while it is untouched: written by the tab's server on the page's load (a default built with
the page is in the first locale) unless the page's link writes that box itself, and after the header's
language switch only while the box still holds the default of some language (Gradio's own translation
of a value would write over what was typed)."""

from __future__ import annotations

from typing import Any

import gradio as gr

from playground.ui.i18n import english, say, words_in_every_language
from playground.ui.shared.links import opened_with

LINK_TEXT = "q"
"""The link parameter that fills a tab's text box (`links.TabLink.text`)."""


def first_default(key: str, tab: str, request: Any) -> Any:
    """On the page's load: the catalogue's text `key` in the visitor's language; skip when the page was built
    with it (the first locale: nothing typed meanwhile is written over) or the link opens `tab` with its text."""
    text = say(key)
    return gr.skip() if text == english(key) or LINK_TEXT in opened_with(request, tab) else text


def reworded_default(key: str, current: Any) -> Any:
    """After the language switch: `key` in the new language when `current` is its text in any language, else skip (kept as typed)."""
    untouched = {texts[key] for texts in words_in_every_language([key]).values()}
    return say(key) if current in untouched else gr.skip()
