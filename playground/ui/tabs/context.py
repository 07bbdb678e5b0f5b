"""`TabContext`: what every tab is built from (the shared client, the server's defaults and the
connection panel's inputs), so adding a tab never grows a parameter list."""

from __future__ import annotations

from dataclasses import dataclass, field

import gradio as gr

from playground.client.gateway import GatewayClient
from playground.ui.shared.connection import ServerDefaults
from playground.ui.shared.curl_panel import ImportRegistry
from playground.ui.conversation.prompt_move import PromptRegistry


@dataclass(frozen=True)
class TabContext:
    client: GatewayClient
    defaults: ServerDefaults
    url_box: gr.Textbox
    key_box: gr.Textbox
    presets: gr.BrowserState | None = None
    """The page's preset store (`ui.presets`), created outside the tabs."""
    imports: ImportRegistry = field(default_factory=ImportRegistry)
    """Where a tab registers how it takes an imported curl command (`ui.curl_panel`)."""
    prompts: PromptRegistry = field(default_factory=PromptRegistry)
    """Where the conversation tabs and Batch register the boxes a prompt moves between (`ui.prompt_move`)."""

    @property
    def connection(self) -> list[gr.Textbox]:
        """The inputs every gateway call reads last: base URL, then key."""
        return [self.url_box, self.key_box]
