"""The text tabs' MCP panel shows the built-in demo MCP server's address locally, and to a visitor of a hosted
page an empty box that says in words what it connects to: the address is the server's own."""

from __future__ import annotations

from typing import Any

from playground.settings import Settings
from playground.ui.app import build_app
from playground.ui.shared.connection import ServerDefaults

DEMO_MCP = "http://127.0.0.1:47169/mcp"


def mcp_boxes(hosted: bool) -> list[dict[str, Any]]:
    defaults = ServerDefaults("http://127.0.0.1:9", "k", demo=True, hosted=hosted, mcp_url=DEMO_MCP, mcp_demo=True)
    config = build_app(Settings(), defaults).get_config_file()
    return [c["props"] for c in config["components"] if str(c["props"].get("elem_id", "")).endswith("-mcp-url")]


def test_a_visitor_of_a_hosted_page_sees_no_private_address_for_the_built_in_mcp_server() -> None:
    hosted, local = mcp_boxes(hosted=True), mcp_boxes(hosted=False)
    assert len(hosted) == len(local) == 4, "Chat, Responses, Messages and Native"
    assert all(box["value"] == "" and "mcp.built_in_address" in str(box["placeholder"]) for box in hosted), hosted
    assert all(box["value"] == DEMO_MCP for box in local)
