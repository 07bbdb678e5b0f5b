"""The demo MCP server started by the app when no MCP server is configured (`app.with_mcp_server`,
`demo_process.MCPProcess`): it serves the demo tools over its socket; a configured server is used
instead (with its credential), and hosted mode trusts the server's own MCP address only."""

from __future__ import annotations

import pytest

from app import with_mcp_server
from playground.client.mcp.errors import MCPUnreachableError
from playground.client.mcp.session import MCPAddress
from playground.settings import Settings
from playground.ui.app import make_client
from playground.ui.shared.connection import ServerDefaults


async def test_the_app_starts_the_demo_mcp_server_when_none_is_configured() -> None:
    settings = Settings.from_env({}, dotenv=None)
    assert settings.mcp_server_url is None
    defaults, demo = with_mcp_server(settings, ServerDefaults("http://127.0.0.1:9", demo=True))
    assert demo is not None
    try:
        demo.wait_ready()
        assert defaults.mcp_demo and defaults.mcp_url == demo.url and demo.url.endswith("/mcp")
        client = make_client(settings, defaults)
        listing = await client.mcp.list_tools(MCPAddress(defaults.mcp_url))
        assert {tool.name for tool in listing.tools} == {"calculator", "convert_units", "lookup_element"}
        await client.aclose()
    finally:
        demo.stop()


async def test_a_configured_mcp_server_is_used_and_hosted_mode_trusts_only_it() -> None:
    settings = Settings.from_env({"MCP_SERVER_URL": "http://127.0.0.1:7281/mcp", "MCP_SERVER_TOKEN": "tok-123456", "MCP_CALL_TIMEOUT": "7",
                                  "PLAYGROUND_HOSTED": "1"}, dotenv=None)
    defaults, demo = with_mcp_server(settings, ServerDefaults("http://127.0.0.1:9", demo=True))
    assert demo is None and defaults.mcp_url == "http://127.0.0.1:7281/mcp" and defaults.mcp_token == "tok-123456" and not defaults.mcp_demo
    assert "tok-123456" not in repr(settings) + repr(defaults)
    client = make_client(settings, defaults)
    assert client.mcp.call_timeout == 7
    with pytest.raises(MCPUnreachableError, match="Nothing answered"):  # trusted: tried (nothing listens there)
        await client.mcp.list_tools(MCPAddress(defaults.mcp_url))
    with pytest.raises(MCPUnreachableError, match="is not used"):  # another loopback port: refused before connecting
        await client.mcp.list_tools(MCPAddress("http://127.0.0.1:7282/mcp"))
    await client.aclose()
