"""What the error banner says for a stalled whole answer, an error inside a 200, and a stream that
is not a stream (issue 20, "Wording")."""

from __future__ import annotations

import pytest

from playground.client import errors
from playground.client.chat import ChatRequest
from playground.client.gateway import GatewayClient
from playground.client.transport import Connection
from tests.conftest import READ_TIMEOUT
from tests.recorder import Recorder


def _chat(text: str, stream: bool = False) -> ChatRequest:
    return ChatRequest.build(model="gx-2.5-flash", messages=[{"role": "user", "content": text}], stream=stream)


async def test_a_whole_answer_that_stalls_halfway_says_it_went_silent(client: GatewayClient, conn: Connection) -> None:
    with pytest.raises(errors.APITimeoutError) as caught:
        await client.chat.create(conn, _chat("hi [[fault:body_stall]]"))
    message = caught.value.user_message
    assert f"went silent for {READ_TIMEOUT:g} s" in message and "ReadTimeout" not in message and "cut" not in message
    assert caught.value.exchange.attempts == 1


async def test_an_error_inside_a_200_says_so(client: GatewayClient, conn: Connection) -> None:
    with pytest.raises(errors.ErrorInAnswerError) as caught:
        await client.chat.create(conn, _chat("hi [[fault:body_error]]"))
    error = caught.value
    assert "reported an error inside a successful answer" in error.title
    assert "The upstream model failed" in error.user_message and "Check the request parameters" not in error.user_message
    assert error.status == 200


async def test_a_stream_that_is_an_html_page_does_not_claim_partial_output(client: GatewayClient) -> None:
    with Recorder().running() as page, pytest.raises(errors.StreamError) as caught:
        async with client.chat.stream(Connection(page.url, "k"), _chat("hi", stream=True)) as stream:
            async for _ in stream:
                pass
    assert "partial output is kept" not in caught.value.user_message and "Nothing of the reply arrived" in caught.value.user_message


async def test_a_stream_cut_after_text_still_says_the_partial_output_is_kept(client: GatewayClient, conn: Connection) -> None:
    with pytest.raises(errors.StreamError) as caught:
        async with client.chat.stream(conn, _chat("hi [[fault:cut]]", stream=True)) as stream:
            async for _ in stream:
                pass
    assert stream.result.text and "partial output is kept" in caught.value.user_message
