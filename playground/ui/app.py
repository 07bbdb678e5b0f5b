"""`build_app`: the connection panel and the tabs, over one shared `GatewayClient`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gradio as gr
from starlette.middleware import Middleware

from playground import gradio_compat
from playground.client.egress import EgressGuard
from playground.client.gateway import GatewayClient
from playground.client.transport import Transport
from playground.settings import Settings
from playground.ui.i18n import I18N, languages, t
from playground.ui.i18n.language import chosen_js
from playground.ui.shared.connection import ServerDefaults, badge_text
from playground.ui.shared.connection_panel import ConnectionEvents, ConnectionPanel
from playground.ui.shared.curl_panel import CurlImport
from playground.ui.shared import own_addresses
from playground.ui.shared.guide import Guide
from playground.ui.shared.links import CopyLink, LinkOpener
from playground.ui.shared.presentation import Presentation
from playground.ui.shared.presets import presets_state
from playground.ui.tabs.context import TabContext, TabParts
from playground.ui.tabs.registry import TABS, links
from playground.ui.web.compression import CompressedPage
from playground.ui.web.long_links import LongLinks
from playground.ui.web.owned_files import OwnedFiles
from playground.ui.web.visitor_identity import ignore_server_proxy_headers
from playground.ui.web.visitors import PageGuard, VisitorRules
from playground.ui.web import browser_stores
from playground.ui.session_files.kept import KeptConversation

ASSETS = Path(__file__).resolve().parents[2] / "assets"
QUEUE_MAX_SIZE = 256
DEFAULT_CONCURRENCY = 16
EVENTS_AT_ONCE = QUEUE_MAX_SIZE
"""Gradio runs at most `max_threads` queued events at a time (40 by default), async ones too: the
41st streaming reply waited for one of the first 40 to end. Replies wait on the gateway, not on a
core, so every event the queue admits may run. Gradio's limit on threads for sync handlers becomes
the same number; each sync handler stays bounded by `DEFAULT_CONCURRENCY` runs at once."""
SYSTEM_FONTS = ("ui-sans-serif", "system-ui", "sans-serif")
"""The page's text in the system's own fonts: the Soft theme's stack without its first family,
Montserrat, so a first visit fetches no web font (Montserrat and IBM Plex Mono were 197 KB of it).
Chinese is drawn by the system's CJK font, found by the browser's fallback as before; naming a CJK
family here instead loses the synthetic bold of Chinese headings on Linux (WenQuanYi has no bold face)."""
SYSTEM_MONO_FONTS = ("ui-monospace", "Consolas", "monospace")
"""The Soft theme's monospace stack without IBM Plex Mono."""


def page_theme() -> gr.themes.Base:
    """The Soft theme in indigo, drawn with the system's fonts (`SYSTEM_FONTS`)."""
    return gr.themes.Soft(primary_hue="indigo", font=SYSTEM_FONTS, font_mono=SYSTEM_MONO_FONTS)


def launch_options(settings: Settings | None = None, rules: VisitorRules | None = None) -> dict[str, Any]:
    """What `launch()` needs besides host and port (theme and css go there in Gradio 6). The page
    guard and the media sweep share `rules` (made from `settings` when not given); the visitor is
    read from X-Forwarded-For by the guard alone (uvicorn's own reading is turned off)."""
    settings = settings or Settings()
    rules = rules or VisitorRules.from_settings(settings)
    ignore_server_proxy_headers()
    return {
        "theme": page_theme(),
        "css_paths": [ASSETS / "style.css"],
        "run_history": False,
        "max_threads": EVENTS_AT_ONCE,
        "footer_links": ["gradio", "settings"],  # no "Use via API": the app has no public API (keep_api_private)
        "mcp_server": False,  # nor an MCP server (whatever GRADIO_MCP_SERVER says): the page config is built once per step
        "favicon_path": str(ASSETS / "logo.svg"),
        "js": (ASSETS / "keys.js").read_text(encoding="utf-8"),
        "i18n": I18N,
        "max_file_size": f"{settings.max_upload_mb:g}mb",
        "state_session_capacity": settings.session_capacity,
        "app_kwargs": {"middleware": [Middleware(LongLinks), Middleware(CompressedPage), Middleware(PageGuard, rules=rules),
                                      Middleware(OwnedFiles, hosted=settings.hosted, sessions=rules.sessions)],
                       "lifespan": rules.lifespan},
    }


def make_client(settings: Settings, defaults: ServerDefaults) -> GatewayClient:
    """The shared client: in hosted mode every connection goes through the egress guard (the
    server's own gateway and MCP server are trusted), with the process-wide and per-call limits of `settings`."""
    guard = None
    if settings.hosted:
        guard = EgressGuard(allowed_hosts=settings.allowed_hosts)
        guard.trust(defaults.base_url)
        if defaults.mcp_url:
            guard.trust(defaults.mcp_url)
    transport = Transport(settings.connect_timeout, settings.read_timeout, guard=guard, upstream_limit=settings.upstream_concurrency,
                          max_body_bytes=int(settings.max_request_mb * 1_000_000))
    client = GatewayClient(transport)
    client.mcp.connect_timeout, client.mcp.call_timeout = settings.connect_timeout, settings.mcp_call_timeout
    return client


def configure_queue(blocks: gr.Blocks) -> gr.Blocks:
    """Async I/O handlers set `concurrency_limit=None`; everything else shares this default."""
    return blocks.queue(default_concurrency_limit=DEFAULT_CONCURRENCY, max_size=QUEUE_MAX_SIZE)


def build_app(settings: Settings, defaults: ServerDefaults, client: GatewayClient | None = None) -> gr.Blocks:
    """The page: header, connection panel, then one loop over `TABS`."""
    gradio_compat.apply()
    gradio_compat.first_paint_in_language(chosen_js(languages()))  # a zh-SG browser's page starts in Chinese, not English
    client = client or make_client(settings, defaults)
    browser_stores.use_data_dir(settings.data_dir)  # what browsers kept is read again after a restart
    if defaults.hosted and defaults.demo:
        own_addresses.keep_private(defaults.base_url, "connection.the_demo_gateway")
    if defaults.hosted and defaults.mcp_demo and defaults.mcp_url:
        own_addresses.keep_private(defaults.mcp_url, "mcp.the_demo_server")
    with gr.Blocks(title="Gateway Playground") as blocks:
        guide = Guide()
        with gr.Row(elem_id="header"):
            gr.Markdown(t("header.title"))
            badge = gr.Markdown(badge_text(defaults, ""), elem_id="gateway-badge")
            presentation = Presentation(defaults.demo)
            tour_button, keys_button = guide.header_buttons()
        guide.wire(blocks, tour_button, keys_button)
        presentation.wire(blocks)
        gradio_compat.keep_typed_on_reveal(blocks)  # a box typed into as it first shows keeps what was typed
        connection = ConnectionPanel.build(defaults)
        stores = {tab.id: tab.stores() for tab in TABS if tab.stores is not None}
        ctx = TabContext(client, defaults, connection.url_box, connection.key_box, settings=settings, presets=presets_state(), stores=stores)
        curl_import = CurlImport.build()
        link_notice = LinkOpener.notice_box()
        parts: list[TabParts] = []
        copy_links: list[CopyLink] = []
        with gr.Tabs() as tabs:
            for tab in TABS:
                with gr.Tab(t(tab.label_key), id=tab.id, elem_id=tab.elem_id):
                    parts.append(tab.build(ctx) or TabParts())
                    if tab.link is not None:
                        copy_links.append(CopyLink(tab.id, tab.link.written))
        imported = curl_import.wire(ctx.imports, defaults, tabs, connection.url_box, connection.key_box, client)
        for tab, part in zip(TABS, parts):
            if part.conversation is not None:
                KeptConversation(tab.id, part.conversation, ctx.stores[tab.id]).wire(blocks, imported)
        ctx.prompts.wire(tabs)
        opener = LinkOpener(blocks, tabs, links(), ctx.presets, link_notice)
        opener.wire(blocks)
        writers = {tab.id: part.link for tab, part in zip(TABS, parts)}
        for copy_link in copy_links:
            copy_link.wire(opener, writers[copy_link.tab])
        pickers = [part.models for part in parts if part.models is not None]
        events = ConnectionEvents(client, defaults, len(pickers))
        restored = connection.wire(blocks, badge, events, pickers)
        for part in parts:
            if part.after_load is not None:
                part.after_load(restored)
        # The badge is written by the server in the visitor's language: again once the switch set it.
        switched = guide.wire_language(blocks)
        switched.then(events.badge, connection.url_box, badge, queue=False)
        for part in parts:
            if part.after_language is not None:
                part.after_language(switched)
    gradio_compat.keep_api_private(blocks)
    gradio_compat.narrow_progress_targets(blocks)
    return blocks
