"""Every stream builds its text, reasoning and tool arguments in linear time.

A string built with `+=` is copied whole on every delta: with non-ASCII text (4 bytes a
character once an emoji is in it) 20,000 deltas take hundreds of milliseconds and grow with
the square of the length. Each case folds 2,000 and then 20,000 deltas through the format's
own parser and the shared accumulator (best of 3 each, in CPU time of this process, so a busy
machine's waits do not count); linear work takes about 10x as long for 10x the deltas,
quadratic work about 100x. The bound is 30x.
"""

from __future__ import annotations

import gc
import json
import time
from collections.abc import Callable
from typing import Any

import pytest

from playground.client.chat import ChatStream
from playground.client.exchange import Exchange, RecordedEvent
from playground.client.messages import MessagesStream
from playground.client.native import NativeStream
from playground.client.responses import ResponsesStream
from playground.client.sse import SSEMessage
from playground.client.stream_check import check_responses
from playground.client.streaming import TextStream

SMALL, LARGE, RATIO_BOUND = 2_000, 20_000, 30


def delta(i: int) -> str:
    return f"wörd{i % 10}😀 "


def chat(kind: str, n: int) -> list[SSEMessage]:
    def body(i: int) -> dict[str, Any]:
        if kind == "text":
            return {"content": delta(i)}
        if kind == "reasoning":
            return {"reasoning_content": delta(i)}
        call = {"index": 0, "function": {"arguments": delta(i)}}
        return {"tool_calls": [{**call, "id": "c1", "function": {"name": "f", "arguments": delta(i)}} if i == 0 else call]}
    return [SSEMessage(None, {"choices": [{"index": 0, "delta": body(i)}]}) for i in range(n)]


def messages(kind: str, n: int) -> list[SSEMessage]:
    block = {"text": {"type": "text", "text": ""}, "reasoning": {"type": "thinking", "thinking": ""},
             "arguments": {"type": "tool_use", "id": "t1", "name": "f", "input": {}}}[kind]
    wire = {"text": ("text_delta", "text"), "reasoning": ("thinking_delta", "thinking"), "arguments": ("input_json_delta", "partial_json")}[kind]
    frames = [{"type": "content_block_start", "index": 0, "content_block": block}]
    frames += [{"type": "content_block_delta", "index": 0, "delta": {"type": wire[0], wire[1]: delta(i)}} for i in range(n)]
    frames.append({"type": "content_block_stop", "index": 0})
    return [SSEMessage(frame["type"], frame) for frame in frames]


def responses(kind: str, n: int) -> list[SSEMessage]:
    if kind == "text":
        frames = [{"type": "response.output_text.delta", "item_id": "m", "content_index": 0, "delta": delta(i)} for i in range(n)]
        frames.append({"type": "response.output_text.done", "item_id": "m", "content_index": 0, "text": "".join(map(delta, range(n)))})
    elif kind == "reasoning":
        frames = [{"type": "response.reasoning_summary_text.delta", "item_id": "r", "summary_index": 0, "delta": delta(i)} for i in range(n)]
    else:
        frames = [{"type": "response.output_item.added", "item": {"id": "fc", "type": "function_call", "name": "f", "call_id": "c"}}]
        frames += [{"type": "response.function_call_arguments.delta", "item_id": "fc", "delta": delta(i)} for i in range(n)]
    return [SSEMessage(frame["type"], frame) for frame in frames]


def native(kind: str, n: int) -> list[SSEMessage]:
    thought = {"thought": True} if kind == "reasoning" else {}
    frames = [{"candidates": [{"index": 0, "content": {"role": "model", "parts": [{"text": delta(i), **thought}]}}]} for i in range(n)]
    frames[-1]["candidates"][0]["finishReason"] = "STOP"
    return [SSEMessage(None, frame) for frame in frames]


CASES: list[tuple[str, type[TextStream], Callable[[str, int], list[SSEMessage]], str]] = [
    (f"{name}-{kind}", stream, build, kind)
    for name, stream, build, kinds in [
        ("chat", ChatStream, chat, ("text", "reasoning", "arguments")),
        ("messages", MessagesStream, messages, ("text", "reasoning", "arguments")),
        ("responses", ResponsesStream, responses, ("text", "reasoning", "arguments")),
        ("native", NativeStream, native, ("text", "reasoning")),
    ]
    for kind in kinds
]


def fold(stream_class: type[TextStream], wire: list[SSEMessage], kind: str) -> float:
    """Seconds to parse and fold `wire` and read the built value once at the end."""
    stream = stream_class(None, None, "/", {})  # type: ignore[arg-type]
    stream.exchange = Exchange("POST", "http://gw/", {}, {})
    start = time.process_time()
    for message in wire:
        for event in stream.parse(message):
            stream.result.apply(event, 0.0)
    built = {"text": lambda: stream.result.text, "reasoning": lambda: stream.result.reasoning,
             "arguments": lambda: stream.result.tool_calls[0].arguments}[kind]()
    elapsed = time.process_time() - start
    assert len(built) >= 7 * len(wire) - 16
    return elapsed


def best_of_3(measure: Callable[[], float]) -> float:
    """The fastest of three runs, with the cyclic garbage collector paused: its passes over the
    prepared events cost more the more there are, which is not the code under test."""
    gc.collect()
    gc.disable()
    try:
        return min(measure() for _ in range(3))
    finally:
        gc.enable()


@pytest.mark.parametrize(("stream_class", "build", "kind"), [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_a_stream_folds_non_ascii_deltas_in_linear_time(stream_class: type[TextStream], build: Callable[[str, int], list[SSEMessage]],
                                                        kind: str) -> None:
    small, large = build(kind, SMALL), build(kind, LARGE)
    small_s = best_of_3(lambda: fold(stream_class, small, kind))
    large_s = best_of_3(lambda: fold(stream_class, large, kind))
    assert large_s < RATIO_BOUND * small_s, f"{LARGE} deltas took {large_s * 1000:.1f} ms, {SMALL} took {small_s * 1000:.1f} ms"


def test_the_responses_validator_joins_deltas_in_linear_time() -> None:
    def events(n: int) -> list[RecordedEvent]:
        frames = [{"type": "response.output_item.added", "sequence_number": 0, "item": {"id": "m", "type": "message"}}]
        frames += [{"type": "response.output_text.delta", "sequence_number": i + 1, "item_id": "m", "content_index": 0, "delta": delta(i)}
                   for i in range(n)]
        return [RecordedEvent(0.0, frame["type"], json.dumps(frame)) for frame in frames]

    def timed(recorded: list[RecordedEvent]) -> float:
        start = time.process_time()
        check_responses(recorded)
        return time.process_time() - start

    small, large = events(SMALL), events(LARGE)
    small_s, large_s = best_of_3(lambda: timed(small)), best_of_3(lambda: timed(large))
    assert large_s < RATIO_BOUND * small_s, f"{LARGE} deltas took {large_s * 1000:.1f} ms, {SMALL} took {small_s * 1000:.1f} ms"
