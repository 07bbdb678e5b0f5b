"""`TabContext`: what every tab is built from (the shared client, the server's defaults and
settings, the connection panel's inputs, the browser stores made before the tabs), so adding a tab
never grows a parameter list; `TabParts`: what a tab hands back to the page."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import gradio as gr

from playground.client.gateway import GatewayClient
from playground.settings import Settings
from playground.ui.shared.connection import ServerDefaults
from playground.ui.shared.curl_panel import ImportRegistry
from playground.ui.shared.links import LinkWriter
from playground.ui.shared.prices import SessionPrices
from playground.ui.conversation.prompt_move import PromptRegistry
from playground.ui.conversation.panel import ConversationPanel


@dataclass(frozen=True)
class TabContext:
    client: GatewayClient
    defaults: ServerDefaults
    url_box: gr.Textbox
    key_box: gr.Textbox
    settings: Settings = field(default_factory=Settings)
    presets: gr.BrowserState | None = None
    """The page's preset store (`ui.presets`), created outside the tabs."""
    prices: SessionPrices = field(default_factory=SessionPrices)
    """Each browser session's price table (edited in Batch; costs in every metrics line, Compare, Batch)."""
    stores: dict[str, Any] = field(default_factory=dict)
    """Each tab's browser stores by tab id (`Tab.stores`), made before the `gr.Tabs`: a tab's
    content mounts only when opened, too late for the page-load events that read them."""
    imports: ImportRegistry = field(default_factory=ImportRegistry)
    """Where a tab registers how it takes an imported curl command (`ui.curl_panel`)."""
    prompts: PromptRegistry = field(default_factory=PromptRegistry)
    """Where the conversation tabs and Batch register the boxes a prompt moves between (`ui.prompt_move`)."""

    @property
    def connection(self) -> list[gr.Textbox]:
        """The inputs every gateway call reads last: base URL, then key."""
        return [self.url_box, self.key_box]


@dataclass(frozen=True)
class TabParts:
    """What a tab hands back to the page."""

    models: gr.Dropdown | None = None
    """A model picker the page fills from the gateway's model list (on load and on Test)."""
    after_load: Callable[[Any], Any] | None = None
    """Called with the page-load event that restores the connection, to chain the tab's own restore."""
    after_language: Callable[[Any], Any] | None = None
    """Called with the header's language switch event, to chain what the tab's server writes in the
    visitor's language (texts Gradio cannot translate in the browser: values built at run time)."""
    link: LinkWriter | None = None
    """What the tab's server writes into its Copy link (the parameters its `TabLink.written` names)."""
    conversation: ConversationPanel | None = None
    """A text tab's conversation, which the page keeps in the browser (`session_files.kept`) once every event exists."""


def each(hooks: tuple[Callable[[Any], Any], ...], event: Any) -> None:
    """Every one of `hooks` chained after `event` (`partial(each, hooks)` as a `TabParts` hook)."""
    for hook in hooks:
        hook(event)
