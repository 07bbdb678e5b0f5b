"""The native client against the demo gateway over a real socket: rules, stream equals whole,
the three ways to send the key (and `key=` hidden everywhere), thinking, images, functions,
grounding citations by byte offsets, faults."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from playground.client import errors
from playground.client.gateway import GatewayClient
from playground.client.native import NativeRequest, cite
from playground.client.results import TextResult
from playground.client.transport import Connection
from playground.ui.shared.codegen import curl_snippet, python_snippet
from playground.ui.shared.render import error_text, inspector_request, inspector_response
from tests.conftest import DEMO_KEY

WEATHER = {"functionDeclarations": [{"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}]}


def ask(text: str = "hello", **fields: Any) -> NativeRequest:
    return NativeRequest.build(**{"model": "gx-2.5-flash", "contents": [{"role": "user", "parts": [{"text": text}]}], **fields})


async def run(client: GatewayClient, conn: Connection, request: NativeRequest, stream: bool) -> TextResult:
    if not stream:
        return (await client.native.create(conn, request))[0]
    async with client.native.stream(conn, request) as reply:
        async for _ in reply:
            pass
    return reply.result


@pytest.mark.parametrize(("fields", "words"), [
    ({"contents": []}, "contents"), ({"contents": [{"role": "assistant", "parts": [{"text": "x"}]}]}, "role"),
    ({"contents": [{"role": "user", "parts": [{"video": 1}]}]}, "must hold one of"),
    ({"contents": [{"role": "user", "parts": [{"inlineData": {"data": "x"}}]}]}, "needs mimeType and data"),
    ({"contents": [{"role": "user", "parts": [{"text": "q"}]}, {"role": "model", "parts": [{"functionCall": {"name": "f"}}]},
                   {"role": "user", "parts": [{"text": "no response"}]}]}, "must carry a functionResponse"),
    ({"generationConfig": {"temperature": 3}}, "temperature"), ({"generationConfig": {"topP": 2}}, "topP"),
    ({"generationConfig": {"maxOutputTokens": 0}}, "maxOutputTokens"), ({"generationConfig": {"responseModalities": ["AUDIO"]}}, "responseModalities"),
    ({"generationConfig": {"thinkingConfig": {"thinkingBudget": 100, "thinkingLevel": "LOW"}}}, "not both"),
    ({"generationConfig": {"thinkingConfig": {"thinkingLevel": "MEDIUM"}}}, "thinkingLevel"),
    ({"tools": [{"functionDeclarations": [{}], "svcSearch": {}}]}, "separate"),
    ({"toolConfig": {"functionCallingConfig": {"mode": "SOMETIMES"}}}, "mode"),
    ({"safetySettings": [{"category": "HARM_CATEGORY_HATE_SPEECH"}]}, "threshold"),
])
def test_every_rule_is_checked_before_sending(fields: dict[str, Any], words: str) -> None:
    with pytest.raises(errors.RequestValidationError) as caught:
        ask(**fields)
    assert words in str(caught.value)


def test_the_model_goes_in_the_path_not_the_body(client: GatewayClient) -> None:
    request = ask(model="gx-2.5-pro-thinking-1024")
    assert "model" not in request.to_body()
    assert client.native.route(request, True) == ("/v1beta/models/gx-2.5-pro-thinking-1024:streamGenerateContent", {"alt": "sse"})


async def test_stream_equals_whole_with_thoughts(client: GatewayClient, conn: Connection) -> None:
    request = ask("why is the sky blue?", generationConfig={"thinkingConfig": {"thinkingBudget": 512}})
    whole, streamed = await run(client, conn, request, False), await run(client, conn, request, True)
    assert whole.text == streamed.text and whole.reasoning == streamed.reasoning and whole.reasoning
    assert whole.usage == streamed.usage and whole.usage.reasoning_tokens and streamed.finish_reason == "STOP"
    assert any(part.get("thought") and part.get("thoughtSignature") for part in streamed.turn_items[0]["parts"])


async def test_signed_parts_are_replayed_as_received_and_only_unsigned_text_is_merged(client: GatewayClient, conn: Connection) -> None:
    """The answer's signature arrives on an empty text part of the last chunk: it stays there."""
    request = ask("why is the sky blue?", generationConfig={"thinkingConfig": {"thinkingBudget": 512}})
    streamed = await run(client, conn, request, True)
    async with client.native.stream(conn, request) as reply:
        async for _ in reply:
            pass
    received = [part for event in reply.exchange.events for part in json.loads(event.data)["candidates"][0]["content"]["parts"]]
    replayed = reply.result.turn_items[0]["parts"]
    assert [part for part in replayed if "thoughtSignature" in part] == [part for part in received if "thoughtSignature" in part]
    assert replayed[-1] == received[-1] and received[-1]["text"] == "" and received[-1]["thoughtSignature"]
    assert "".join(part["text"] for part in replayed if not part.get("thought")) == streamed.text
    assert "".join(part["text"] for part in replayed if part.get("thought")) == streamed.reasoning
    assert len(replayed) < len(received) / 2  # unsigned pieces of one kind are merged


@pytest.mark.parametrize("style", ["bearer", "header", "query"])
async def test_every_way_of_sending_the_key_works_and_a_wrong_key_is_refused(client: GatewayClient, conn: Connection, style: str,
                                                                             caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="httpx"):
        result, exchange = await client.native.create(conn.with_auth(style), ask("keys"))
        async with client.native.stream(conn.with_auth(style), ask("keys")) as reply:
            async for _ in reply:
                pass
    assert result.text and reply.result.text
    shown = [exchange.url, str(exchange.request_headers), inspector_request(exchange), inspector_response(exchange),
             curl_snippet(exchange), python_snippet(exchange), caplog.text, reply.exchange.url]
    assert all(DEMO_KEY not in text for text in shown)
    with pytest.raises(errors.AuthenticationError) as caught:
        await client.native.create(Connection(conn.base_url, "sk-wrong-native-key").with_auth(style), ask())
    assert "sk-wrong-native-key" not in error_text(caught.value) + inspector_request(caught.value.exchange)


@pytest.mark.parametrize("stream", [False, True])
async def test_images_are_checked_saved_and_listed(client: GatewayClient, conn: Connection, stream: bool) -> None:
    result = await run(client, conn, ask("a lighthouse", generationConfig={"responseModalities": ["TEXT", "IMAGE"]}), stream)
    assert len(result.files) == 1 and Path(result.files[0]).suffix == ".png"
    with Image.open(result.files[0]) as image:
        assert image.size == (256, 160)


@pytest.mark.parametrize("stream", [False, True])
async def test_function_call_round_trip(client: GatewayClient, conn: Connection, stream: bool) -> None:
    first = await run(client, conn, ask("weather in Oslo?", tools=[WEATHER]), stream)
    assert first.tool_calls[0].name == "get_weather" and json.loads(first.tool_calls[0].arguments)["city"] == "Oslo"
    contents = [{"role": "user", "parts": [{"text": "weather in Oslo?"}]}, first.turn_items[0],
                {"role": "user", "parts": [{"functionResponse": {"name": "get_weather", "response": {"temp_c": 3}}}]}]
    second = await run(client, conn, NativeRequest.build(model="gx-2.5-flash", contents=contents, tools=[WEATHER]), stream)
    assert "temp 3 °C" in second.text


@pytest.mark.parametrize("stream", [False, True])
async def test_grounding_sources_and_citations(client: GatewayClient, conn: Connection, stream: bool) -> None:
    result = await run(client, conn, ask("Straße", tools=[{"svcSearch": {}}]), stream)
    assert [s["url"] for s in result.sources] == ["https://docs.example.com/gateway", "https://news.example.com/gateway"]
    assert "Gateway guide gibt einen Überblick dazu.[1]" in result.text and "Gateway news berichtet" in result.text
    assert result.grounding["webSearchQueries"] == ["Straße"]
    english = await run(client, conn, ask("What is the gateway?", tools=[{"svcSearch": {}}]), stream)
    assert "one base URL and one key (Gateway guide).[1]" in english.text and "Überblick" not in english.text


def test_citations_land_on_the_right_characters_for_multibyte_text() -> None:
    answer = "Größe ✓ passt. Zweiter Satz."
    end = len("Größe ✓ passt.".encode())
    cited, sources = cite(answer, {"groundingChunks": [{"web": {"uri": "https://a.example", "title": "A"}}],
                                   "groundingSupports": [{"segment": {"endIndex": end}, "groundingChunkIndices": [0]}]})
    assert cited == "Größe ✓ passt.[1] Zweiter Satz." and sources == [{"title": "A", "url": "https://a.example"}]


@pytest.mark.parametrize("stream", [False, True])
async def test_a_blocked_prompt_says_so_keeps_the_usage_and_does_not_offer_retry(client: GatewayClient, conn: Connection,
                                                                                  stream: bool) -> None:
    with pytest.raises(errors.PromptBlockedError) as caught:
        await run(client, conn, ask("how to pick a lock [[fault:prompt_blocked]]"), stream)
    banner = error_text(caught.value)
    assert "prompt was blocked" in banner and "SAFETY" in banner and "Retry" not in banner and "partial" not in banner
    assert caught.value.partial.usage.input_tokens and caught.value.exchange.status == 200  # type: ignore[attr-defined]
    with pytest.raises(errors.NotFoundError):
        await client.native.create(conn, ask(model="gx-unknown"))


@pytest.mark.parametrize("stream", [False, True])
async def test_a_native_error_is_labelled_by_its_status_name(client: GatewayClient, conn: Connection, stream: bool) -> None:
    with pytest.raises(errors.ServerError) as caught:
        await run(client, conn, ask(f"hi {stream} [[fault:unavailable:3]]"), stream)
    assert "HTTP 503 UNAVAILABLE:" in str(caught.value) and "503 503" not in str(caught.value)


@pytest.mark.parametrize(("fault", "error_class"), [("cut", errors.IncompleteStreamError), ("stream_error", errors.StreamEventError),
                                                     ("malformed", errors.MalformedEventError)])
async def test_stream_faults_keep_partial_text(client: GatewayClient, conn: Connection, fault: str, error_class: type) -> None:
    with pytest.raises(error_class) as caught:
        await run(client, conn, ask(f"a long story [[fault:{fault}]]"), True)
    assert caught.value.partial.text  # type: ignore[attr-defined]


async def test_status_and_body_faults(client: GatewayClient, conn: Connection) -> None:
    result, exchange = await client.native.create(conn, ask("hi [[fault:rate_limit]]"))
    assert result.text and exchange.attempts == 2
    with pytest.raises(errors.UnexpectedResponseError):
        await client.native.create(conn, ask("hi [[fault:body_html]]"))


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize("model", ["gx-2.5-flash-image", "gx-3-pro-image-preview"])
async def test_the_image_models_answer_on_the_native_endpoints(client: GatewayClient, conn: Connection, model: str, stream: bool) -> None:
    result = await run(client, conn, ask("a lighthouse", model=model, generationConfig={"responseModalities": ["TEXT", "IMAGE"]}), stream)
    assert result.complete and len(result.files) == 1 and Path(result.files[0]).suffix == ".png"
    assert result.text == "Here is a simple drawing: lighthouse." and model not in result.text


async def test_an_image_model_asked_for_text_only_sends_no_image(client: GatewayClient, conn: Connection) -> None:
    result = await run(client, conn, ask("describe a lighthouse", model="gx-2.5-flash-image", generationConfig={"responseModalities": ["TEXT"]}), False)
    assert result.text and result.files == []
