"""Thinking kept open (presentation mode): a page script that opens every reasoning block Gradio's
chatbot draws and pins it open, so it no longer collapses by itself when the answer ends.

Gradio 6.31's chatbot draws a `gr.ChatMessage` with `metadata` as a "thought" component whose
title (`.thought-group > [role=button]`, class `expanded` while open) toggles it; it is open while
`metadata.status` is not "done" and closes itself when it becomes "done", unless the person has
clicked the title (the component then stops following the status). Its content is not in the
page while closed, so CSS cannot keep it. The script clicks the title as a person would: twice while
open (open again, and pinned: a stream's "done" no longer closes it), once while closed (opened
and pinned). Each title is handled once (`data-kept-open`), so a person may close one again.

What it relies on is checked in Gradio's page bundle (`moved_in_frontend`, tested by
`tests/gradio_compat/test_thinking_open.py`); on a Gradio version outside `SUPPORTED_VERSIONS`
the script does nothing and Thinking behaves as Gradio draws it.
"""

from __future__ import annotations

from pathlib import Path

import gradio

TITLE_SELECTOR = '.thought-group > [role="button"]'
OPEN_CLASS = "expanded"
PINNED_ATTRIBUTE = "data-kept-open"
FRONTEND_RELIES_ON = (
    '<div class="thought-group svelte-18cn3o3"><div role="button" tabindex="0">',
    "C(d)||F(b,C(y)?.metadata?.status!==`done`)",
    "function S(){F(b,!C(b)),F(d,!0)}",
    "`title svelte-18cn3o3`,null,A,{expanded:C(b)}",
)
"""Pieces of the thought component in the 6.31 bundle: its markup, the status closing it unless
clicked (`d`), the click toggling it and pinning it, and the `expanded` class while open."""

_KEEP_OPEN_JS = f"""(root) => {{
  for (const title of root.querySelectorAll({TITLE_SELECTOR!r})) {{
    if (title.hasAttribute("{PINNED_ATTRIBUTE}")) continue;
    title.setAttribute("{PINNED_ATTRIBUTE}", "");
    if (title.classList.contains("{OPEN_CLASS}")) title.click();
    title.click();
  }}
}}"""
_NOTHING_JS = "(root) => {}"


def keep_thinking_open_js() -> str:
    """A JavaScript function `(root) => ...` that opens and pins every reasoning block under `root`
    (does nothing on a Gradio version the script was not written for)."""
    from playground.gradio_compat import SUPPORTED_VERSIONS  # the package imports this module first

    return _KEEP_OPEN_JS if gradio.__version__ in SUPPORTED_VERSIONS else _NOTHING_JS


def moved_in_frontend() -> list[str]:
    """The pieces of `FRONTEND_RELIES_ON` that Gradio's page bundle no longer holds."""
    assets = Path(gradio.__file__).parent / "templates" / "frontend" / "assets"
    missing = list(FRONTEND_RELIES_ON)
    for script in assets.glob("Index-*.js"):
        text = script.read_text(encoding="utf-8", errors="replace")
        missing = [piece for piece in missing if piece not in text]
        if not missing:
            break
    return missing
