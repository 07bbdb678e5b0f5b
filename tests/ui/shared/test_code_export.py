"""Exported code reproduces the exact request: a call made from a tab, re-run as the generated
curl and Python against the demo gateway with the key from the environment, answers the same."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, strategies as st

from playground.client.exchange import Exchange
from playground.client.gateway import GatewayClient
from playground.demo_gateway.server import RunningGateway
from playground.ui.tabs.chat.handlers import ChatAdapter, ChatForm
from playground.ui.shared.codegen import curl_snippet, python_literal, python_snippet
from playground.ui.shared.connection import ServerDefaults
from playground.ui.tabs.messages.handlers import MessagesAdapter, MessagesForm
from playground.ui.tabs.native.handlers import NativeAdapter, NativeForm
from playground.ui.tabs.responses.handlers import ResponsesAdapter, ResponsesForm
from tests.conftest import DEMO_KEY
from tests.ui.conversation.conversation_screen import send

VOLATILE = ("created", "created_at")


def stable(body: Any) -> Any:
    if isinstance(body, dict):
        return {k: stable(v) for k, v in body.items() if k not in VOLATILE}
    if isinstance(body, list):
        return [stable(v) for v in body]
    return body


def run(command: list[str]) -> str:
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, env={**os.environ, "GATEWAY_API_KEY": DEMO_KEY})
    assert done.returncode == 0, done.stderr
    return done.stdout


def streamed_text(lines: list[str]) -> str:
    text = []
    for line in lines:
        if line.strip() in ("", "[DONE]"):
            continue
        data = json.loads(line)
        for choice in data.get("choices") or []:
            text.append((choice.get("delta") or {}).get("content") or "")
        if data.get("type") == "content_block_delta":
            text.append(data["delta"].get("text", ""))
        if data.get("type") == "response.output_text.delta":
            text.append(data.get("delta", ""))
        for candidate in data.get("candidates") or []:
            text.extend(part.get("text", "") for part in (candidate.get("content") or {}).get("parts") or [] if not part.get("thought"))
    return "".join(text)


async def exchange_from_tab(client: GatewayClient, gateway: RunningGateway, adapter: Any, text: str) -> Exchange:
    defaults = ServerDefaults(gateway.url, DEMO_KEY, demo=True)
    views = await send(defaults, adapter, text)
    exchange = views[-1].exchange
    assert exchange is not None and not views[-1].error
    assert views[-1].inspector[3:] == (curl_snippet(exchange), python_snippet(exchange)), "the code the inspector shows"
    return exchange


def whole(client: GatewayClient, tab: str) -> Any:
    return {
        "chat": lambda: ChatAdapter(client, ChatForm(model="gx-2.5-pro", stream=False, system="Be brief.", temperature=0.3)),
        "messages": lambda: MessagesAdapter(client, MessagesForm(model="cl-haiku-4-5-20251001", stream=False, system="Be brief.")),
        "responses": lambda: ResponsesAdapter(client, ResponsesForm(model="o4-mini", stream=False, instructions="Be brief.")),
        "native": lambda: NativeAdapter(client, NativeForm(model="gx-2.5-flash", stream=False, system="Be brief.", auth="key= in the URL")),
    }[tab]()


def streamed(client: GatewayClient, tab: str) -> Any:
    return {
        "chat": lambda: ChatAdapter(client, ChatForm(model="gx-2.5-flash")),
        "messages": lambda: MessagesAdapter(client, MessagesForm(model="cl-sonnet-4-5-20250929")),
        "responses": lambda: ResponsesAdapter(client, ResponsesForm(model="gpt-4.1")),
        "native": lambda: NativeAdapter(client, NativeForm(model="gx-2.5-flash", auth="x-svc-api-key header")),
    }[tab]()


@pytest.mark.parametrize("tab", ["chat", "messages", "responses", "native"])
async def test_whole_answers_are_reproduced_by_curl_and_python(client: GatewayClient, gateway: RunningGateway, tab: str) -> None:
    adapter = whole(client, tab)
    exchange = await exchange_from_tab(client, gateway, adapter, "what's new, it's 'quoted'?")
    curl, python = curl_snippet(exchange), python_snippet(exchange)
    assert DEMO_KEY not in curl + python
    by_curl = json.loads(run(["bash", "-c", curl]))
    by_python = json.loads(run([sys.executable, "-c", python]))
    assert stable(by_curl) == stable(exchange.response_body) == stable(by_python)


@pytest.mark.parametrize("tab", ["chat", "messages", "responses", "native"])
async def test_streams_are_reproduced_by_curl_and_python(client: GatewayClient, gateway: RunningGateway, tab: str) -> None:
    adapter = streamed(client, tab)
    exchange = await exchange_from_tab(client, gateway, adapter, "stream this back")
    recorded = streamed_text([event.data for event in exchange.events])
    by_curl = streamed_text([line[len("data: "):] for line in run(["bash", "-c", curl_snippet(exchange)]).splitlines() if line.startswith("data: ")])
    by_python = streamed_text(run([sys.executable, "-c", python_snippet(exchange)]).splitlines())
    assert recorded and by_curl == recorded == by_python


async def test_curl_sends_content_type_once(client: GatewayClient, gateway: RunningGateway) -> None:
    exchange = await exchange_from_tab(client, gateway, whole(client, "chat"), "one header")
    curl = curl_snippet(exchange)
    assert sum(line.lower().count("content-type:") for line in curl.splitlines()) == 1, curl


async def test_a_failed_stream_is_exported_as_a_stream(client: GatewayClient, gateway: RunningGateway) -> None:
    """A streamed call the gateway refused (no events arrived) is still exported in streaming form."""
    defaults = ServerDefaults(gateway.url, DEMO_KEY, demo=True)
    adapter = ChatAdapter(client, ChatForm(model="no-such-model-here"))
    views = await send(defaults, adapter, "hello")
    exchange = views[-1].exchange
    assert views[-1].error and exchange is not None and exchange.status == 404 and not exchange.events
    python, curl = python_snippet(exchange), curl_snippet(exchange)
    assert "httpx.stream(" in python and "httpx.request(" not in python
    assert curl.startswith("curl -sS -N ")


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text()
    | st.lists(st.sampled_from(['true', 'null', 'false', '"', '\\', '\\"', '\n', '\x00', 'é', 'x']), max_size=6).map(''.join),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=20)


@given(JSON_VALUES)
def test_the_python_body_is_the_request_body(value: Any) -> None:
    """The generated Python carries the body as a literal that evaluates to it exactly, whatever
    its strings hold (quotes, backslashes, control characters, the words true/false/null)."""
    assert eval(python_literal(value)) == value
