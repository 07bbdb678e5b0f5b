"""Help for a first visit and the header's language switch (`i18n/language.py`): a short guided tour in a sidebar (opened once, closable, reopened by the
"Tour" button; a plain, non-secret flag in the browser's local storage remembers the visit)
and the "?" button that lists the keyboard shortcuts (`assets/keys.js`).

The sidebar sits beside the page rather than over it, so it never hides what it explains; on a phone,
where it would fill the screen, it opens only when asked.
"""

from __future__ import annotations

from typing import Any

import gradio as gr

from playground.ui.i18n import languages, t
from playground.gradio_compat import I18nText, translation_key
from playground.ui.i18n import words_in_every_language
from playground.ui.i18n.language import remembered_js, switch_choices, switch_js

TOUR_STORAGE_KEY = "gateway-playground-tour-seen"
# At 768 px or less Gradio's sidebar takes the whole width: a first visit there does not open it
# over the controls it explains (the "Tour" button still does, and a wider visit later will).
FIRST_VISIT_JS = f"""() => {{
  if (window.matchMedia("(max-width: 768px)").matches) return true;
  const seen = localStorage.getItem("{TOUR_STORAGE_KEY}") === "1";
  localStorage.setItem("{TOUR_STORAGE_KEY}", "1");
  return seen;
}}"""
TOUR = t("guide.tour")
SHORTCUTS = t("guide.shortcuts")


class Guide:
    """The tour sidebar and the shortcut list; `wire(blocks)` opens the tour on a first visit."""

    def __init__(self) -> None:
        self.seen = gr.Checkbox(False, visible=False, elem_id="tour-seen")
        with gr.Sidebar(open=False, position="left", elem_id="tour") as self.sidebar:
            gr.Markdown(TOUR, elem_id="tour-steps")
            self.close = gr.Button(t("guide.close"), size="sm", elem_id="tour-close")

    def header_buttons(self) -> tuple[gr.Button, gr.Button]:
        """The language switch and the "Tour" and "?" buttons (made where the header lays them out)."""
        self.language = gr.Radio(switch_choices(languages()), value=None, label=t("header.language"), elem_id="language-switch",
                                 scale=0, min_width=150)
        tour = gr.Button(t("header.tour"), size="sm", elem_id="tour-open", min_width=60, scale=0)
        keys = gr.Button(t("header.keys"), size="sm", elem_id="shortcuts-open", min_width=40, scale=0)
        return tour, keys

    def wire(self, blocks: gr.Blocks, tour: gr.Button, keys: gr.Button) -> None:
        with gr.Group(visible=False, elem_id="shortcuts") as shortcut_panel:
            gr.Markdown(SHORTCUTS, elem_id="shortcuts-list")
            hide = gr.Button(t("guide.shortcuts_close"), size="sm", elem_id="shortcuts-close")
        shown = gr.State(False)
        blocks.load(first_visit, self.seen, self.sidebar, queue=False, js=FIRST_VISIT_JS)
        tour.click(lambda: gr.Sidebar(open=True), None, self.sidebar, queue=False)
        self.close.click(lambda: gr.Sidebar(open=False), None, self.sidebar, queue=False)
        keys.click(toggle, shown, [shortcut_panel, shown], queue=False)
        hide.click(lambda: (gr.update(visible=False), False), None, [shortcut_panel, shown], queue=False)

    def wire_language(self, blocks: gr.Blocks) -> Any:
        """The header's switch and the language remembered on load; call once every tab exists (the
        switch renames every tab, `tab_label_words`). Returns the switch's event, for what must
        follow it on the server (texts built in the visitor's language)."""
        words = tab_label_words(blocks)
        blocks.load(None, None, self.language, js=remembered_js(languages(), words))
        return self.language.input(None, self.language, None, js=switch_js(words))


def first_visit(seen: bool) -> Any:
    """The tour opens by itself unless this browser saw it (`FIRST_VISIT_JS` says)."""
    return gr.Sidebar(open=not seen)


def toggle(visible: bool) -> tuple[Any, bool]:
    """The shortcut list shown or hidden, and whether it now is."""
    return gr.update(visible=not visible), not visible


def tab_label_words(blocks: gr.Blocks) -> dict[str, dict[str, str]]:
    """Every tab label on the page (the page's tabs, and tabs inside panels such as the inspector), in every language."""
    keys = [translation_key(block.label) for block in blocks.blocks.values() if isinstance(block, gr.Tab) and isinstance(block.label, I18nText)]
    return words_in_every_language(key for key in keys if key)
