"""Composition root: settings -> (demo gateway if none configured) -> build_app -> launch.

Also the Hugging Face Space's `app_file`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playground.client.egress import EgressGuard
from playground.client.transport import GuardedHTTPTransport
from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.server import start_in_thread
from playground.settings import Settings
from playground.ui.app import build_app, configure_queue, launch_options
from playground.ui.connection import ServerDefaults, SessionQuotas


def server_defaults(settings: Settings) -> ServerDefaults:
    """The gateway this process talks to by default, starting the demo gateway when none is set."""
    limits = {"hosted": settings.hosted, "video_jobs_per_session": settings.video_jobs_per_session,
              "quotas": SessionQuotas(settings.requests_per_minute, settings.concurrent_calls)}
    if settings.gateway_base_url is not None:
        return ServerDefaults(settings.gateway_base_url, settings.gateway_api_key, demo=False, **limits)
    demo = start_in_thread(DemoConfig(api_key=settings.demo_api_key, token_delay=settings.demo_token_delay, quirks=settings.demo_quirks,
                                      callback_transport=callback_transport(settings)))
    return ServerDefaults(demo.url, settings.demo_api_key, demo=True, **limits)


def callback_transport(settings: Settings) -> Callable[[], Any] | None:
    """In hosted mode the demo gateway's vidD callbacks go through the same egress guard."""
    if not settings.hosted:
        return None
    guard = EgressGuard(allowed_hosts=settings.allowed_hosts)
    return lambda: GuardedHTTPTransport(guard)


def main() -> None:
    settings = Settings.from_env()
    blocks = configure_queue(build_app(settings, server_defaults(settings)))
    blocks.launch(server_name=settings.server_name, server_port=settings.server_port, **launch_options(settings))


if __name__ == "__main__":
    main()
