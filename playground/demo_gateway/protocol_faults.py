"""Faults that break one rule of a stream's protocol, once, for the stream validators to catch.

Named like the other faults (`[[fault:break_no_done]]`, header `x-demo-fault`). The stream is
produced as usual, then rewritten frame by frame; the text still arrives.

| name                  | format    | rule broken                                      |
|-----------------------|-----------|--------------------------------------------------|
| break_no_done         | chat      | ends without `data: [DONE]`                      |
| break_double_finish   | chat      | a second chunk with a finish_reason              |
| break_double_usage    | chat      | usage sent twice                                 |
| break_after_done      | chat      | a chunk after `[DONE]`                           |
| break_no_start        | messages  | no `message_start`                               |
| break_delta_first     | messages  | a delta before its block's start                 |
| break_unstopped       | messages  | a block never stopped                            |
| break_no_delta        | messages  | `message_stop` without `message_delta`           |
| break_after_stop      | messages  | an event after `message_stop`                    |
| break_sequence        | responses | a `sequence_number` repeated                     |
| break_stray_delta     | responses | a delta after its item's done event              |
| break_done_text       | responses | the done text differs from the joined deltas     |
| break_after_completed | responses | an event after `response.completed`              |
| break_no_finish       | native    | no finish reason on the last fragment            |
| break_early_finish    | native    | a finish reason before the last fragment         |
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from typing import Any

Frame = dict[str, Any]


def _parse(frame: str) -> Frame:
    event, data = None, []
    for line in frame.replace("\r\n", "\n").split("\n"):
        if line.startswith("event:"):
            event = line[6:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].strip())
    text = "\n".join(data)
    try:
        body: Any = json.loads(text)
    except ValueError:
        body = text
    return {"event": event, "data": body}


def _render(frame: Frame) -> str:
    head = f"event: {frame['event']}\n" if frame["event"] else ""
    data = frame["data"] if isinstance(frame["data"], str) else json.dumps(frame["data"])
    return f"{head}data: {data}\n\n"


def _kind(frame: Frame) -> str:
    data = frame["data"]
    return (data.get("type") if isinstance(data, dict) else None) or frame["event"] or ""


def _first(frames: list[Frame], test: Callable[[Frame], bool]) -> int:
    return next(i for i, frame in enumerate(frames) if test(frame))


def _last(frames: list[Frame], test: Callable[[Frame], bool]) -> int:
    return max(i for i, frame in enumerate(frames) if test(frame))


def _copy(frame: Frame) -> Frame:
    return json.loads(json.dumps(frame))


def _chat_finish(frame: Frame) -> bool:
    return isinstance(frame["data"], dict) and any(c.get("finish_reason") for c in frame["data"].get("choices") or [])


def _chat_usage(frame: Frame) -> bool:
    return isinstance(frame["data"], dict) and bool(frame["data"].get("usage"))


def _is(kind: str) -> Callable[[Frame], bool]:
    return lambda frame: _kind(frame) == kind


def _break(name: str, frames: list[Frame]) -> list[Frame]:
    if name == "break_no_done":
        return [f for f in frames if f["data"] != "[DONE]"]
    if name == "break_double_finish":
        at = _first(frames, _chat_finish)
        return frames[: at + 1] + [_copy(frames[at])] + frames[at + 1 :]
    if name == "break_double_usage":
        at = _first(frames, _chat_usage)
        return frames[: at + 1] + [_copy(frames[at])] + frames[at + 1 :]
    if name == "break_after_done":
        chunk = _copy(frames[0])
        return frames + [chunk]
    if name == "break_no_start":
        return [f for f in frames if _kind(f) != "message_start"]
    if name == "break_delta_first":
        start, delta = _first(frames, _is("content_block_start")), _first(frames, _is("content_block_delta"))
        moved = frames[delta]
        rest = frames[:delta] + frames[delta + 1 :]
        return rest[:start] + [moved] + rest[start:]
    if name == "break_unstopped":
        at = _last(frames, _is("content_block_stop"))
        return frames[:at] + frames[at + 1 :]
    if name == "break_no_delta":
        return [f for f in frames if _kind(f) != "message_delta"]
    if name == "break_after_stop":
        return frames + [_copy(frames[_last(frames, _is("content_block_delta"))])]
    if name == "break_sequence":
        at = _last(frames, _is("response.output_text.delta"))
        frames[at]["data"]["sequence_number"] = frames[at - 1]["data"].get("sequence_number", 0)
        return frames
    if name == "break_stray_delta":
        delta = _copy(frames[_first(frames, _is("response.output_text.delta"))])
        done = _first(frames, _is("response.output_item.done"))
        return frames[: done + 1] + [delta] + frames[done + 1 :]
    if name == "break_done_text":
        at = _first(frames, _is("response.output_text.done"))
        frames[at]["data"]["text"] = str(frames[at]["data"].get("text", "")) + " (changed)"
        return frames
    if name == "break_after_completed":
        return frames + [_copy(frames[_first(frames, _is("response.in_progress"))])]
    if name == "break_no_finish":
        for frame in frames:
            for candidate in (frame["data"].get("candidates") or []) if isinstance(frame["data"], dict) else []:
                candidate.pop("finishReason", None)
        return frames
    if name == "break_early_finish":
        candidates = [i for i, f in enumerate(frames) if isinstance(f["data"], dict) and f["data"].get("candidates")]
        frames[candidates[0]]["data"]["candidates"][0]["finishReason"] = "STOP"
        return frames
    return frames


PROTOCOL_FAULTS = frozenset({
    "break_no_done", "break_double_finish", "break_double_usage", "break_after_done",
    "break_no_start", "break_delta_first", "break_unstopped", "break_no_delta", "break_after_stop",
    "break_sequence", "break_stray_delta", "break_done_text", "break_after_completed",
    "break_no_finish", "break_early_finish",
})


async def break_protocol(frames: AsyncIterator[str], name: str) -> AsyncIterator[str]:
    """Collect the stream's frames, break rule `name` once, then send them all."""
    collected = [_parse(frame) async for frame in frames]
    parsed = [frame for frame in collected if frame["data"] != "" or frame["event"]]
    try:
        broken = _break(name, parsed)
    except (StopIteration, ValueError, KeyError, IndexError, AttributeError, TypeError):
        broken = parsed  # this stream has nothing the fault could break
    for frame in broken:
        yield _render(frame)
