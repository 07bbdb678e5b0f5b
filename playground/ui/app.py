"""`build_app`: the connection panel and the tabs, over one shared `GatewayClient`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gradio as gr
from starlette.middleware import Middleware

from playground import gradio_compat
from playground.client.errors import GatewayError
from playground.client.gateway import GatewayClient
from playground.client.egress import EgressGuard
from playground.client.transport import Transport
from playground.settings import Settings
from playground.ui.tabs.batch.layout import batch_stores, build_batch_tab
from playground.ui.tabs.chat.layout import build_chat_tab
from playground.ui.tabs.compare.layout import build_compare_tab
from playground.ui.shared.connection import ServerDefaults, badge_text, test_connection
from playground.ui.tabs.context import TabContext
from playground.ui.shared.curl_panel import CurlImport
from playground.ui.tabs.embeddings.layout import build_embeddings_tab
from playground.ui.shared.guide import Guide
from playground.ui.i18n import I18N, t
from playground.ui.tabs.images.layout import build_images_tab
from playground.ui.shared.links import CopyLink, LinkOpener
from playground.ui.web.long_links import LongLinks
from playground.ui.tabs.messages.layout import build_messages_tab
from playground.ui.tabs.native.layout import build_native_tab
from playground.ui.web.compression import CompressedPage
from playground.ui.shared.presets import presets_state
from playground.ui.tabs.responses.layout import build_responses_tab
from playground.ui.shared.render import error_text
from playground.ui.tabs.report.layout import build_report_tab
from playground.ui.tabs.video.layout import build_video_tab, saved_jobs_state
from playground.ui.web.owned_files import OwnedFiles
from playground.ui.web.visitor_identity import ignore_server_proxy_headers
from playground.ui.web.visitors import PageGuard, VisitorRules

ASSETS = Path(__file__).resolve().parents[2] / "assets"
BROWSER_STORAGE_KEY = "gateway-playground-connection"
QUEUE_MAX_SIZE = 256
DEFAULT_CONCURRENCY = 16
EVENTS_AT_ONCE = QUEUE_MAX_SIZE
"""Gradio runs at most `max_threads` queued events at a time (40 by default), async ones too: the
41st streaming reply waited for one of the first 40 to end. Replies wait on the gateway, not on a
core, so every event the queue admits may run. Gradio's limit on threads for sync handlers becomes
the same number; each sync handler stays bounded by `DEFAULT_CONCURRENCY` runs at once."""


def launch_options(settings: Settings | None = None, rules: VisitorRules | None = None) -> dict[str, Any]:
    """What `launch()` needs besides host and port (theme and css go there in Gradio 6). The page
    guard and the media sweep share `rules` (made from `settings` when not given); the visitor is
    read from X-Forwarded-For by the guard alone (uvicorn's own reading is turned off)."""
    settings = settings or Settings()
    rules = rules or VisitorRules.from_settings(settings)
    ignore_server_proxy_headers()
    return {
        "theme": gr.themes.Soft(primary_hue="indigo"),
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
                       **({"lifespan": rules.files.lifespan} if rules.files is not None else {})},
    }


def make_client(settings: Settings, defaults: ServerDefaults) -> GatewayClient:
    """The shared client: in hosted mode every connection goes through the egress guard (the
    server's own gateway is trusted), with the process-wide and per-call limits of `settings`."""
    guard = None
    if settings.hosted:
        guard = EgressGuard(allowed_hosts=settings.allowed_hosts)
        guard.trust(defaults.base_url)
    transport = Transport(settings.connect_timeout, settings.read_timeout, guard=guard, upstream_limit=settings.upstream_concurrency,
                          max_body_bytes=int(settings.max_request_mb * 1_000_000))
    return GatewayClient(transport)


def configure_queue(blocks: gr.Blocks) -> gr.Blocks:
    """Async I/O handlers set `concurrency_limit=None`; everything else shares this default."""
    return blocks.queue(default_concurrency_limit=DEFAULT_CONCURRENCY, max_size=QUEUE_MAX_SIZE)


def build_app(settings: Settings, defaults: ServerDefaults, client: GatewayClient | None = None) -> gr.Blocks:
    gradio_compat.apply()
    client = client or make_client(settings, defaults)
    key_hint = t("connection.key_on_server" if defaults.server_key else "connection.key_yours")
    with gr.Blocks(title="Gateway Playground") as blocks:
        guide = Guide()
        with gr.Row(elem_id="header"):
            gr.Markdown(t("header.title"))
            badge = gr.Markdown(badge_text(defaults, ""), elem_id="gateway-badge")
            tour_button, keys_button = guide.header_buttons()
        guide.wire(blocks, tour_button, keys_button)
        with gr.Accordion(t("connection.panel"), open=not defaults.demo, elem_id="connection-panel"):
            with gr.Row():
                url_box = gr.Textbox(label=t("connection.url"), placeholder=defaults.base_url, elem_id="connection-url", scale=3)
                key_box = gr.Textbox(label=t("connection.key"), type="password", placeholder=key_hint, elem_id="connection-key", scale=2)
            with gr.Row():
                remember = gr.Checkbox(False, label=t("connection.remember"), elem_id="connection-remember",
                                       info=t("connection.remember_info"))
                test = gr.Button(t("connection.test"), elem_id="connection-test", size="sm")
            status = gr.Markdown(elem_id="connection-status")
        saved = gr.BrowserState({"url": "", "key": "", "remember": False}, storage_key=BROWSER_STORAGE_KEY)
        saved_video_jobs = saved_jobs_state()
        saved_batch = batch_stores()
        ctx = TabContext(client, defaults, url_box, key_box, presets_state())
        curl_import = CurlImport.build()
        copy_links: list[CopyLink] = []
        link_notice = LinkOpener.notice_box()
        with gr.Tabs() as tabs:
            with gr.Tab(t("tab.chat"), id="chat", elem_id="tab-chat"):
                chat_model = build_chat_tab(ctx)
                copy_links.append(CopyLink("chat"))
            with gr.Tab(t("tab.responses"), id="responses", elem_id="tab-responses"):
                build_responses_tab(ctx)
                copy_links.append(CopyLink("responses"))
            with gr.Tab(t("tab.messages"), id="messages", elem_id="tab-messages"):
                build_messages_tab(ctx)
                copy_links.append(CopyLink("messages"))
            with gr.Tab(t("tab.native"), id="native", elem_id="tab-native"):
                build_native_tab(ctx)
                copy_links.append(CopyLink("native"))
            with gr.Tab(t("tab.embeddings"), id="embeddings", elem_id="tab-embeddings"):
                build_embeddings_tab(ctx)
                copy_links.append(CopyLink("embeddings"))
            with gr.Tab(t("tab.images"), id="images", elem_id="tab-images"):
                build_images_tab(ctx)
                copy_links.append(CopyLink("images"))
            with gr.Tab(t("tab.compare"), id="compare", elem_id="tab-compare"):
                build_compare_tab(ctx)
                copy_links.append(CopyLink("compare"))
            build_batch_tab(ctx, settings, saved_batch)
            with gr.Tab(t("tab.report"), id="report", elem_id="tab-report"):
                build_report_tab(ctx)
            with gr.Tab(t("tab.video"), id="video", elem_id="tab-video"):
                restore_video_jobs = build_video_tab(ctx, saved_video_jobs)
                copy_links.append(CopyLink("video"))
        curl_import.wire(ctx.imports, defaults, tabs, url_box, key_box, client)
        ctx.prompts.wire(tabs)
        opener = LinkOpener(blocks, tabs, ctx.presets, link_notice)
        opener.wire(blocks)
        for copy_link in copy_links:
            copy_link.wire(opener)

        async def refresh_models(url: str, key: str) -> tuple[str, Any]:
            try:
                message, ids = await test_connection(client, defaults, url, key)
            except GatewayError as error:
                return error_text(error), gr.skip()
            return message, gr.update(choices=ids)

        def restore(stored: dict[str, Any] | None) -> tuple[Any, Any, Any]:
            """The connection this browser saved. With nothing saved the boxes are left alone: this
            answer can arrive after a visitor has already typed a base URL, which must stay."""
            stored = stored or {}
            remembered = bool(stored.get("remember"))
            if not stored.get("url") and not remembered:
                return gr.skip(), gr.skip(), gr.skip()
            return stored.get("url", ""), stored.get("key", "") if remembered else "", remembered

        def store(url: str, key: str, keep_key: bool) -> dict[str, Any]:
            return {"url": url or "", "key": key if keep_key else "", "remember": keep_key}

        url_box.change(lambda url: badge_text(defaults, url), url_box, badge, queue=False)
        blocks.load(lambda url: badge_text(defaults, url), url_box, badge, queue=False)  # in the visitor's language
        gr.on([url_box.change, key_box.change, remember.change], store, [url_box, key_box, remember], saved, queue=False)
        connection_restored = blocks.load(restore, saved, [url_box, key_box, remember], queue=False)
        first_refresh = connection_restored.then(refresh_models, [url_box, key_box], [status, chat_model])
        # A Test pressed while the page's first model list is still on its way wins: that answer
        # (for the URL the page loaded with) must not overwrite the status of the URL just tested.
        test.click(refresh_models, [url_box, key_box], [status, chat_model], concurrency_limit=None, cancels=[first_refresh])
        restore_video_jobs(connection_restored)
    gradio_compat.keep_api_private(blocks)
    gradio_compat.narrow_progress_targets(blocks)
    return blocks
