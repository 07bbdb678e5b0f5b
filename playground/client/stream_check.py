"""Protocol validators: a recorded stream checked against the spec's rules for its format.

Each validator reads the raw events of an `Exchange` (in arrival order) and returns the rules
the stream broke, each with the index of the event where it showed. A stream that breaks a rule
still shows its text in the UI; this says what was wrong with it.
"""

from __future__ import annotations

from playground.client.texts import Text

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
            problems.append(Violation(index, Text("stream.event_arrived_after_done")))
            continue
        if data == "[DONE]":
            done_at = index
            continue
        if not isinstance(data, dict) or data.get("object", "chat.completion.chunk") != "chat.completion.chunk":
            problems.append(Violation(index, "not a chat.completion.chunk"))
            continue
        if data.get("choices") is not None and not isinstance(data.get("choices"), list):
            problems.append(Violation(index, Text("stream.choices_not_list")))
        for choice in _list(data.get("choices")):
            if not isinstance(choice, dict):
                problems.append(Violation(index, Text("stream.choice_not_object")))
                continue
            position = _key(choice.get("index", 0))
            if choice.get("finish_reason") is not None:
                if position in finished:
                    problems.append(Violation(index, Text("stream.second_finish_reason_choice", position=position)))
                finished.add(position)
            elif position in finished and _dict(choice.get("delta")).get("content"):
                problems.append(Violation(index, Text("stream.text_choice_after_finish_reason", position=position)))
        if data.get("usage"):
            if usage_seen:
                problems.append(Violation(index, Text("stream.usage_sent_more_than_once")))
            usage_seen = True
    if not finished:
        problems.append(Violation(max(last, 0), Text("stream.no_chunk_carried_finish_reason")))
    if done_at is None:
        problems.append(Violation(max(last, 0), Text("stream.stream_did_not_end_data")))
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
            problems.append(Violation(index, Text("stream.event_not_json_object")))
            data = {}
        if stopped:
            problems.append(Violation(index, Text("stream.after_message_stop", kind=kind)))
            continue
        if position == 0 and kind != "message_start":
            problems.append(Violation(index, Text("stream.first_event_not_message_start", kind=kind)))
        if kind == "message_start":
            if saw_start:
                problems.append(Violation(index, Text("stream.second_message_start")))
            saw_start = True
        elif kind == "content_block_start":
            block = _key(data.get("index"))
            if block in started:
                problems.append(Violation(index, Text("stream.block_started_twice", block=block)))
            started.add(block)
            open_blocks.add(block)
        elif kind == "content_block_delta":
            if _key(data.get("index")) not in open_blocks:
                problems.append(Violation(index, Text("stream.delta_block_outside_start_stop", block=_key(data.get('index')))))
        elif kind == "content_block_stop":
            if _key(data.get("index")) not in open_blocks:
                problems.append(Violation(index, Text("stream.block_stopped_without_being_started", block=_key(data.get('index')))))
            open_blocks.discard(_key(data.get("index")))
        elif kind == "message_delta":
            saw_delta = True
        elif kind == "message_stop":
            if not saw_delta:
                problems.append(Violation(index, Text("stream.message_stop_before_any_message")))
            if open_blocks:
                problems.append(Violation(index, Text("stream.block_never_stopped", blocks=sorted(open_blocks, key=str))))
            stopped = True
    if not stopped:
        problems.append(Violation(max(last, 0), Text("stream.stream_did_not_end_message")))
    return problems


def check_responses(events: Sequence[RecordedEvent]) -> list[Violation]:
    """`sequence_number` increasing; an item's deltas between its added and done events; the done
    text equal to the joined deltas; `response.completed` (or failed/incomplete) last."""
    problems: list[Violation] = []
    previous_sequence: int | None = None
    open_items: set[str] = set()
    joined: dict[tuple[str, int], list[str]] = {}
    final_at: int | None = None
    last = -1
    for index, name, data in _decoded(events):
        last = index
        kind = str(_key(data.get("type") if isinstance(data, dict) else None) or name or "?")
        if final_at is not None:
            problems.append(Violation(index, Text("stream.after_response_ended", kind=kind)))
            continue
        if not isinstance(data, dict):
            problems.append(Violation(index, Text("stream.event_not_json_object")))
            continue
        sequence = data.get("sequence_number")
        if isinstance(sequence, int):
            if previous_sequence is not None and sequence <= previous_sequence:
                problems.append(Violation(index, Text("stream.sequence_number_does_not_increase", sequence=sequence, previous=previous_sequence)))
            previous_sequence = sequence
        item_id = _key(data.get("item_id") or _dict(data.get("item")).get("id"))
        if kind == "response.output_item.added" and item_id:
            open_items.add(item_id)
        elif kind == "response.output_item.done" and item_id:
            if item_id not in open_items:
                problems.append(Violation(index, Text("stream.item_done_without_being_added", item_id=item_id)))
            open_items.discard(item_id)
        elif kind.endswith(".delta") and item_id:
            if item_id not in open_items:
                problems.append(Violation(index, Text("stream.delta_item_outside_added_done", item_id=item_id)))
            if kind == "response.output_text.delta":
                key = (item_id, _key(data.get("content_index", 0)))
                joined.setdefault(key, []).append(str(data.get("delta", "")))
        elif kind == "response.output_text.done" and item_id:
            key = (item_id, _key(data.get("content_index", 0)))
            if "".join(joined.get(key, ())) != data.get("text", ""):
                problems.append(Violation(index, Text("stream.done_text_item_differs_from", item_id=item_id)))
        elif kind in ("response.completed", "response.failed", "response.incomplete"):
            final_at = index
    if final_at is None:
        problems.append(Violation(max(last, 0), Text("stream.stream_did_not_end_response")))
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
            problems.append(Violation(index, Text("stream.fragment_not_json_object")))
            continue
        candidates = _list(data.get("candidates"))
        if data.get("candidates") is not None and not isinstance(data.get("candidates"), list):
            problems.append(Violation(index, Text("stream.candidates_not_list")))
        if candidates:
            candidate_indexes.append(index)
            if any(candidate.get("finishReason") for candidate in candidates if isinstance(candidate, dict)):
                finish_indexes.append(index)
        elif "usageMetadata" not in data and "promptFeedback" not in data:
            problems.append(Violation(index, Text("stream.fragment_without_candidates")))
    if not candidate_indexes:
        problems.append(Violation(0, Text("stream.no_fragment_carried_candidate")))
    elif not finish_indexes or finish_indexes[-1] != candidate_indexes[-1]:
        problems.append(Violation(candidate_indexes[-1], Text("stream.last_candidate_fragment_no_finish")))
    for index in finish_indexes[:-1]:
        problems.append(Violation(index, Text("stream.finish_reason_before_last_fragment")))
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
