"""A streamed tool call's arguments rebuilt per format (the `tool_arguments` check): the format's
pieces joined in order, and anything a gateway sends read without raising."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from playground.client.exchange import RecordedEvent
from playground.client.report.tool_stream import ASSEMBLERS, decoded

KEYS = ("choices", "delta", "tool_calls", "function", "arguments", "index", "type", "item", "item_id", "id", "content_block",
        "partial_json", "candidates", "content", "parts", "functionCall", "args", "input")
TYPES = ("response.function_call_arguments.delta", "response.output_item.done", "function_call", "content_block_start",
         "content_block_delta", "tool_use", "input_json_delta")
LEAVES = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=8), st.sampled_from(TYPES))
VALUES = st.recursive(LEAVES, lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(KEYS), inner, max_size=4)),
                      max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.dictionaries(st.sampled_from(KEYS), VALUES, max_size=5), max_size=6))
def test_any_events_are_read_without_raising(events: list[dict[str, Any]]) -> None:
    for assemble in ASSEMBLERS.values():
        assert all(isinstance(arguments, str) for arguments in assemble(events))


def test_only_json_objects_are_read_from_the_raw_events() -> None:
    raw = [RecordedEvent(0.0, None, data) for data in ('{"a": 1}', "[DONE]", "[1, 2]", "[" * 5000, '{"b": 2}')]
    assert decoded(raw) == [{"a": 1}, {"b": 2}]


def test_each_format_joins_its_own_pieces() -> None:
    def chunk(index: int, piece: str) -> dict[str, Any]:
        return {"choices": [{"index": 0, "delta": {"tool_calls": [{"index": index, "function": {"arguments": piece}}]}}]}

    assert ASSEMBLERS["chat"]([chunk(0, '{"city": '), chunk(1, '{"city": "Rome"}'), chunk(0, '"Paris"}')]) == ['{"city": "Paris"}', '{"city": "Rome"}']
    responses = [{"type": "response.function_call_arguments.delta", "item_id": "fc_1", "delta": '{"city": '},
                 {"type": "response.function_call_arguments.delta", "item_id": "fc_1", "delta": '"Par'},
                 {"type": "response.output_item.done", "item": {"id": "fc_1", "type": "function_call", "arguments": '{"city": "Paris"}'}}]
    assert ASSEMBLERS["responses"](responses) == ['{"city": "Par']  # deltas that do not join into the done text are what is judged
    messages = [{"type": "content_block_start", "index": 1, "content_block": {"type": "tool_use", "input": {}}},
                {"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": '{"city": "Paris"}'}},
                {"type": "content_block_start", "index": 2, "content_block": {"type": "tool_use", "input": {"city": "Rome"}}}]
    assert ASSEMBLERS["messages"](messages) == ['{"city": "Paris"}', json.dumps({"city": "Rome"})]
    native = [{"candidates": [{"content": {"parts": [{"text": "x"}, {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}}]}}]}]
    assert ASSEMBLERS["native"](native) == ['{"city": "Paris"}']
