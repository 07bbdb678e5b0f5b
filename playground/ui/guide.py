"""Help for a first visit: a short guided tour in a sidebar (opened once, closable, reopened by the
"Tour" button; a plain, non-secret flag in the browser's local storage remembers the visit)
and the "?" button that lists the keyboard shortcuts (`assets/keys.js`).

The sidebar sits beside the page rather than over it, so it never hides what it explains.
"""

from __future__ import annotations

from typing import Any

import gradio as gr

TOUR_STORAGE_KEY = "gateway-playground-tour-seen"
FIRST_VISIT_JS = f"""() => {{
  const seen = localStorage.getItem("{TOUR_STORAGE_KEY}") === "1";
  localStorage.setItem("{TOUR_STORAGE_KEY}", "1");
  return seen;
}}"""
TOUR = """### A two-minute tour
1. **Pick a tab** at the top: each is one way of talking to the gateway (Chat, Responses, Messages, Native,
   Embeddings, Images, Compare, Video).
2. **Press an example**: the buttons under the conversation fill in the question and the settings for you.
3. **Send it and watch it stream**: the answer appears word by word; **Stop** (or Esc) halts it, and what
   arrived stays.
4. **Open "Inspector and code"** below the answer: the exact request, every event that came back, and
   the same call as Python or curl.

The built-in demo gateway answers the examples offline, so nothing here costs anything. To use a real
gateway, type its address and key in the connection panel at the top.
"""
SHORTCUTS = """### Keyboard shortcuts
| Keys | What they do |
|---|---|
| **Ctrl+Enter** (⌘+Enter on a Mac) | Send, from any text box of the tab |
| **Esc** | Stop the answer that is arriving |
| **Ctrl+Shift+R** (⌘+Shift+R) | Retry the last message |
| **Enter** in the message box | Send (Shift+Enter starts a new line) |
"""


class Guide:
    """The tour sidebar and the shortcut list; `wire(blocks)` opens the tour on a first visit."""

    def __init__(self) -> None:
        self.seen = gr.Checkbox(False, visible=False, elem_id="tour-seen")
        with gr.Sidebar(open=False, position="left", elem_id="tour") as self.sidebar:
            gr.Markdown(TOUR, elem_id="tour-steps")
            self.close = gr.Button("Close the tour", size="sm", elem_id="tour-close")

    @staticmethod
    def header_buttons() -> tuple[gr.Button, gr.Button]:
        """The "Tour" and "?" buttons (made where the header lays them out)."""
        tour = gr.Button("Tour", size="sm", elem_id="tour-open", min_width=60, scale=0)
        keys = gr.Button("?", size="sm", elem_id="shortcuts-open", min_width=40, scale=0)
        return tour, keys

    def wire(self, blocks: gr.Blocks, tour: gr.Button, keys: gr.Button) -> None:
        with gr.Group(visible=False, elem_id="shortcuts") as shortcut_panel:
            gr.Markdown(SHORTCUTS, elem_id="shortcuts-list")
            hide = gr.Button("Close", size="sm", elem_id="shortcuts-close")
        shown = gr.State(False)

        def first_visit(seen: bool) -> Any:
            return gr.Sidebar(open=not seen)

        def toggle(visible: bool) -> tuple[Any, bool]:
            return gr.update(visible=not visible), not visible

        blocks.load(first_visit, self.seen, self.sidebar, queue=False, js=FIRST_VISIT_JS)
        tour.click(lambda: gr.Sidebar(open=True), None, self.sidebar, queue=False)
        self.close.click(lambda: gr.Sidebar(open=False), None, self.sidebar, queue=False)
        keys.click(toggle, shown, [shortcut_panel, shown], queue=False)
        hide.click(lambda: (gr.update(visible=False), False), None, [shortcut_panel, shown], queue=False)
