"""Where the key travels (Bearer, x-svc-api-key, key=) and that it is redacted everywhere."""

from __future__ import annotations

import logging

import pytest

from playground.client.transport import Connection, Transport
from playground.ui.shared.codegen import curl_snippet, python_snippet
from playground.ui.shared.render import inspector_request

KEY = "sk-native-secret-777"


@pytest.mark.parametrize(
    ("style", "header", "in_query"),
    [("bearer", "authorization", False), ("header", "x-svc-api-key", False), ("query", None, True)],
)
async def test_key_placement_and_redaction(style: str, header: str | None, in_query: bool, caplog: pytest.LogCaptureFixture) -> None:
    transport = Transport()
    conn = Connection("http://127.0.0.1:9", KEY).with_auth(style)
    request = transport._build(conn, "POST", "/v1beta/models/gx-2.5-flash:generateContent", {"contents": []}, {"alt": "sse"})
    sent_headers = {k.lower(): v for k, v in request.headers.items()}
    assert (KEY in str(request.url)) is in_query
    assert request.url.params.get("alt") == "sse"
    if header:
        assert KEY in sent_headers[header]
    other = {"authorization", "x-svc-api-key"} - {header}
    assert not other & set(sent_headers)
    exchange = transport._exchange(request, {"contents": []})
    shown = [exchange.url, str(exchange.request_headers), inspector_request(exchange), curl_snippet(exchange), python_snippet(exchange)]
    assert all(KEY not in text for text in shown)
    assert "GATEWAY_API_KEY" in curl_snippet(exchange) and "GATEWAY_API_KEY" in python_snippet(exchange)
    with caplog.at_level(logging.INFO, logger="httpx"):
        logging.getLogger("httpx").info('HTTP Request: %s %s "%s %d %s"', "POST", request.url, "HTTP/1.1", 200, "OK")
    assert KEY not in caplog.text
    if in_query:
        assert "key=***" in caplog.text
    await transport.aclose()


def test_unknown_auth_style_is_refused() -> None:
    with pytest.raises(ValueError):
        Connection("http://x", KEY).with_auth("cookie")
