"""The shared call machinery against misbehaving gateways: whole answers checked like streams,
no resend after the request was sent, errors that carry their call, plain-text upstream words."""

from __future__ import annotations

import pytest

from playground.client import errors
from playground.client.chat import ChatRequest
from playground.client.gateway import GatewayClient
from playground.client.messages import MessagesRequest
from playground.client.transport import Connection
from playground.ui.shared.render import error_text, inspector_response
from playground.ui.shared.metrics import metrics_text
from tests.conftest import READ_TIMEOUT, RecordingSleep


def chat(text: str, stream: bool = False) -> ChatRequest:
    return ChatRequest.build(model="gx-2.5-flash", messages=[{"role": "user", "content": text}], stream=stream)


def message(text: str) -> MessagesRequest:
    return MessagesRequest.build(model="cl-sonnet-4-5-20250929", messages=[{"role": "user", "content": text}], max_tokens=100)


BODY_FAULTS = [
    ("body_truncated", errors.UnexpectedResponseError, "not valid JSON"),
    ("body_html", errors.UnexpectedResponseError, "HTML page"),
    ("body_sse", errors.UnexpectedResponseError, "event stream"),
    ("body_empty", errors.UnexpectedResponseError, "empty"),
    ("body_shape", errors.UnexpectedResponseError, "result, items"),
    ("body_error", errors.APIStatusError, "upstream model failed"),
]


@pytest.mark.parametrize(("fault", "error_class", "words"), BODY_FAULTS, ids=[f[0] for f in BODY_FAULTS])
@pytest.mark.parametrize("interface", ["chat", "messages"])
async def test_whole_answers_are_checked_like_streams(client: GatewayClient, conn: Connection, interface: str, fault: str,
                                                       error_class: type, words: str) -> None:
    api, request = (client.chat, chat(f"hi [[fault:{fault}]]")) if interface == "chat" else (client.messages, message(f"hi [[fault:{fault}]]"))
    with pytest.raises(error_class) as caught:
        await api.create(conn, request)
    assert words in str(caught.value)
    assert caught.value.exchange is not None and caught.value.exchange.status == 200
    assert "Error" not in error_text(caught.value).split("—")[0]


async def test_a_silent_gateway_is_not_asked_twice(client: GatewayClient, conn: Connection, sleeps: RecordingSleep) -> None:
    with pytest.raises(errors.APITimeoutError) as caught:
        await client.chat.create(conn, chat("hi [[fault:stall]]"))
    assert caught.value.exchange.attempts == 1 and sleeps.waits == []
    assert f"within {READ_TIMEOUT:g} s" in str(caught.value) and "not sent again" in str(caught.value)


async def test_a_long_retry_after_is_not_waited_for_and_is_told(client: GatewayClient, conn: Connection, sleeps: RecordingSleep) -> None:
    with pytest.raises(errors.RateLimitError) as caught:
        await client.chat.create(conn, chat("hi [[fault:rate_limit_long]]"))
    assert caught.value.exchange.attempts == 1 and sleeps.waits == []
    assert "about 120 s" in caught.value.user_message


async def test_failed_call_shows_every_attempt_and_its_status(client: GatewayClient, conn: Connection) -> None:
    with pytest.raises(errors.ServerError) as caught:
        await client.chat.create(conn, chat("hi [[fault:server_error:5]]"))
    shown = inspector_response(caught.value.exchange)
    assert "3 attempt(s)" in shown and "attempts: 500 → 500 → 500" in shown


async def test_an_html_error_page_is_one_plain_line(client: GatewayClient, conn: Connection) -> None:
    with pytest.raises(errors.ServerError) as caught:
        await client.chat.create(conn, chat("hi [[fault:html_error]]"))
    banner = error_text(caught.value)
    assert "502 Bad Gateway" in banner and "<h1>" not in banner and "<script" not in banner and "alert" not in banner
    assert "\n" not in banner and len(banner) < 600


def test_upstream_markdown_and_html_are_not_rendered() -> None:
    error = errors.BadRequestError(400, "# Big <img src=x onerror=alert(1)> [click](http://evil) **bold**")
    banner = error_text(error)
    assert "<img" not in banner and "\\# Big" in banner and "\\[click\\]" in banner and "\\*\\*bold\\*\\*" in banner
    assert banner.startswith("**The gateway rejected the request** — ")


async def test_non_streaming_metrics_show_total_time_not_token_rate(client: GatewayClient, conn: Connection) -> None:
    result, exchange = await client.chat.create(conn, chat("hello"))
    shown = metrics_text(result, exchange)
    assert "not streamed" in shown and "total" in shown and "tokens/s" not in shown and "first token" not in shown


async def test_keys_and_texts_that_cannot_be_sent_are_explained(client: GatewayClient, gateway: object, conn: Connection) -> None:
    with pytest.raises(errors.RequestValidationError) as caught:
        await client.chat.create(Connection(conn.base_url, "sk-ключ-1234"), chat("hi"))
    assert "API key" in str(caught.value) and "ключ" not in str(caught.value)
    with pytest.raises(errors.RequestValidationError) as caught:
        await client.chat.create(conn, chat("broken \ud800 text"))
    assert "cannot be sent" in str(caught.value)


async def test_video_task_404_hint_fits_the_call(client: GatewayClient, conn: Connection) -> None:
    with pytest.raises(errors.NotFoundError) as caught:
        await client.video.query(conn, "video_doesnotexist")
    assert "no task with this id" in caught.value.user_message and "model" not in caught.value.hint
    with pytest.raises(errors.NotFoundError) as caught:
        await client.chat.create(conn, ChatRequest.build(model="no-such-model", messages=[{"role": "user", "content": "x"}]))
    assert "model name" in caught.value.hint
