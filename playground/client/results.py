"""Interface-neutral stream events and the accumulated result of a text generation.

Each text interface (chat, responses, messages, native) turns its own wire events into these,
so the UI renders every tab's stream with one piece of code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class Joined:
    """A `str` field built by appending pieces in linear time (a descriptor for dataclasses).

    `obj.text` reads the whole string (joined once, then cached); assigning replaces it;
    `Joined.append(obj, "text", piece)` adds a piece without copying what is there, and
    `Joined.length(obj, "text")` is its length without joining. `+=` on a `str` attribute
    copies the whole string every time: quadratic over a long stream of non-ASCII text.
    """

    def __set_name__(self, owner: type, name: str) -> None:
        self._key = f"_{name}_joined"

    def __get__(self, obj: Any, owner: type | None = None) -> str:
        if obj is None:
            return ""  # the dataclass default
        pieces = obj.__dict__.get(self._key)
        if not pieces:
            return ""
        if len(pieces) > 2:
            pieces[1:] = ["".join(pieces[1:])]
        return pieces[1] if len(pieces) > 1 else ""

    def __set__(self, obj: Any, value: str) -> None:
        obj.__dict__[self._key] = [len(value), value]

    @staticmethod
    def append(obj: Any, name: str, piece: str) -> None:
        if not isinstance(piece, str):  # as `+=` would: a wrong-typed piece fails here, not when the text is read
            raise TypeError(f"can only append str (not {type(piece).__name__}) to {name}")
        pieces = obj.__dict__.setdefault(f"_{name}_joined", [0])
        pieces[0] += len(piece)
        pieces.append(piece)

    @staticmethod
    def length(obj: Any, name: str) -> int:
        pieces = obj.__dict__.get(f"_{name}_joined")
        return pieces[0] if pieces else 0


@dataclass(frozen=True)
class TextDelta:
    text: str


@dataclass(frozen=True)
class ReasoningDelta:
    text: str


@dataclass(frozen=True)
class ToolCallDelta:
    index: int
    id: str | None = None
    name: str | None = None
    arguments: str = ""


@dataclass(frozen=True)
class TextReplaced:
    """The whole answer text as it stands now (after the gateway's citations were placed)."""

    text: str


@dataclass(frozen=True)
class Finished:
    reason: str | None


@dataclass
class Usage:
    input_tokens: int | None = None
    output_tokens: int | None = None
    total_tokens: int | None = None
    reasoning_tokens: int | None = None
    cached_tokens: int | None = None
    cache_creation_tokens: int | None = None
    cache_creation_1h_tokens: int | None = None
    """Of the cache writes, those kept 1 hour (messages; when the gateway splits the writes)."""


@dataclass(frozen=True)
class UsageReport:
    usage: Usage


StreamEvent = TextDelta | ReasoningDelta | ToolCallDelta | Finished | UsageReport | TextReplaced


@dataclass
class ToolCall:
    id: str
    name: str
    arguments: Joined = Joined()  # a str; see `Joined`


@dataclass
class TextResult:
    """What a generation produced so far; `complete` is False until the end marker arrived."""

    text: Joined = Joined()  # a str; see `Joined`
    reasoning: Joined = Joined()  # a str
    tool_calls: list[ToolCall] = field(default_factory=list)
    finish_reason: str | None = None
    usage: Usage | None = None
    complete: bool = False
    streamed: bool = True
    """False for a whole (non-streaming) answer: it has no token timing."""
    first_token_at: float | None = None
    last_token_at: float | None = None
    """When the last piece of the answer's text arrived (a rate needs two pieces apart in time)."""
    finished_at: float | None = None
    sources: list[dict[str, str]] = field(default_factory=list)
    """Citations the gateway attached ({title, url}), shown as links under the answer."""
    files: list[str] = field(default_factory=list)
    """Files the answer carried, saved locally after checks (generated images)."""
    grounding: dict[str, Any] | None = None
    """Grounding metadata as the gateway sent it (search queries, chunks, supports)."""
    response_id: str | None = None
    """The gateway's id for this response, where the format has one (responses: chaining)."""
    turn_items: list[dict[str, Any]] = field(default_factory=list)
    """The interface's own wire items of this assistant turn (thinking blocks with signatures,
    thought signatures, reasoning items, tool calls), replayed verbatim in the next request."""

    def apply(self, event: StreamEvent, at: float) -> None:
        """Fold one event into the result; `at` is seconds since the request started."""
        if event.__class__ is TextDelta and event.text.__class__ is str:  # the usual event, in one step
            if self.first_token_at is None:
                self.first_token_at = at
            self.last_token_at = at
            pieces = self.__dict__.get("_text_joined")
            if pieces is None:
                pieces = self.__dict__["_text_joined"] = [0]
            pieces[0] += len(event.text)
            pieces.append(event.text)
            return
        if isinstance(event, (TextDelta, ReasoningDelta, ToolCallDelta)) and self.first_token_at is None:
            self.first_token_at = at
        if isinstance(event, TextDelta):
            self.last_token_at = at
            Joined.append(self, "text", event.text)
        elif isinstance(event, ReasoningDelta):
            Joined.append(self, "reasoning", event.text)
        elif isinstance(event, ToolCallDelta):
            while len(self.tool_calls) <= event.index:
                self.tool_calls.append(ToolCall(id="", name=""))
            call = self.tool_calls[event.index]
            if event.id:
                call.id = event.id
            if event.name:
                call.name = event.name
            Joined.append(call, "arguments", event.arguments)
        elif isinstance(event, TextReplaced):
            self.text = event.text
        elif isinstance(event, Finished):
            self.finish_reason = event.reason or self.finish_reason
        elif isinstance(event, UsageReport):
            self.usage = event.usage

    def tokens_per_second(self) -> float | None:
        """Output tokens over the time from first token to the end (None if unknown, not streamed, or
        when the text came in one piece: a short answer sent whole has no rate, and its microseconds
        to the end would read as thousands of tokens a second)."""
        if not self.streamed or not self.usage or not self.usage.output_tokens or self.first_token_at is None or self.finished_at is None:
            return None
        if self.last_token_at == self.first_token_at:
            return None
        span = self.finished_at - self.first_token_at
        return self.usage.output_tokens / span if span > 0 else None
