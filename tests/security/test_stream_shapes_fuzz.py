"""Valid JSON of the wrong shape, in every position of every format's events and whole answers.

Random JSON values replace one value (or several) at any depth of realistic events, or the whole
event (hypothesis draws the seed of each case: a failure is replayed and reported with its seed). What a gateway sends must end as events, a `GatewayError` (a typed error with the partial
result kept) or a violation: never another exception. The parse/accumulate/validate functions are
called directly (no sockets), 10,000 generated inputs per target.
"""

from __future__ import annotations

import copy
import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from playground.client.chat import ChatAPI, ChatStream
from playground.client.errors import GatewayError, MalformedEventError, UnexpectedResponseError
from playground.client.exchange import Exchange, RecordedEvent
from playground.client.messages import MessagesAPI, MessagesStream
from playground.client.native import NativeAPI, NativeStream
from playground.client.responses import ResponsesAPI, ResponsesStream
from playground.client.sse import DONE, SSEMessage
from playground.client.stream_check import VALIDATORS
from playground.client.streaming import TextStream

EXAMPLES = int(os.environ.get("SECURITY_FUZZ_EXAMPLES", "10000"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                suppress_health_check=list(HealthCheck), phases=[Phase.explicit, Phase.generate, Phase.shrink])

CHAT = [
    {"id": "c1", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": None}]},
    {"id": "c1", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"content": "Hel", "reasoning_content": "hm"}, "finish_reason": None}]},
    {"id": "c1", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"tool_calls": [
        {"index": 0, "id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{\"a\""}}]}, "finish_reason": None}]},
    {"id": "c1", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
     "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5, "completion_tokens_details": {"reasoning_tokens": 1}}},
    "[DONE]",
]
MESSAGES = [
    {"type": "message_start", "message": {"id": "m1", "usage": {"input_tokens": 3, "output_tokens": 0}}},
    {"type": "content_block_start", "index": 0, "content_block": {"type": "thinking", "thinking": ""}},
    {"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "hm"}},
    {"type": "content_block_delta", "index": 0, "delta": {"type": "signature_delta", "signature": "sig"}},
    {"type": "content_block_stop", "index": 0},
    {"type": "content_block_start", "index": 1, "content_block": {"type": "text", "text": ""}},
    {"type": "content_block_delta", "index": 1, "delta": {"type": "text_delta", "text": "Hel"}},
    {"type": "content_block_stop", "index": 1},
    {"type": "content_block_start", "index": 2, "content_block": {"type": "tool_use", "id": "t1", "name": "f", "input": {}}},
    {"type": "content_block_delta", "index": 2, "delta": {"type": "input_json_delta", "partial_json": "{\"a\": 1}"}},
    {"type": "content_block_stop", "index": 2},
    {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 4}},
    {"type": "message_stop"},
]
RESPONSES = [
    {"type": "response.created", "sequence_number": 0, "response": {"id": "r1", "status": "in_progress"}},
    {"type": "response.output_item.added", "sequence_number": 1, "output_index": 0, "item": {"id": "rs1", "type": "reasoning"}},
    {"type": "response.reasoning_summary_text.delta", "sequence_number": 2, "item_id": "rs1", "summary_index": 0, "delta": "hm"},
    {"type": "response.output_item.added", "sequence_number": 3, "output_index": 1, "item": {"id": "m1", "type": "message"}},
    {"type": "response.output_text.delta", "sequence_number": 4, "item_id": "m1", "content_index": 0, "delta": "Hel"},
    {"type": "response.output_text.annotation.added", "sequence_number": 5, "item_id": "m1",
     "annotation": {"type": "url_citation", "url": "https://example.com", "title": "t"}},
    {"type": "response.output_text.done", "sequence_number": 6, "item_id": "m1", "content_index": 0, "text": "Hel"},
    {"type": "response.output_item.added", "sequence_number": 7, "output_index": 2, "item": {"id": "fc1", "type": "function_call", "call_id": "c1", "name": "f"}},
    {"type": "response.function_call_arguments.delta", "sequence_number": 8, "item_id": "fc1", "delta": "{}"},
    {"type": "response.function_call_arguments.done", "sequence_number": 9, "item_id": "fc1", "arguments": "{}"},
    {"type": "response.output_item.done", "sequence_number": 10, "output_index": 1, "item": {"id": "m1", "type": "message"}},
    {"type": "response.completed", "sequence_number": 11, "response": {"id": "r1", "status": "completed",
     "usage": {"input_tokens": 3, "output_tokens": 2, "output_tokens_details": {"reasoning_tokens": 1}}}},
]
NATIVE = [
    {"candidates": [{"content": {"role": "model", "parts": [{"text": "hm", "thought": True}, {"text": "Hel"}]}}]},
    {"candidates": [{"content": {"role": "model", "parts": [{"functionCall": {"name": "f", "args": {"a": 1}}}]}}]},
    {"candidates": [{"content": {"role": "model", "parts": [{"text": "lo"}]}, "finishReason": "STOP",
                     "groundingMetadata": {"groundingChunks": [{"web": {"uri": "https://example.com", "title": "t"}}],
                                           "groundingSupports": [{"segment": {"endIndex": 3}, "groundingChunkIndices": [0]}]}}],
     "usageMetadata": {"promptTokenCount": 3, "candidatesTokenCount": 2, "totalTokenCount": 5}},
]
WHOLE = {
    "chat": {"id": "c1", "object": "chat.completion", "choices": [{"index": 0, "message": {"role": "assistant", "content": "Hello",
             "reasoning_content": "hm", "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
             "finish_reason": "stop"}], "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}},
    "messages": {"id": "m1", "type": "message", "role": "assistant", "content": [{"type": "thinking", "thinking": "hm", "signature": "s"},
                 {"type": "text", "text": "Hello"}, {"type": "tool_use", "id": "t1", "name": "f", "input": {"a": 1}}],
                 "stop_reason": "end_turn", "usage": {"input_tokens": 3, "output_tokens": 2}},
    "responses": {"id": "r1", "status": "completed", "output": [
        {"type": "reasoning", "id": "rs1", "summary": [{"type": "summary_text", "text": "hm"}]},
        {"type": "message", "id": "m1", "content": [{"type": "output_text", "text": "Hello", "annotations": [
            {"type": "url_citation", "url": "https://example.com", "title": "t"}]}]},
        {"type": "function_call", "id": "fc1", "call_id": "c1", "name": "f", "arguments": "{}"}],
        "usage": {"input_tokens": 3, "output_tokens": 2}},
    "native": {"candidates": [{"content": {"role": "model", "parts": [{"text": "hm", "thought": True}, {"text": "Hello"},
               {"functionCall": {"name": "f", "args": {}}}]}, "finishReason": "STOP"}],
               "usageMetadata": {"promptTokenCount": 3, "candidatesTokenCount": 2}},
}
STREAMS: dict[str, tuple[type[TextStream], list[Any]]] = {
    "chat": (ChatStream, CHAT), "messages": (MessagesStream, MESSAGES), "responses": (ResponsesStream, RESPONSES), "native": (NativeStream, NATIVE),
}


def _random_json(rng: random.Random, depth: int = 0) -> Any:
    """A random JSON value: scalars of every type (big and negative numbers, empty and odd text),
    arrays and objects nested a few levels."""
    kind = rng.randrange(9 if depth < 3 else 6)
    if kind == 0:
        return None
    if kind == 1:
        return rng.random() < 0.5
    if kind == 2:
        return rng.choice([0, -1, 1, 2, 10**20, -(2**63), rng.randrange(-1000, 1000)])
    if kind == 3:
        return rng.choice([0.5, -1e308, 1e-9, rng.uniform(-1e6, 1e6)])
    if kind in (4, 5):
        return rng.choice(["", "x", "stop", "text", "\u0000", "ünï", "[DONE]", "message_stop", "response.completed", "STOP", "a" * 50])
    if kind in (6, 7):
        return [_random_json(rng, depth + 1) for _ in range(rng.randrange(4))]
    keys = ["type", "index", "delta", "text", "choices", "content", "parts", "id", "item_id", "candidates", "usage", "x"]
    return {rng.choice(keys): _random_json(rng, depth + 1) for _ in range(rng.randrange(4))}


def _positions(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every position in a JSON value (the value itself included)."""
    found = [prefix]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += _positions(inner, (*prefix, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += _positions(inner, (*prefix, index))
    return found


def _mutated(rng: random.Random, template: Any) -> Any:
    """The template with 1-3 positions (any depth, the whole included) replaced by random JSON."""
    value = copy.deepcopy(template)
    for _ in range(rng.randrange(1, 4)):
        path = rng.choice(_positions(value))
        if not path:
            value = _random_json(rng)
            continue
        target = value
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = _random_json(rng)
    return value


def _event_list(rng: random.Random, templates: list[Any]) -> list[Any]:
    events = list(templates)
    for _ in range(rng.randrange(1, 4)):
        position = rng.randrange(len(events))
        events[position] = _mutated(rng, events[position])
    if rng.random() < 0.3:
        events.insert(rng.randrange(len(events) + 1), _random_json(rng))
    return events


def _message(event: Any) -> SSEMessage:
    if event == "[DONE]":
        return DONE
    kind = event.get("type") if isinstance(event, dict) and isinstance(event.get("type"), str) else None
    return SSEMessage(kind, event)


def _recorded(events: list[Any]) -> list[RecordedEvent]:
    shown = []
    for event in events:
        data = event if event == "[DONE]" else json.dumps(event)
        kind = event.get("type") if isinstance(event, dict) and isinstance(event.get("type"), str) else None
        shown.append(RecordedEvent(0.0, kind, data))
    return shown


def _assert_typed(result: Any) -> None:
    assert isinstance(result.text, str) and isinstance(result.reasoning, str)
    for call in result.tool_calls:
        assert isinstance(call.id, str) and isinstance(call.name, str) and isinstance(call.arguments, str)
    assert result.finish_reason is None or isinstance(result.finish_reason, str)
    result.tokens_per_second()


def _drive(stream_class: type[TextStream], events: list[Any], tmp: Path) -> None:
    stream = stream_class(None, None, "", {})  # type: ignore[arg-type]
    if stream_class is NativeStream:
        stream.image_dir = tmp  # type: ignore[attr-defined]
    stream.exchange = Exchange("POST", "http://gw.example/v1/x", {}, {})
    for event in events:
        message = _message(event)
        stream.exchange.events.append(RecordedEvent(0.0, message.event, json.dumps(event)))
        try:
            stream.feed(message)
            stream.is_end(message)
        except GatewayError:
            break
        _assert_typed(stream.result)
    _assert_typed(stream.result)


@pytest.mark.parametrize("name", list(STREAMS))
def test_streams_of_any_shape_end_in_events_a_typed_error_or_violations(name: str, tmp_path: Path) -> None:
    """Each generated stream is parsed and accumulated as the client does, then validated."""
    stream_class, templates = STREAMS[name]
    validate = VALIDATORS[name]

    @FUZZ
    @given(st.randoms(use_true_random=False))
    def run(rng: random.Random) -> None:
        events = _event_list(rng, templates)
        _drive(stream_class, events, tmp_path)
        assert isinstance(validate(_recorded(events)), list)

    run()


@pytest.mark.parametrize("name", list(WHOLE))
def test_whole_answers_of_any_shape_give_a_result_or_a_typed_error(name: str, tmp_path: Path) -> None:
    api = {"chat": ChatAPI(None), "messages": MessagesAPI(None), "responses": ResponsesAPI(None),  # type: ignore[arg-type]
           "native": NativeAPI(None, tmp_path)}[name]  # type: ignore[arg-type]

    @FUZZ
    @given(st.randoms(use_true_random=False))
    def run(rng: random.Random) -> None:
        try:
            result = api.checked_result(_mutated(rng, WHOLE[name]))
        except GatewayError:
            return
        _assert_typed(result)

    run()


# The cases named in issue 20, each once, with what the user gets.

def _fed(stream_class: type[TextStream], events: list[Any]) -> tuple[TextStream, GatewayError | None]:
    stream = stream_class(None, None, "", {})  # type: ignore[arg-type]
    try:
        for event in events:
            stream.feed(_message(event))
    except GatewayError as error:
        return stream, error
    return stream, None


@pytest.mark.parametrize(("stream_class", "events"), [
    (ChatStream, [CHAT[1], {"id": "c1", "object": "chat.completion.chunk", "choices": "oops"}]),
    (MessagesStream, [MESSAGES[5], MESSAGES[6], {"type": "content_block_delta", "index": 1, "delta": "oops"}]),
    (ResponsesStream, [RESPONSES[3], RESPONSES[4], {"type": "response.output_text.delta", "item_id": "m1", "delta": {"text": "x"}}]),
    (NativeStream, [NATIVE[0], {"candidates": [{"content": {"parts": "oops"}}]}]),
    (ChatStream, [CHAT[1], ["an", "array"]]),
    (MessagesStream, [MESSAGES[5], MESSAGES[6], 42]),
    (ResponsesStream, [RESPONSES[3], RESPONSES[4], "a string"]),
    (NativeStream, [NATIVE[0], None]),
])
def test_a_wrong_shape_is_a_malformed_event_with_the_partial_text_kept(stream_class: type[TextStream], events: list[Any]) -> None:
    stream, error = _fed(stream_class, events)
    assert isinstance(error, MalformedEventError)
    assert "unexpected shape" in error.message
    assert stream.result.text == "Hel"
    assert "{'text'" not in stream.result.text


def test_a_whole_native_answer_with_parts_a_string_is_refused_not_empty(tmp_path: Path) -> None:
    with pytest.raises(UnexpectedResponseError, match="parts"):
        NativeAPI(None, tmp_path).checked_result({"candidates": [{"content": {"parts": "Hello"}, "finishReason": "STOP"}]})  # type: ignore[arg-type]


def test_the_chat_validator_reads_choices_that_are_a_string() -> None:
    problems = VALIDATORS["chat"](_recorded([CHAT[1], {"object": "chat.completion.chunk", "choices": "oops"}, "[DONE]"]))
    assert problems
