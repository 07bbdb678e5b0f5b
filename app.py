"""Composition root: settings -> (demo gateway if none configured) -> build_app -> launch.

Also the Hugging Face Space's `app_file`.
"""

from __future__ import annotations

from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.server import start_in_thread
from playground.settings import Settings
from playground.ui.app import build_app, configure_queue, launch_options
from playground.ui.connection import ServerDefaults


def server_defaults(settings: Settings) -> ServerDefaults:
    """The gateway this process talks to by default, starting the demo gateway when none is set."""
    if settings.gateway_base_url is not None:
        return ServerDefaults(settings.gateway_base_url, settings.gateway_api_key, demo=False)
    demo = start_in_thread(DemoConfig(api_key=settings.demo_api_key, token_delay=settings.demo_token_delay))
    return ServerDefaults(demo.url, settings.demo_api_key, demo=True)


def main() -> None:
    settings = Settings.from_env()
    blocks = configure_queue(build_app(settings, server_defaults(settings)))
    blocks.launch(server_name=settings.server_name, server_port=settings.server_port, **launch_options())


if __name__ == "__main__":
    main()
