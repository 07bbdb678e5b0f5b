"""A hosted page's visitor reads the built-in demo gateway's and demo MCP server's private addresses in
words wherever a call is shown (the inspector, the generated code, the MCP panel's exchanges, an
error's banner and a video's failed polls); locally
every address, and for a visitor every other address, is shown as it is."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from playground.client.errors import APITimeoutError
from playground.client.exchange import Exchange
from playground.client.texts import Text
from playground.settings import Settings
from playground.ui import i18n
from playground.ui.app import build_app
from playground.ui.conversation.mcp_tools import exchanges_text
from playground.ui.i18n import AUDIENCE_HEADER
from playground.ui.shared import own_addresses
from playground.ui.shared.codegen import curl_snippet, python_snippet
from playground.ui.shared.connection import ServerDefaults
from playground.ui.shared.render import error_text, inspector_request, inspector_response
from playground.ui.tabs.video.board import _poll_failed

GATEWAY, MCP = "http://127.0.0.1:47161", "http://127.0.0.1:47169"


class Reader:
    def __init__(self, visitor: bool, language: str = "en") -> None:
        self.headers = {"accept-language": language, **({AUDIENCE_HEADER: "visitor"} if visitor else {})}


@pytest.fixture(scope="module", autouse=True)
def hosted_demo_page() -> Iterator[None]:
    kept = dict(own_addresses._OWN)
    build_app(Settings(), ServerDefaults(f"{GATEWAY}/v1", "k", demo=True, hosted=True, mcp_url=f"{MCP}/mcp", mcp_demo=True))
    yield
    own_addresses._OWN.clear()
    own_addresses._OWN.update(kept)


def call(url: str) -> Exchange:
    exchange = Exchange("POST", url, {"content-type": "application/json"}, {"model": "gx-2.5-flash"})
    exchange.status, exchange.error = 502, f"could not reach {url}"
    return exchange


def shown(exchange: Exchange) -> str:
    return "\n".join((inspector_request(exchange), inspector_response(exchange), curl_snippet(exchange), python_snippet(exchange),
                      exchanges_text([exchange]), error_text(APITimeoutError(Text("transport.could_not_connect_time", where=exchange.url))),
                      _poll_failed(3, 1, f"could not reach {exchange.url}")))


def test_a_visitor_reads_the_demo_gateways_and_mcp_servers_addresses_in_words(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "current_request", lambda: Reader(visitor=True))
    text = shown(call(f"{GATEWAY}/v1/chat/completions")) + shown(call(f"{MCP}/mcp"))
    assert "127.0.0.1" not in text
    assert "(the built-in demo gateway)/v1/chat/completions" in text and "(the built-in demo MCP server)/mcp" in text
    monkeypatch.setattr(i18n, "current_request", lambda: Reader(visitor=True, language="zh-CN"))
    assert "(内置的演示网关)/v1/chat/completions" in shown(call(f"{GATEWAY}/v1/chat/completions"))


def test_other_addresses_and_a_local_reader_see_every_address_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "current_request", lambda: Reader(visitor=True))
    for other in ("https://gateway.example.com/v1/chat/completions", f"{GATEWAY}1/v1/chat/completions", "http://127.0.0.1:4716/v1/x"):
        assert other in shown(call(other)), other
    monkeypatch.setattr(i18n, "current_request", lambda: Reader(visitor=False))
    assert f"{GATEWAY}/v1/chat/completions" in shown(call(f"{GATEWAY}/v1/chat/completions"))
