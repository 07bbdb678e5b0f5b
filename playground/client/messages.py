"""Messages format (`POST /v1/messages`, `POST /v1/messages/count_tokens`): request rules,
the Message object, the typed event stream, and token counting."""

from __future__ import annotations

from playground.client.texts import Text

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, field_validator, model_validator

from playground.client.errors import APIStatusError
from playground.client.results import (
    Finished,
    ReasoningDelta,
    StreamEvent,
    TextDelta,
    TextResult,
    ToolCall,
    ToolCallDelta,
    Usage,
    UsageReport,
)
from playground.client.sse import SSEMessage
from playground.client.streaming import SHAPE_ERRORS, TextAPI, TextStream
from playground.client.transport import Connection, Exchange
from playground.client.validation import RequestModel

PATH = "/v1/messages"
COUNT_PATH = "/v1/messages/count_tokens"
MIN_THINKING_BUDGET = 1024
WEB_SEARCH_TYPE = "web_search_20250305"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")


class CacheControl(_Strict):
    type: Literal["ephemeral", "persistent"] = "ephemeral"


class TextBlock(_Strict):
    type: Literal["text"]
    text: str
    cache_control: CacheControl | None = None


class Base64Source(_Strict):
    type: Literal["base64"]
    media_type: Literal["image/png", "image/jpeg", "image/webp", "image/gif"]
    data: str = Field(min_length=1)


class UrlSource(_Strict):
    type: Literal["url"]
    url: str = Field(pattern=r"^https?://")


class ImageBlock(_Strict):
    type: Literal["image"]
    source: Base64Source | UrlSource = Field(discriminator="type")
    cache_control: CacheControl | None = None


class ToolUseBlock(_Strict):
    type: Literal["tool_use"]
    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    input: dict[str, Any]
    cache_control: CacheControl | None = None


class ToolResultBlock(_Strict):
    type: Literal["tool_result"]
    tool_use_id: str = Field(min_length=1)
    content: str | list[TextBlock] = ""
    is_error: bool | None = None
    cache_control: CacheControl | None = None


class ThinkingBlock(_Open):
    type: Literal["thinking"]
    thinking: str
    signature: str | None = None


class ServerToolBlock(_Open):
    """A block of a server tool's round (the web search's call and its results) or redacted
    thinking: part of an assistant turn, sent back as the gateway returned it."""

    type: Literal["server_tool_use", "web_search_tool_result", "redacted_thinking"]


ContentBlock = Annotated[
    TextBlock | ImageBlock | ToolUseBlock | ToolResultBlock | ThinkingBlock | ServerToolBlock,
    Field(discriminator="type"),
]


class MessageParam(_Strict):
    role: Literal["user", "assistant"]
    content: str | list[ContentBlock]

    @field_validator("content")
    @classmethod
    def _not_empty(cls, value: str | list[Any]) -> str | list[Any]:
        if isinstance(value, list) and not value:
            raise ValueError(Text("messages.content_empty_list"))
        return value


class UserLocation(_Strict):
    type: Literal["approximate"] = "approximate"
    timezone: str | None = None
    country: str | None = None
    region: str | None = None
    city: str | None = None


class FunctionTool(_Strict):
    type: Literal["custom"] | None = None
    name: str = Field(pattern=r"^[A-Za-z0-9_-]{1,64}$")
    description: str | None = None
    input_schema: dict[str, Any]
    cache_control: CacheControl | None = None

    @field_validator("input_schema")
    @classmethod
    def _object_schema(cls, value: dict[str, Any]) -> dict[str, Any]:
        if value.get("type") != "object":
            raise ValueError(Text("messages.input_schema_not_object"))
        return value


class WebSearchTool(_Strict):
    type: Literal["web_search_20250305"]
    name: Literal["web_search"]
    max_uses: int | None = Field(default=None, ge=1)
    user_location: UserLocation | None = None
    cache_control: CacheControl | None = None


def _tool_kind(value: Any) -> str:
    kind = value.get("type") if isinstance(value, dict) else getattr(value, "type", None)
    return "web_search" if isinstance(kind, str) and kind.startswith("web_search") else "function"


Tool = Annotated[Annotated[FunctionTool, Tag("function")] | Annotated[WebSearchTool, Tag("web_search")], Discriminator(_tool_kind)]


class ToolChoice(_Strict):
    type: Literal["auto", "any", "none", "tool"] = "auto"
    name: str | None = None
    disable_parallel_tool_use: bool | None = None

    @model_validator(mode="after")
    def _name_for_tool(self) -> ToolChoice:
        if self.type == "tool" and not self.name:
            raise ValueError(Text("messages.tool_choice_needs_name"))
        if self.type != "tool" and self.name:
            raise ValueError(Text("messages.tool_choice_name_only_for_tool"))
        return self


class Thinking(_Strict):
    type: Literal["enabled"]
    budget_tokens: int = Field(gt=MIN_THINKING_BUDGET)


class _Prompt(RequestModel):
    """Fields that make up the prompt (what count_tokens counts)."""

    model: str = Field(min_length=1)
    messages: list[MessageParam] = Field(min_length=1)
    system: str | list[TextBlock] | None = None
    tools: list[Tool] | None = None

    @field_validator("model")
    @classmethod
    def _cl_family(cls, value: str) -> str:
        if not value.strip().startswith("cl-"):
            raise ValueError(Text("messages.model_not_cl"))
        return value.strip()

    @model_validator(mode="after")
    def _tool_results_answer_tool_uses(self) -> _Prompt:
        seen: set[str] = set()
        for index, message in enumerate(self.messages):
            for block in message.content if isinstance(message.content, list) else []:
                if isinstance(block, ToolUseBlock):
                    seen.add(block.id)
                elif isinstance(block, ToolResultBlock) and block.tool_use_id not in seen:
                    raise ValueError(Text("messages.tool_result_unmatched", index=index, id=repr(block.tool_use_id)))
        return self


class MessagesRequest(_Prompt):
    """The request body with the spec's rules. Build it with `MessagesRequest.build(...)`."""

    max_tokens: int = Field(gt=0)
    temperature: float | None = Field(default=None, ge=0, le=1)
    top_p: float | None = Field(default=None, ge=0, le=1)
    top_k: int | None = Field(default=None, ge=1)
    stream: bool = False
    stop_sequences: list[Annotated[str, Field(min_length=1)]] | None = None
    tool_choice: ToolChoice | None = None
    thinking: Thinking | None = None
    metadata: dict[str, Any] | None = None
    mcp_servers: list[dict[str, Any]] | None = None
    context_management: dict[str, Any] | None = None
    cache_control: CacheControl | None = None

    @model_validator(mode="after")
    def _tool_choice_rules(self) -> MessagesRequest:
        if self.tool_choice is not None and self.tool_choice.type in ("any", "tool") and not self.tools:
            raise ValueError(Text("messages.tool_choice_needs_tool", kind=self.tool_choice.type))
        if self.tool_choice is not None and self.tool_choice.type == "tool":
            names = {tool.name for tool in self.tools or []}
            if self.tool_choice.name not in names:
                raise ValueError(Text("messages.tool_choice_not_among_tools", name=repr(self.tool_choice.name)))
        return self

    def advisories(self) -> list[str]:
        notes: list[str] = []
        if self.thinking is not None:
            if self.temperature is not None and self.temperature != 1.0:
                notes.append(Text("messages.thinking_temperature_advice"))
            if self.top_p is not None and self.top_p != 0:
                notes.append(Text("messages.thinking_top_p_advice"))
            if not self.stream:
                notes.append(Text("messages.thinking_stream_advice"))
            if self.thinking.budget_tokens >= self.max_tokens:
                notes.append(Text("messages.budget_not_below_max_tokens"))
        return notes

    def count_body(self) -> dict[str, Any]:
        """What count_tokens takes: output parameters such as max_tokens are not counted."""
        return self.model_dump(mode="json", exclude_none=True, include={"model", "messages", "system", "tools"})


def _usage(raw: Any, into: Usage | None = None) -> Usage:
    usage = into or Usage()
    if not isinstance(raw, dict):
        return usage
    for ours, theirs in (
        ("input_tokens", "input_tokens"),
        ("output_tokens", "output_tokens"),
        ("cache_creation_tokens", "cache_creation_input_tokens"),
        ("cached_tokens", "cache_read_input_tokens"),
    ):
        if raw.get(theirs) is not None:
            setattr(usage, ours, raw[theirs])
    split = raw.get("cache_creation")  # the providers' split of the writes by lifetime (not in the spec; kept when sent)
    if isinstance(split, dict) and split.get("ephemeral_1h_input_tokens") is not None:
        usage.cache_creation_1h_tokens = split["ephemeral_1h_input_tokens"]
    if usage.input_tokens is not None and usage.output_tokens is not None:
        usage.total_tokens = usage.input_tokens + (usage.cache_creation_tokens or 0) + (usage.cached_tokens or 0) + usage.output_tokens
    return usage


def result_from_message(body: Any) -> TextResult:
    """A Message object -> `TextResult` (unknown block kinds are skipped)."""
    result = TextResult(complete=True)
    if not isinstance(body, dict):
        return result
    for block in body.get("content") or []:
        kind = block.get("type")
        if kind == "text":
            result.text += block.get("text", "")
        elif kind == "thinking":
            result.reasoning += block.get("thinking", "")
        elif kind == "tool_use":
            result.tool_calls.append(ToolCall(block.get("id", ""), block.get("name", ""), json.dumps(block.get("input") or {})))
    result.finish_reason = body.get("stop_reason")
    result.usage = _usage(body.get("usage"))
    result.turn_items = [dict(block) for block in body.get("content") or [] if isinstance(block, dict)]
    return result


DELTA_FIELDS = {"text_delta": "text", "thinking_delta": "thinking", "signature_delta": "signature", "input_json_delta": "input"}


class MessagesStream(TextStream):
    """Messages events -> neutral events; `message_stop` is the end marker."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._tool_index: dict[int, int] = {}
        self._usage = Usage()
        self._blocks: dict[int, dict[str, Any]] = {}
        self._pieces: dict[int, dict[str, list[str]]] = {}

    def _keep_block(self, kind: str, data: dict[str, Any]) -> None:
        """Build every content block as the gateway sent it (thinking with its signature,
        redacted thinking, tool_use with its input), to be sent back unchanged next turn."""
        index = data.get("index", 0)
        if kind == "content_block_start":
            self._blocks[index] = dict(data.get("content_block") or {})
            self._pieces[index] = {}
        elif kind == "content_block_delta" and index in self._blocks:
            delta = data.get("delta") or {}
            field = DELTA_FIELDS.get(delta.get("type", ""))
            if field:
                self._pieces[index].setdefault(field, []).append(str(delta.get(field if field != "input" else "partial_json", "")))
        elif kind == "content_block_stop" and index in self._blocks:
            block = self._blocks[index]
            for field, pieces in self._pieces.pop(index, {}).items():
                if field == "input":
                    try:
                        block["input"] = json.loads("".join(pieces) or "{}")
                    except ValueError:
                        block["input"] = {}
                else:
                    block[field] = block.get(field, "") + "".join(pieces)
            self.result.turn_items = [self._blocks[i] for i in sorted(self._blocks)]

    def _text_delta(self, data: dict[str, Any], text: Any) -> TextDelta:
        """The usual event: its text kept for the block (as `_keep_block` does) and passed on."""
        index = data.get("index", 0)
        pieces = self._pieces.get(index)
        if pieces is None and index in self._blocks:
            raise KeyError(index)  # a delta after its block's stop, as `_keep_block` finds it
        if pieces is not None:
            kept = pieces.get("text")
            if kept is None:
                kept = pieces["text"] = []
            kept.append(text if type(text) is str else str(text))
        return TextDelta(text)

    def feed(self, message: SSEMessage, at: float = 0.0) -> list[StreamEvent]:
        """`TextStream.feed`, with a text delta of text (most events) taken in one step."""
        data = message.data
        if data.__class__ is dict and data.get("type") == "content_block_delta":
            delta = data.get("delta")
            if delta.__class__ is dict and delta.get("type") == "text_delta" and delta.get("text", "").__class__ is str:
                try:
                    event: StreamEvent = self._text_delta(data, delta.get("text", ""))
                except SHAPE_ERRORS:
                    return super().feed(message, at)  # the same error, worded as for any event
                if self._redacting:
                    event = self._without_secrets(event, message.source if message.source >= 0 else self._last_source())
                self.result.apply(event, at)
                return [event]
        return super().feed(message, at)

    def is_end(self, message: SSEMessage) -> bool:
        return message.event == "message_stop" or (isinstance(message.data, dict) and message.data.get("type") == "message_stop")

    def parse(self, message: SSEMessage) -> list[StreamEvent]:
        data = message.data if isinstance(message.data, dict) else {}
        kind = data.get("type") or message.event
        if kind == "content_block_delta":
            delta = data.get("delta") or {}
            delta_type = delta.get("type")
            if delta_type == "text_delta":
                return [self._text_delta(data, delta.get("text", ""))]
            self._keep_block(kind, data)
            if delta_type == "thinking_delta":
                return [ReasoningDelta(delta.get("thinking", ""))]
            if delta_type == "input_json_delta" and data.get("index") in self._tool_index:
                return [ToolCallDelta(self._tool_index[data["index"]], arguments=delta.get("partial_json", ""))]
            return []
        if kind in ("content_block_start", "content_block_stop"):
            self._keep_block(kind, data)
        if kind == "message_start":
            _usage((data.get("message") or {}).get("usage"), self._usage)
            return [UsageReport(self._usage)]
        if kind == "content_block_start":
            block = data.get("content_block") or {}
            if block.get("type") == "tool_use":
                index = self._tool_index.setdefault(data.get("index", 0), len(self._tool_index))
                initial = json.dumps(block["input"]) if block.get("input") else ""
                return [ToolCallDelta(index, block.get("id"), block.get("name"), initial)]
            if block.get("type") == "text" and block.get("text"):
                return [TextDelta(block["text"])]
            return []
        if kind == "message_delta":
            _usage(data.get("usage"), self._usage)
            stop = (data.get("delta") or {}).get("stop_reason")
            return [Finished(stop), UsageReport(self._usage)]
        return []


class MessagesAPI(TextAPI[MessagesStream]):
    path = PATH
    stream_class = MessagesStream
    result_from = staticmethod(result_from_message)
    answer_keys = ("content", "stop_reason")
    answer_name = Text("messages.answer_name")

    async def count_tokens(self, conn: Connection, request: MessagesRequest) -> tuple[int, Exchange]:
        data, exchange = await self._transport.request_json(conn, "POST", COUNT_PATH, request.count_body())
        if not isinstance(data, dict) or not isinstance(data.get("input_tokens"), int):
            raise APIStatusError(exchange.status or 200, Text("messages.count_without_input_tokens"), body=data)
        return data["input_tokens"], exchange
