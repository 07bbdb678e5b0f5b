"""The connection panel at the top of the page: base URL, key, "remember the key", Test and its
status. What this browser saved is restored on load (the key only when the visitor ticked
"remember"), the header's badge names the gateway in use, and the gateway's model list fills the
model pickers the tabs hand back."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import gradio as gr

from playground.client.errors import GatewayError
from playground.client.gateway import GatewayClient
from playground.ui.i18n import t
from playground.ui.shared.connection import ServerDefaults, badge_text, test_connection
from playground.ui.shared.render import error_text
from playground.ui.web.browser_stores import kept_in_browser

BROWSER_STORAGE_KEY = "gateway-playground-connection"


def restore_connection(stored: dict[str, Any] | None) -> tuple[Any, Any, Any]:
    """The connection this browser saved. With nothing saved the boxes are left alone: this
    answer can arrive after a visitor has already typed a base URL, which must stay."""
    stored = stored or {}
    remembered = bool(stored.get("remember"))
    if not stored.get("url") and not remembered:
        return gr.skip(), gr.skip(), gr.skip()
    return stored.get("url", ""), stored.get("key", "") if remembered else "", remembered


def store_connection(url: str, key: str, keep_key: bool) -> dict[str, Any]:
    """What this browser keeps: the base URL, and the key only when the visitor asked."""
    return {"url": url or "", "key": key if keep_key else "", "remember": keep_key}


@dataclass
class ConnectionEvents:
    """The panel's handlers, bound to the page's client, defaults and model pickers."""

    client: GatewayClient
    defaults: ServerDefaults
    pickers: int

    def badge(self, url: str) -> str:
        return badge_text(self.defaults, url)

    async def refresh_models(self, url: str, key: str) -> tuple[Any, ...]:
        """Test's status and every model picker's choices from the gateway's model list."""
        try:
            message, ids = await test_connection(self.client, self.defaults, url, key)
        except GatewayError as error:
            return (error_text(error), *(gr.skip(),) * self.pickers)
        return (message, *(gr.update(choices=ids),) * self.pickers)


@dataclass
class ConnectionPanel:
    url_box: gr.Textbox
    key_box: gr.Textbox
    remember: gr.Checkbox
    test: gr.Button
    status: gr.Markdown
    saved: gr.BrowserState

    @classmethod
    def build(cls, defaults: ServerDefaults) -> ConnectionPanel:
        key_hint = t("connection.key_on_server" if defaults.server_key else "connection.key_yours")
        url_hint = t("connection.url_demo_placeholder") if defaults.hosted and defaults.demo else defaults.base_url
        with gr.Accordion(t("connection.panel"), open=not defaults.demo, elem_id="connection-panel"):
            with gr.Row():
                url_box = gr.Textbox(label=t("connection.url"), placeholder=url_hint, elem_id="connection-url", scale=3)
                key_box = gr.Textbox(label=t("connection.key"), type="password", placeholder=key_hint, elem_id="connection-key", scale=2)
            with gr.Row():
                remember = gr.Checkbox(False, label=t("connection.remember"), elem_id="connection-remember",
                                       info=t("connection.remember_info"))
                test = gr.Button(t("connection.test"), elem_id="connection-test", size="sm")
            status = gr.Markdown(elem_id="connection-status")
        saved = kept_in_browser({"url": "", "key": "", "remember": False}, BROWSER_STORAGE_KEY)
        return cls(url_box, key_box, remember, test, status, saved)

    def wire(self, blocks: gr.Blocks, badge: gr.Markdown, events: ConnectionEvents, pickers: list[gr.Dropdown]) -> Any:
        """Wire the panel; returns the page-load event that restores the connection (tabs chain
        their own restores after it)."""
        self.url_box.change(events.badge, self.url_box, badge, queue=False)
        blocks.load(events.badge, self.url_box, badge, queue=False)  # in the visitor's language
        gr.on([self.url_box.change, self.key_box.change, self.remember.change], store_connection,
              [self.url_box, self.key_box, self.remember], self.saved, queue=False)
        restored = blocks.load(restore_connection, self.saved, [self.url_box, self.key_box, self.remember], queue=False)
        first_refresh = restored.then(events.refresh_models, [self.url_box, self.key_box], [self.status, *pickers])
        # A Test pressed while the page's first model list is still on its way wins: that answer
        # (for the URL the page loaded with) must not overwrite the status of the URL just tested.
        self.test.click(events.refresh_models, [self.url_box, self.key_box], [self.status, *pickers], concurrency_limit=None,
                        cancels=[first_refresh])
        return restored
