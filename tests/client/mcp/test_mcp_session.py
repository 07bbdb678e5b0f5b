"""The client's MCP side over real sockets: the demo MCP server listed and called; a server that
is down, stalls, closes mid-call, answers out of protocol or too much gives one clear error (with
its exchanges); the credential never reaches a record or a log; hosted mode refuses a private
address before connecting."""

from __future__ import annotations

import json
import logging

import pytest

from playground.client.egress import EgressGuard
from playground.client.limits import LimitError, SessionQuota
from playground.client.mcp.errors import (
    MCPClosedError,
    MCPProtocolError,
    MCPServerError,
    MCPTimeoutError,
    MCPTooLargeError,
    MCPUnreachableError,
)
from playground.client.mcp.session import MCPAddress, MCPLink
from playground.demo_mcp.server import RunningServer, free_port
from tests.client.mcp.misbehaving import RunningMisbehaving

SECRET = "mcp-secret-token-8842"


async def test_lists_the_demo_tools_with_their_schemas(demo_mcp: RunningServer) -> None:
    listing = await MCPLink().list_tools(MCPAddress(demo_mcp.url))
    tools = {tool.name: tool for tool in listing.tools}
    assert set(tools) == {"calculator", "convert_units", "lookup_element"}
    assert tools["convert_units"].input_schema["required"] == ["value", "from_unit", "to_unit"]
    assert listing.server == "playground-demo-tools"
    assert [exchange.request_body["method"] for exchange in listing.exchanges][-1] == "tools/list"


async def test_calls_a_tool_and_keeps_both_sides_of_the_exchange(demo_mcp: RunningServer) -> None:
    outcome = await MCPLink().call_tool(MCPAddress(demo_mcp.url), "calculator", {"expression": "17*23"})
    assert not outcome.is_error and json.loads(outcome.text)["result"] == 391
    call = next(exchange for exchange in outcome.exchanges if exchange.request_body["method"] == "tools/call")
    assert call.request_body["params"]["arguments"] == {"expression": "17*23"}
    assert call.status == 200 and "391" in json.dumps(call.response_body)


async def test_a_tool_that_cannot_use_its_arguments_is_a_result_not_an_error(demo_mcp: RunningServer) -> None:
    outcome = await MCPLink().call_tool(MCPAddress(demo_mcp.url), "convert_units", {"value": 5, "from_unit": "km", "to_unit": "kg"})
    assert outcome.is_error and "they measure different things" in outcome.text


@pytest.mark.parametrize(("fault", "error", "words"), [
    ("stall", MCPTimeoutError, "No answer within 1 s"),
    ("close", MCPClosedError, "closed before the answer was complete"),
    ("malformed", MCPProtocolError, "could not be read as MCP"),
    ("not_json", MCPProtocolError, "not readable JSON"),
    ("deep", MCPProtocolError, "could not be read as MCP"),
    ("huge", MCPTooLargeError, "passed 1,000,000 bytes"),
    ("error_status", MCPUnreachableError, "HTTP status 502"),
    ("rpc_error", MCPProtocolError, "the tool's backend is down"),
])
async def test_a_misbehaving_server_gives_one_clear_error(misbehaving: RunningMisbehaving, fault: str, error: type[MCPServerError], words: str) -> None:
    with pytest.raises(error) as raised:
        await MCPLink(call_timeout=1.0).call_tool(MCPAddress(misbehaving.url), fault, {})
    assert words in raised.value.message and raised.value.hint
    assert raised.value.exchanges and raised.value.exchange is raised.value.exchanges[-1]


async def test_the_link_works_again_after_a_failed_call(misbehaving: RunningMisbehaving) -> None:
    link = MCPLink(call_timeout=1.0)
    with pytest.raises(MCPClosedError):
        await link.call_tool(MCPAddress(misbehaving.url), "close", {})
    outcome = await link.call_tool(MCPAddress(misbehaving.url), "calculator", {"expression": "2 + 2"})
    assert json.loads(outcome.text)["result"] == 4


async def test_too_many_tools_are_refused(misbehaving: RunningMisbehaving) -> None:
    with pytest.raises(MCPProtocolError, match="lists 100 tools; at most 64"):
        await MCPLink().list_tools(MCPAddress(misbehaving.url.replace("/mcp", "/many")))


async def test_a_server_that_is_down_is_named() -> None:
    url = f"http://127.0.0.1:{free_port()}/mcp"
    with pytest.raises(MCPUnreachableError, match=f"Nothing answered at {url}"):
        await MCPLink().list_tools(MCPAddress(url))


@pytest.mark.parametrize("header", ["", "X-Tools-Key"])
async def test_the_credential_is_sent_but_never_recorded_or_logged(misbehaving: RunningMisbehaving, caplog: pytest.LogCaptureFixture, header: str) -> None:
    caplog.set_level(logging.DEBUG)
    address = MCPAddress(misbehaving.url, credential=SECRET, header=header)
    outcome = await MCPLink().call_tool(address, "calculator", {"expression": "1 + 1"})
    with pytest.raises(MCPClosedError) as failed:
        await MCPLink().call_tool(address, "close", {})
    sent = misbehaving.app.headers[-1]
    assert sent.get((header or "authorization").lower()) == (SECRET if header else f"Bearer {SECRET}")
    recorded = repr(outcome.exchanges) + repr(failed.value.exchanges) + str(failed.value) + repr(address)
    assert SECRET not in recorded and SECRET not in caplog.text
    assert "***" in json.dumps(outcome.exchanges[-1].request_headers)


async def test_hosted_mode_refuses_a_private_address_before_connecting(misbehaving: RunningMisbehaving) -> None:
    before = misbehaving.app.requests
    hosted = MCPLink(guard=EgressGuard())
    for url in (misbehaving.url, "http://10.0.0.7/mcp", "http://[::1]:9/mcp"):
        with pytest.raises(MCPUnreachableError, match="is not used") as refused:
            await hosted.list_tools(MCPAddress(url))
        assert refused.value.exchanges == []
    assert misbehaving.app.requests == before


async def test_hosted_mode_checks_the_address_it_connects_to(misbehaving: RunningMisbehaving) -> None:
    """A name that resolved to a public address for the check and to loopback for the connection
    (DNS rebinding) is refused at the connection: the guard sits under the SDK's HTTP client."""
    answers = iter([["93.184.216.34"], ["127.0.0.1"]])

    async def rebinding(host: str, port: int) -> list[str]:
        return next(answers, ["127.0.0.1"])

    before = misbehaving.app.requests
    port = misbehaving.url.split(":")[2].split("/")[0]
    with pytest.raises(MCPUnreachableError, match="loopback"):
        await MCPLink(guard=EgressGuard(resolver=rebinding)).list_tools(MCPAddress(f"http://tools.example:{port}/mcp"))
    assert misbehaving.app.requests == before


async def test_a_visitors_quota_counts_mcp_calls(demo_mcp: RunningServer) -> None:
    quota = SessionQuota(requests_per_minute=2)
    link, address = MCPLink(), MCPAddress(demo_mcp.url)
    await link.list_tools(address, quota=quota)
    await link.call_tool(address, "calculator", {"expression": "1 + 1"}, quota=quota)
    with pytest.raises(LimitError, match="PLAYGROUND_REQUESTS_PER_MINUTE"):
        await link.call_tool(address, "calculator", {"expression": "1 + 1"}, quota=quota)
