"""The responses client against the demo gateway over a real socket, and the stream parser on
the details real gateways of this kind get wrong."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from playground.client import errors
from playground.client.gateway import GatewayClient
from playground.client.responses import ResponsesRequest, ResponsesStream
from playground.client.results import TextResult
from playground.client.sse import SSEMessage
from playground.client.transport import Connection
from tests.conftest import RecordingSleep

WEATHER = {"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}


def build(**fields: Any) -> ResponsesRequest:
    return ResponsesRequest.build(**{"model": "gpt-4.1", "input": "hello", **fields})


async def run(client: GatewayClient, conn: Connection, request: ResponsesRequest, stream: bool) -> TextResult:
    if not stream:
        result, _ = await client.responses.create(conn, request)
        return result
    async with client.responses.stream(conn, request) as reply:
        async for _ in reply:
            pass
    return reply.result


@pytest.mark.parametrize(("fields", "words"), [
    ({"temperature": 3}, "temperature"), ({"top_p": 2}, "top_p"), ({"max_output_tokens": 0}, "max_output_tokens"),
    ({"reasoning": {"effort": "max"}}, "reasoning.effort"), ({"reasoning": {"summary": "short"}}, "reasoning.summary"),
    ({"input": []}, "input"), ({"input": [{"role": "user", "content": [{"type": "picture"}]}]}, "content[0].type"),
    ({"input": [{"role": "user", "content": [{"type": "input_file"}]}]}, "needs file_url"),
    ({"input": [{"role": "robot", "content": "x"}]}, "role"),
    ({"tools": [{"type": "function", "function": {}}]}, "needs a name"),
    ({"tools": [{"type": "web_search_preview", "search_context_size": "huge"}]}, "search_context_size"),
    ({"tools": [{"type": "code_interpreter"}]}, "tools[0].type"),
    ({"tool_choice": {"type": "function"}}, "forced tool_choice"), ({"truncation": "sometimes"}, "truncation"),
    ({"input": [{"type": "function_call_output", "output": "x"}]}, "call_id"),
])
def test_every_rule_is_checked_before_sending(fields: dict[str, Any], words: str) -> None:
    with pytest.raises(errors.RequestValidationError) as caught:
        build(**fields)
    assert words in str(caught.value)


def test_file_limits_per_file_and_per_request() -> None:
    big = "data:application/pdf;base64," + "A" * 70_000_000
    with pytest.raises(errors.RequestValidationError, match="at most 50 MB"):
        build(input=[{"role": "user", "content": [{"type": "input_file", "filename": "big.pdf", "file_data": big}]}])
    half = "data:application/pdf;base64," + "A" * 40_000_000
    parts = [{"type": "input_file", "filename": f"{n}.pdf", "file_data": half} for n in range(2)]
    with pytest.raises(errors.RequestValidationError, match="together"):
        build(input=[{"role": "user", "content": parts}])


def test_advisories_for_reasoning_and_search() -> None:
    assert "reasoning models only" in " ".join(build(reasoning={"effort": "low"}).advisories())
    assert build(model="o4-mini", reasoning={"effort": "low"}).advisories() == []
    assert "some model families" in " ".join(build(model="cl-sonnet-4-5-20250929", tools=[{"type": "web_search_preview"}]).advisories())


async def test_streaming_equals_whole_answer_with_reasoning_summary(client: GatewayClient, conn: Connection) -> None:
    request = dict(model="o4-mini", input="why is the sky blue?", reasoning={"summary": "auto"})
    whole = await run(client, conn, build(**request), stream=False)
    streamed = await run(client, conn, build(**request, stream=True), stream=True)
    assert whole.text == streamed.text and whole.reasoning == streamed.reasoning and whole.reasoning.startswith("This is a factual question") and "Rayleigh" in whole.reasoning
    assert whole.usage == streamed.usage and whole.usage.reasoning_tokens and whole.usage.cached_tokens == 0
    assert streamed.complete and streamed.response_id and streamed.response_id == whole.response_id


@pytest.mark.parametrize("stream", [False, True])
async def test_reasoning_summary_parts_stay_separate_paragraphs(client: GatewayClient, conn: Connection, stream: bool) -> None:
    result = await run(client, conn, build(model="o4-mini", input="why is the sky blue?", reasoning={"summary": "detailed"},
                                           stream=stream), stream=stream)
    paragraphs = result.reasoning.split("\n\n")
    assert paragraphs[0] == "**Step 1**" and "**Step 2**" in paragraphs
    assert ".**Step" not in result.reasoning


async def test_an_error_event_is_labelled_by_its_code(client: GatewayClient, conn: Connection) -> None:
    with pytest.raises(errors.StreamEventError) as caught:
        await run(client, conn, build(input="a long story please [[fault:stream_error]]", stream=True), stream=True)
    assert caught.value.error_type == "upstream_error" and "(upstream_error)" in str(caught.value) and "(error)" not in str(caught.value)


@pytest.mark.parametrize("stream", [False, True])
async def test_function_call_round_trip(client: GatewayClient, conn: Connection, stream: bool) -> None:
    first = await run(client, conn, build(input="weather in Oslo?", tools=[WEATHER], stream=stream), stream)
    assert [(c.name, bool(c.id)) for c in first.tool_calls] == [("get_weather", True)] and '"city"' in first.tool_calls[0].arguments
    follow = [{"role": "user", "content": "weather in Oslo?"}, *first.turn_items,
              {"type": "function_call_output", "call_id": first.tool_calls[0].id, "output": '{"temp_c": 3}'}]
    second = await run(client, conn, build(input=follow, tools=[WEATHER], stream=stream), stream)
    assert "reports temp 3 °C" in second.text and "temp 3 °C" in second.text


@pytest.mark.parametrize("stream", [False, True])
async def test_web_search_citations_become_sources(client: GatewayClient, conn: Connection, stream: bool) -> None:
    result = await run(client, conn, build(input="gateway news", tools=[{"type": "web_search_preview"}], stream=stream), stream)
    assert [s["url"] for s in result.sources] == ["https://docs.example.com/gateway-playground", "https://news.example.com/demo-gateway"]


async def test_files_and_images_are_understood(client: GatewayClient, conn: Connection) -> None:
    pdf = "data:application/pdf;base64," + base64.b64encode(b"%PDF-1.4 demo").decode()
    image = "data:image/png;base64," + base64.b64encode(b"\x89PNG demo").decode()
    content = [{"type": "input_text", "text": "what did I send?"}, {"type": "input_file", "filename": "notes.pdf", "file_data": pdf},
               {"type": "input_image", "image_url": image, "detail": "low"}]
    result = await run(client, conn, build(input=[{"role": "user", "content": content}]), stream=False)
    assert "notes.pdf (application/pdf, 13 bytes)" in result.text and "an image (low detail)" in result.text


async def test_chaining_three_turns_and_an_unknown_id(client: GatewayClient, conn: Connection) -> None:
    first = await run(client, conn, build(input="my name is Ada"), stream=False)
    second = await run(client, conn, build(input="and my city is Oslo", previous_response_id=first.response_id, stream=True), stream=True)
    third, exchange = await client.responses.create(conn, build(input="what do you know?", previous_response_id=second.response_id))
    assert third.response_id not in (first.response_id, second.response_id)
    assert exchange.request_body["input"] == "what do you know?" and exchange.request_body["previous_response_id"] == second.response_id
    assert third.usage.input_tokens > first.usage.input_tokens
    with pytest.raises(errors.BadRequestError, match="previous_response_id"):
        await client.responses.create(conn, build(previous_response_id="resp_unknown"))


async def test_status_faults_are_retried(client: GatewayClient, conn: Connection, sleeps: RecordingSleep) -> None:
    result, exchange = await client.responses.create(conn, build(input="hi [[fault:rate_limit]]"))
    assert result.text and exchange.attempts == 2


@pytest.mark.parametrize(("fault", "error_class"), [("cut", errors.IncompleteStreamError), ("malformed", errors.MalformedEventError),
                                                     ("stream_error", errors.StreamEventError), ("stall", errors.IncompleteStreamError)])
async def test_broken_streams_keep_partial_text(client: GatewayClient, conn: Connection, fault: str, error_class: type) -> None:
    with pytest.raises(error_class) as caught:
        await run(client, conn, build(input=f"a long story please [[fault:{fault}]]", stream=True), stream=True)
    assert isinstance(caught.value.partial, TextResult)  # type: ignore[attr-defined]


@pytest.mark.parametrize("fault", ["body_truncated", "body_html", "body_shape"])
async def test_whole_answers_are_checked(client: GatewayClient, conn: Connection, fault: str) -> None:
    with pytest.raises(errors.UnexpectedResponseError):
        await client.responses.create(conn, build(input=f"hi [[fault:{fault}]]"))


def events(stream: ResponsesStream, *frames: dict[str, Any]) -> TextResult:
    for frame in frames:
        for event in stream.parse(SSEMessage(frame["type"], frame)):
            stream.result.apply(event, 0.1)
    return stream.result


def fresh_stream() -> ResponsesStream:
    from playground.client.exchange import Exchange
    stream = ResponsesStream(None, None, "/v1/responses", {})  # type: ignore[arg-type]
    stream.exchange = Exchange("POST", "http://gw/v1/responses", {}, {})
    return stream


def test_the_done_text_wins_over_joined_deltas_and_the_inspector_says_so() -> None:
    stream = fresh_stream()
    result = events(stream,
                    {"type": "response.output_text.delta", "item_id": "m", "content_index": 0, "delta": "Hel", "obfuscation": "xx"},
                    {"type": "response.output_text.delta", "item_id": "m", "content_index": 0, "delta": "lo"},
                    {"type": "response.output_text.done", "item_id": "m", "content_index": 0, "text": "Hello!"})
    assert result.text == "Hello!" and stream.exchange.notes and "differs" in stream.exchange.notes[0]


def test_arguments_done_without_a_name_and_an_empty_completed_output() -> None:
    result = events(fresh_stream(),
                    {"type": "response.output_item.added", "item": {"id": "fc1", "type": "function_call", "name": "get_weather", "call_id": "c1"}},
                    {"type": "response.function_call_arguments.delta", "item_id": "fc1", "delta": '{"city":'},
                    {"type": "response.function_call_arguments.done", "item_id": "fc1", "arguments": '{"city": "Oslo"}'},
                    {"type": "response.output_text.delta", "item_id": "m", "delta": "kept"},
                    {"type": "response.completed", "response": {"id": "r1", "status": "completed", "output": []}})
    assert result.tool_calls[0].name == "get_weather" and result.tool_calls[0].arguments == '{"city": "Oslo"}'
    assert result.text == "kept" and result.usage is None and result.response_id == "r1"


def test_failed_responses_are_errors() -> None:
    with pytest.raises(errors.StreamEventError, match="overloaded"):
        events(fresh_stream(), {"type": "response.failed", "response": {"error": {"code": "server_error", "message": "overloaded"}}})


@pytest.mark.parametrize("frame", [
    {"type": "error", "code": "rate_limit_exceeded", "message": "slow down"},
    {"type": "error", "error": {"code": "rate_limit_exceeded", "message": "slow down"}},
], ids=["top-level", "nested"])
def test_error_events_in_either_shape(frame: dict[str, Any]) -> None:
    with pytest.raises(errors.StreamEventError, match="slow down") as caught:
        events(fresh_stream(), frame)
    assert caught.value.error_type == "rate_limit_exceeded"


def test_a_missing_done_event_leaves_the_joined_deltas() -> None:
    result = events(fresh_stream(), {"type": "response.output_text.delta", "item_id": "m", "delta": "joined "},
                    {"type": "response.output_text.delta", "item_id": "m", "delta": "text"},
                    {"type": "response.completed", "response": {"id": "r", "status": "completed", "output": [], "usage": None}})
    assert result.text == "joined text" and result.usage is None
