"""A gateway that echoes the key: in streamed text (split across deltas), in reasoning, in an
in-stream error event, in a whole answer, in an error inside a 200. The key must not reach
anything shown or saved: the result, the error, the exchange (raw events, bodies, headers, notes),
the chat tab's views, inspector, generated code and session file, the logs; nor the demo
gateway's access log (`?key=`). Against the demo gateway's `echo_key`
faults over real sockets; the browser test searches every byte the page received.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest

from playground.client.chat import ChatRequest
from playground.client.errors import GatewayError
from playground.client.exchange import REDACTED, Redactor, StreamRedactor
from playground.client.gateway import GatewayClient
from playground.client.messages import MessagesRequest
from playground.client.native import NativeRequest
from playground.client.responses import ResponsesRequest
from playground.client.transport import Connection
from playground.demo_gateway.server import RunningGateway, _RedactKeyParams
from playground.ui.tabs.chat.handlers import ChatAdapter, ChatForm
from playground.ui.shared.codegen import curl_snippet, python_snippet
from playground.ui.shared.connection import ServerDefaults
from playground.ui.shared.render import inspector_request, inspector_response
from playground.ui.session_files.panel import session_document
from tests.conftest import DEMO_KEY
from tests.ui.conversation.conversation_screen import send

SERVER_KEY = "sk-server-only-secret-777"


def _request(name: str, text: str, stream: bool) -> Any:
    if name == "chat":
        return ChatRequest.build(model="deepseek-reasoner", messages=[{"role": "user", "content": text}], stream=stream)
    if name == "messages":
        return MessagesRequest.build(model="cl-sonnet-4-5-20250929", messages=[{"role": "user", "content": text}], max_tokens=2048,
                                     thinking={"type": "enabled", "budget_tokens": 1500}, stream=stream)
    if name == "responses":
        return ResponsesRequest.build(model="o4-mini", input=text, reasoning={"effort": "low", "summary": "auto"}, stream=stream)
    return NativeRequest.build(model="gx-2.5-flash-thinking", contents=[{"role": "user", "parts": [{"text": text}]}],
                               generationConfig={"thinkingConfig": {"includeThoughts": True}})


def _api(client: GatewayClient, name: str) -> Any:
    return getattr(client, name)


def _shown(*things: Any) -> str:
    """Everything that reaches the browser or a file, as text."""
    out = []
    for thing in things:
        out.append(repr(thing))
        if hasattr(thing, "__dict__"):
            out.append(repr(vars(thing)))
    return "\n".join(out)


async def _run(client: GatewayClient, conn: Connection, name: str, text: str, stream: bool) -> tuple[Any, Any, GatewayError | None]:
    api = _api(client, name)
    request = _request(name, text, stream)
    if not stream:
        try:
            result, exchange = await api.create(conn, request)
        except GatewayError as error:
            return getattr(error, "partial", None), error.exchange, error
        return result, exchange, None
    opened = api.stream(conn, request)
    try:
        async with opened:
            async for _ in opened:
                pass
    except GatewayError as error:
        return opened.result, opened.exchange, error
    return opened.result, opened.exchange, None


@pytest.fixture
def logged(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    caplog.set_level(logging.DEBUG)
    yield caplog


@pytest.mark.parametrize("stream", [True, False], ids=["stream", "whole"])
@pytest.mark.parametrize("name", ["chat", "messages", "responses", "native"])
async def test_a_key_echoed_in_the_answer_is_redacted_everywhere(client: GatewayClient, gateway: RunningGateway, name: str, stream: bool,
                                                                logged: pytest.LogCaptureFixture) -> None:
    conn = Connection(gateway.url, DEMO_KEY, secrets=(SERVER_KEY,))
    result, exchange, error = await _run(client, conn, name, "hello [[fault:echo_key]]", stream)
    assert error is None, error
    assert f"Bearer {REDACTED}" in result.text
    everything = _shown(result, exchange, result.turn_items, exchange.events, exchange.response_body) + logged.text
    assert DEMO_KEY not in everything
    if stream:  # the demo streams the key in two pieces: neither reaches the raw events
        assert DEMO_KEY[:16] not in everything and DEMO_KEY[16:] not in everything


@pytest.mark.parametrize("stream", [True, False], ids=["stream", "whole"])
@pytest.mark.parametrize("name", ["chat", "messages", "responses", "native"])
async def test_a_key_echoed_in_an_error_is_redacted_from_the_message_and_the_record(client: GatewayClient, gateway: RunningGateway,
                                                                                   name: str, stream: bool,
                                                                                   logged: pytest.LogCaptureFixture) -> None:
    conn = Connection(gateway.url, DEMO_KEY)
    result, exchange, error = await _run(client, conn, name, "hello [[fault:echo_key_error]]", stream)
    assert error is not None and REDACTED in error.user_message
    assert DEMO_KEY not in _shown(error, error.user_message, exchange, exchange.events, exchange.response_body, result) + logged.text


@pytest.mark.parametrize("style", ["header", "query"])
async def test_native_keys_sent_in_a_header_or_the_url_are_redacted_too(client: GatewayClient, gateway: RunningGateway, style: str) -> None:
    conn = Connection(gateway.url, DEMO_KEY).with_auth(style)
    result, exchange, error = await _run(client, conn, "native", "hi [[fault:echo_key]]", True)
    assert error is None and REDACTED in result.text
    assert DEMO_KEY not in _shown(result, exchange, exchange.events, exchange.url)


def test_a_key_split_anywhere_is_never_let_out_in_part() -> None:
    """Fed one character at a time, or in any two pieces: what is shown never holds the key's start."""
    key = "KQ7-secret-ZZ91x"
    text = f"before {key} middle {key}{key} after"
    for size in (1, 2, 3, 5, 7):
        redact = StreamRedactor(Redactor((key,)))
        shown = ""
        for start in range(0, len(text), size):
            shown += redact.feed("text", text[start:start + size])
            assert key[:4] not in shown
        shown += "".join(redact.flush().values())
        assert shown == f"before {REDACTED} middle {REDACTED}{REDACTED} after"


def test_text_that_only_looks_like_the_start_of_a_key_is_shown_whole_at_the_end() -> None:
    redact = StreamRedactor(Redactor(("sk-abcdef",)))
    shown = redact.feed("text", "ends with sk-ab")
    assert shown == "ends with "
    assert shown + redact.flush()["text"] == "ends with sk-ab"


def test_a_key_spelled_with_json_escapes_is_caught() -> None:
    redactor = Redactor(("sk-abcdef",))
    raw = '{"delta": "\\u0073k-abc\\u0064ef and sk\\/x"}'
    assert "sk-abcdef" not in redactor.event_data(raw) and REDACTED in redactor.event_data(raw)


def test_the_demo_gateways_access_log_does_not_record_key_parameters() -> None:
    record = logging.LogRecord("uvicorn.access", logging.INFO, "", 0, '%s - "%s %s HTTP/%s" %d',
                               ("127.0.0.1:5", "POST", f"/v1beta/models/m:generateContent?alt=sse&key={DEMO_KEY}", "1.1", 200), None)
    _RedactKeyParams().filter(record)
    assert DEMO_KEY not in record.getMessage() and "key=***" in record.getMessage()


@pytest.mark.parametrize("stream", [True, False], ids=["stream", "whole"])
@pytest.mark.parametrize("fault", ["echo_key", "echo_key_error"])
async def test_the_chat_tab_shows_and_saves_no_echoed_server_key(client: GatewayClient, gateway: RunningGateway, fault: str, stream: bool,
                                                                 logged: pytest.LogCaptureFixture) -> None:
    """Through the tab's handler with the server's key (a visitor who typed none): every view the
    browser gets (chat, error banner, metrics), the inspector, the generated code and the session file."""
    defaults = ServerDefaults(gateway.url, DEMO_KEY, demo=True, hosted=True)
    adapter = ChatAdapter(client, ChatForm(model="gx-2.5-pro-thinking", stream=stream))
    views = await send(defaults, adapter, f"hello [[fault:{fault}]]")
    last = views[-1]
    if fault == "echo_key":
        assert REDACTED in repr(last.history)
    else:
        assert last.error  # the banner (escaped, cut to an excerpt) names the error
    shown = [repr(view.history) + view.error + view.notice + view.metrics + view.tool_label + repr(view.inspector) for view in views]
    exchange = last.exchange
    shown += [inspector_request(exchange), inspector_response(exchange), curl_snippet(exchange), python_snippet(exchange)]
    shown.append(json.dumps(session_document("chat", {"model": "gx-2.5-pro-thinking"}, last.history, last.session)))
    everything = "\n".join(shown) + logged.text
    for secret in (DEMO_KEY, DEMO_KEY[:16], DEMO_KEY[16:]):
        assert secret not in everything
