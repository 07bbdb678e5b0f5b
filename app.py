"""Composition root: settings -> (demo gateway, demo MCP server if none configured) -> build_app -> launch.

Also the Hugging Face Space's `app_file`.
"""

from __future__ import annotations

from dataclasses import replace

from playground.demo_gateway.config import DemoConfig
from playground.demo_process import GatewayProcess, MCPProcess
from playground.settings import Settings
from playground.ui.app import build_app, configure_queue, launch_options
from playground.ui.shared.connection import ServerDefaults, SessionQuotas


def server_defaults(settings: Settings) -> tuple[ServerDefaults, GatewayProcess | None]:
    """The gateway this process talks to by default, starting the demo gateway (in a process of
    its own, `wait_ready` before serving) when none is set."""
    limits = {"hosted": settings.hosted, "video_jobs_per_session": settings.video_jobs_per_session,
              "quotas": SessionQuotas(settings.requests_per_minute, settings.concurrent_calls),
              "uploads_per_minute": settings.uploads_per_minute}
    if settings.gateway_base_url is not None:
        return ServerDefaults(settings.gateway_base_url, settings.gateway_api_key, demo=False, **limits), None
    demo = GatewayProcess.start(DemoConfig(api_key=settings.demo_api_key, token_delay=settings.demo_token_delay, quirks=settings.demo_quirks),
                                hosted=settings.hosted, allowed_hosts=tuple(settings.allowed_hosts))
    return ServerDefaults(demo.url, settings.demo_api_key, demo=True, **limits), demo


def with_mcp_server(settings: Settings, defaults: ServerDefaults) -> tuple[ServerDefaults, MCPProcess | None]:
    """`defaults` with the MCP server the text tabs offer tools from: the configured one, else
    the demo MCP server started in a process of its own (`wait_ready` before serving)."""
    if settings.mcp_server_url is not None:
        return replace(defaults, mcp_url=settings.mcp_server_url, mcp_token=settings.mcp_server_token), None
    demo = MCPProcess.start()
    return replace(defaults, mcp_url=demo.url, mcp_demo=True), demo


def main() -> None:
    settings = Settings.from_env()
    defaults, demo = server_defaults(settings)
    defaults, demo_mcp = with_mcp_server(settings, defaults)
    blocks = configure_queue(build_app(settings, defaults))  # the demo servers start meanwhile
    for child in (demo, demo_mcp):
        if child is not None:
            child.wait_ready()
    blocks.launch(server_name=settings.server_name, server_port=settings.server_port, **launch_options(settings))


if __name__ == "__main__":
    main()
