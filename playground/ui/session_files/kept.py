"""A conversation tab's conversation kept in the visitor's browser, so a reload (or a restart of the app:
`web.browser_stores`) finds it as it was, as Open WebUI and AI Studio keep a chat.

What is kept is a session file's document without the form (`session_document`): what the chat showed
and what was sent, branches included, attachments as data; never a key, never a setting. It is written
after every event that can change the conversation (`ConversationPanel.changed`), from the server's own
state, so what comes back is what the next request would have sent. On the page's load it is read back
as a session file is (`read_session`: checked whole, attachments made into new files), and a document
that does not read is left alone. A conversation longer than `MAX_KEPT_CHARS` is not kept (the browser's
storage is small and shared by the tabs): the chat says so, and the session file still saves it."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import gradio as gr

from playground.client.errors import RequestValidationError
from playground.ui.conversation.panel import ConversationPanel
from playground.ui.conversation.turns import Session
from playground.ui.i18n import say
from playground.ui.session_files.document import read_session, session_document
from playground.ui.shared.widgets import banner_update
from playground.ui.web.browser_stores import kept_in_browser

MAX_KEPT_CHARS = 400_000
"""A tab's kept conversation at most (about 0.5 MB of the browser's storage once encrypted; four tabs, the
prices, presets and jobs share its 5 MB)."""
STORAGE_KEY = "gateway-playground-conversation-{tab}"
EMPTY: dict[str, Any] = {"kept": "nothing"}
"""What a cleared or too long conversation leaves (the page does not write an empty value over the last one)."""


def store(tab: str) -> gr.BrowserState:
    """The tab's kept conversation (built outside the tabs, so the page reads it on load)."""
    return kept_in_browser(EMPTY, STORAGE_KEY.format(tab=tab))


@dataclass
class KeptConversation:
    tab: str
    panel: ConversationPanel
    saved: gr.BrowserState

    def kept(self, session: Session) -> tuple[Any, Any]:
        """(the document to keep, the notice): the conversation as the server holds it, or `EMPTY` when there is
        none or it is too long to keep (then the notice says so); nothing while a reply arrives (a second send, answered
        with a note at once, ends before the reply it waits for: the reply's own end keeps the conversation)."""
        if session.replying:
            return gr.skip(), gr.skip()
        if not session.shown and not session.branches:
            return EMPTY, gr.skip()
        document = session_document(self.tab, {}, session.shown, session)
        if len(json.dumps(document, ensure_ascii=False)) > MAX_KEPT_CHARS:
            return EMPTY, banner_update(say("session.say.too_long_to_keep"))
        return document, gr.skip()

    def restore(self, stored: Any) -> tuple[Any, ...]:
        """The page's load: the kept conversation in the chat, the session and the branch picker (nothing changes
        when none is kept or it does not read)."""
        nothing = (gr.skip(),) * 3
        if not isinstance(stored, dict) or "conversation" not in stored:
            return nothing
        try:
            loaded = read_session(json.dumps(stored).encode(), self.tab, [])
        except (RequestValidationError, OSError, TypeError, ValueError):
            return nothing
        if not loaded.history and not loaded.session.branches:
            return nothing
        return loaded.history, loaded.session, self.panel.branches.update(loaded.session)

    def wire(self, blocks: gr.Blocks, also: list[Any]) -> None:
        """Restore on load; keep after each of the panel's `changed` events and of `also` (the page's curl import)."""
        blocks.load(self.restore, self.saved, [self.panel.chatbot, self.panel.session, self.panel.branches.picker], queue=False,
                    show_progress="hidden", show_progress_on=[])  # a chatbot's loading status stays for good (`narrow_progress_targets`)
        for event in [*self.panel.changed, *also]:
            event.then(self.kept, self.panel.session, [self.saved, self.panel.notice], queue=False, show_progress="hidden")
