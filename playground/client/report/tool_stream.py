"""A streamed tool call's arguments rebuilt from the raw events, in each text format's own pieces
(chat `tool_calls` deltas, responses `function_call` items and argument deltas, messages
`input_json_delta`, native `functionCall` parts). Reads anything a gateway sends without raising:
what is not the expected shape is left out."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from playground.client.exchange import RecordedEvent


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _key(value: Any) -> Any:
    """A value usable as a dict key (an index or id that is a list or object is shown, not hashed)."""
    return value if value is None or isinstance(value, (str, int, float)) else repr(value)[:60]


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _json(value: Any) -> str:
    try:
        return json.dumps(value)
    except (ValueError, TypeError, RecursionError):
        return ""


def decoded(events: Sequence[RecordedEvent]) -> list[dict[str, Any]]:
    """The events whose data is a JSON object, in order."""
    found = []
    for event in events:
        try:
            data = json.loads(event.data)
        except (ValueError, RecursionError):
            continue
        if isinstance(data, dict):
            found.append(data)
    return found


def chat_arguments(events: list[dict[str, Any]]) -> list[str]:
    """Per tool call (by choice and index), its `function.arguments` pieces joined."""
    joined: dict[tuple[Any, Any], str] = {}
    for data in events:
        for choice in _list(data.get("choices")):
            choice = _dict(choice)
            for call in _list(_dict(choice.get("delta")).get("tool_calls")):
                call = _dict(call)
                key = (_key(choice.get("index", 0)), _key(call.get("index", 0)))
                joined[key] = joined.get(key, "") + _text(_dict(call.get("function")).get("arguments"))
    return list(joined.values())


def responses_arguments(events: list[dict[str, Any]]) -> list[str]:
    """Each function call's arguments as its item's done event holds them; where argument deltas
    came and join into another text, the joined text is what is judged."""
    pieces: dict[Any, str] = {}
    done: list[str] = []
    for data in events:
        if data.get("type") == "response.function_call_arguments.delta":
            item_id = _key(data.get("item_id"))
            pieces[item_id] = pieces.get(item_id, "") + _text(data.get("delta"))
        item = _dict(data.get("item")) if data.get("type") == "response.output_item.done" else {}
        if item.get("type") == "function_call":
            whole, item_id = _text(item.get("arguments")), _key(item.get("id"))
            done.append(pieces[item_id] if item_id in pieces and pieces[item_id] != whole else whole)
    return done


def messages_arguments(events: list[dict[str, Any]]) -> list[str]:
    """Each tool_use block: its `input_json_delta` pieces joined, or its start's input when none came."""
    started: dict[Any, Any] = {}
    pieces: dict[Any, str] = {}
    for data in events:
        block = _dict(data.get("content_block"))
        if data.get("type") == "content_block_start" and block.get("type") == "tool_use":
            started[_key(data.get("index"))] = block.get("input")
        delta = _dict(data.get("delta"))
        if data.get("type") == "content_block_delta" and delta.get("type") == "input_json_delta":
            index = _key(data.get("index"))
            pieces[index] = pieces.get(index, "") + _text(delta.get("partial_json"))
    return [pieces[index] if index in pieces else _json(started[index]) for index in started]


def native_arguments(events: list[dict[str, Any]]) -> list[str]:
    """Each `functionCall` part's args (whole objects: the native stream sends no pieces)."""
    return [_json(_dict(part)["functionCall"].get("args")) for data in events for candidate in _list(data.get("candidates"))
            for part in _list(_dict(_dict(candidate).get("content")).get("parts")) if isinstance(_dict(part).get("functionCall"), dict)]


ASSEMBLERS: dict[str, Callable[[list[dict[str, Any]]], list[str]]] = {
    "chat": chat_arguments, "responses": responses_arguments, "messages": messages_arguments, "native": native_arguments}
