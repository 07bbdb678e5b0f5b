"""Protocol validators: a recorded stream checked against the spec's rules for its format.

Each validator reads the raw events of an `Exchange` (in arrival order) and returns the rules
the stream broke, each with the index of the event where it showed. A stream that breaks a rule
still shows its text in the UI; this says what was wrong with it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from playground.client.exchange import RecordedEvent

KEEPALIVES = frozenset({"ping", "keepalive", "keep-alive"})


@dataclass(frozen=True)
class Violation:
    index: int
    rule: str

    def __str__(self) -> str:
        return f"event #{self.index}: {self.rule}"


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _key(value: Any) -> Any:
    """A value usable as a set member or dict key (an index or id that is a list or object is shown, not hashed)."""
    return value if value is None or isinstance(value, (str, int, float)) else json.dumps(value)[:60]


def _decoded(events: Sequence[RecordedEvent]) -> list[tuple[int, str | None, Any]]:
    """(index, event name, JSON data or the raw text) for every non-keep-alive event."""
    decoded = []
    for index, event in enumerate(events):
        payload = event.data.strip()
        if not payload or event.event in KEEPALIVES:
            continue
        try:
            data: Any = json.loads(payload)
        except (ValueError, RecursionError):
            data = payload
        decoded.append((index, event.event, data))
    return decoded


def check_chat(events: Sequence[RecordedEvent]) -> list[Violation]:
    """Chunks then `[DONE]`; one finish_reason per choice; usage at most once; nothing after `[DONE]`."""
    problems: list[Violation] = []
    done_at: int | None = None
    finished: set[int] = set()
    usage_seen = False
    last = -1
    for index, _name, data in _decoded(events):
        last = index
        if done_at is not None:
            problems.append(Violation(index, "an event arrived after [DONE]"))
            continue
        if data == "[DONE]":
            done_at = index
            continue
        if not isinstance(data, dict) or data.get("object", "chat.completion.chunk") != "chat.completion.chunk":
            problems.append(Violation(index, "not a chat.completion.chunk"))
            continue
        if data.get("choices") is not None and not isinstance(data.get("choices"), list):
            problems.append(Violation(index, "choices is not a list"))
        for choice in _list(data.get("choices")):
            if not isinstance(choice, dict):
                problems.append(Violation(index, "a choice that is not an object"))
                continue
            position = _key(choice.get("index", 0))
            if choice.get("finish_reason") is not None:
                if position in finished:
                    problems.append(Violation(index, f"a second finish_reason for choice {position}"))
                finished.add(position)
            elif position in finished and _dict(choice.get("delta")).get("content"):
                problems.append(Violation(index, f"text for choice {position} after its finish_reason"))
        if data.get("usage"):
            if usage_seen:
                problems.append(Violation(index, "usage sent more than once"))
            usage_seen = True
    if not finished:
        problems.append(Violation(max(last, 0), "no chunk carried a finish_reason"))
    if done_at is None:
        problems.append(Violation(max(last, 0), "the stream did not end with data: [DONE]"))
    return problems


def check_messages(events: Sequence[RecordedEvent]) -> list[Violation]:
    """`message_start` first; a block's start before its deltas; every started block stopped;
    `message_delta` before `message_stop`; nothing after `message_stop`."""
    problems: list[Violation] = []
    open_blocks: set[int] = set()
    started: set[int] = set()
    saw_start = saw_delta = stopped = False
    last = -1
    for position, (index, name, data) in enumerate(_decoded(events)):
        last = index
        kind = _key(data.get("type") if isinstance(data, dict) else None) or name
        if kind in KEEPALIVES:
            continue
        if not isinstance(data, dict):
            problems.append(Violation(index, "an event that is not a JSON object"))
            data = {}
        if stopped:
            problems.append(Violation(index, f"{kind} after message_stop"))
            continue
        if position == 0 and kind != "message_start":
            problems.append(Violation(index, f"the first event is {kind}, not message_start"))
        if kind == "message_start":
            if saw_start:
                problems.append(Violation(index, "a second message_start"))
            saw_start = True
        elif kind == "content_block_start":
            block = _key(data.get("index"))
            if block in started:
                problems.append(Violation(index, f"block {block} started twice"))
            started.add(block)
            open_blocks.add(block)
        elif kind == "content_block_delta":
            if _key(data.get("index")) not in open_blocks:
                problems.append(Violation(index, f"a delta for block {_key(data.get('index'))} outside its start and stop"))
        elif kind == "content_block_stop":
            if _key(data.get("index")) not in open_blocks:
                problems.append(Violation(index, f"block {_key(data.get('index'))} stopped without being started"))
            open_blocks.discard(_key(data.get("index")))
        elif kind == "message_delta":
            saw_delta = True
        elif kind == "message_stop":
            if not saw_delta:
                problems.append(Violation(index, "message_stop before any message_delta"))
            if open_blocks:
                problems.append(Violation(index, f"block(s) {sorted(open_blocks, key=str)} never stopped"))
            stopped = True
    if not stopped:
        problems.append(Violation(max(last, 0), "the stream did not end with message_stop"))
    return problems


def check_responses(events: Sequence[RecordedEvent]) -> list[Violation]:
    """`sequence_number` increasing; an item's deltas between its added and done events; the done
    text equal to the joined deltas; `response.completed` (or failed/incomplete) last."""
    problems: list[Violation] = []
    previous_sequence: int | None = None
    open_items: set[str] = set()
    joined: dict[tuple[str, int], str] = {}
    final_at: int | None = None
    last = -1
    for index, name, data in _decoded(events):
        last = index
        kind = str(_key(data.get("type") if isinstance(data, dict) else None) or name or "?")
        if final_at is not None:
            problems.append(Violation(index, f"{kind} after the response ended"))
            continue
        if not isinstance(data, dict):
            problems.append(Violation(index, "an event that is not a JSON object"))
            continue
        sequence = data.get("sequence_number")
        if isinstance(sequence, int):
            if previous_sequence is not None and sequence <= previous_sequence:
                problems.append(Violation(index, f"sequence_number {sequence} does not increase (previous {previous_sequence})"))
            previous_sequence = sequence
        item_id = _key(data.get("item_id") or _dict(data.get("item")).get("id"))
        if kind == "response.output_item.added" and item_id:
            open_items.add(item_id)
        elif kind == "response.output_item.done" and item_id:
            if item_id not in open_items:
                problems.append(Violation(index, f"item {item_id} done without being added"))
            open_items.discard(item_id)
        elif kind.endswith(".delta") and item_id:
            if item_id not in open_items:
                problems.append(Violation(index, f"a delta for item {item_id} outside its added and done events"))
            if kind == "response.output_text.delta":
                key = (item_id, _key(data.get("content_index", 0)))
                joined[key] = joined.get(key, "") + str(data.get("delta", ""))
        elif kind == "response.output_text.done" and item_id:
            key = (item_id, _key(data.get("content_index", 0)))
            if joined.get(key, "") != data.get("text", ""):
                problems.append(Violation(index, f"the done text of item {item_id} differs from its joined deltas"))
        elif kind in ("response.completed", "response.failed", "response.incomplete"):
            final_at = index
    if final_at is None:
        problems.append(Violation(max(last, 0), "the stream did not end with response.completed"))
    return problems


def check_native(events: Sequence[RecordedEvent]) -> list[Violation]:
    """Every fragment has candidates (or usage); the last candidate fragment carries a finish
    reason, and none before it does."""
    problems: list[Violation] = []
    fragments = [(index, data) for index, _name, data in _decoded(events)]
    finish_indexes = []
    candidate_indexes = []
    for index, data in fragments:
        if not isinstance(data, dict):
            problems.append(Violation(index, "a fragment that is not a JSON object"))
            continue
        candidates = _list(data.get("candidates"))
        if data.get("candidates") is not None and not isinstance(data.get("candidates"), list):
            problems.append(Violation(index, "candidates is not a list"))
        if candidates:
            candidate_indexes.append(index)
            if any(candidate.get("finishReason") for candidate in candidates if isinstance(candidate, dict)):
                finish_indexes.append(index)
        elif "usageMetadata" not in data and "promptFeedback" not in data:
            problems.append(Violation(index, "a fragment without candidates"))
    if not candidate_indexes:
        problems.append(Violation(0, "no fragment carried a candidate"))
    elif not finish_indexes or finish_indexes[-1] != candidate_indexes[-1]:
        problems.append(Violation(candidate_indexes[-1], "the last candidate fragment has no finish reason"))
    for index in finish_indexes[:-1]:
        problems.append(Violation(index, "a finish reason before the last fragment"))
    return problems


VALIDATORS: dict[str, Callable[[Sequence[RecordedEvent]], list[Violation]]] = {
    "chat": check_chat,
    "messages": check_messages,
    "responses": check_responses,
    "native": check_native,
}


def format_for_path(path: str) -> str | None:
    """Which text format a request path belongs to (None: not a text stream)."""
    path = path.split("?")[0]
    if path.endswith("/chat/completions"):
        return "chat"
    if path.endswith("/messages"):
        return "messages"
    if path.endswith("/responses"):
        return "responses"
    if ":streamGenerateContent" in path:
        return "native"
    return None


def check_stream(url: str, events: Sequence[RecordedEvent]) -> list[Violation] | None:
    """Validate the events of a call to `url`; None when the call is not a text stream."""
    name = format_for_path(url)
    if name is None or not events:
        return None
    return VALIDATORS[name](events)
