"""Chat completions (`POST /v1/chat/completions`): request rules, responses and the stream."""

from __future__ import annotations

from playground.client.texts import Text

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

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
from playground.client.streaming import TextAPI, TextStream
from playground.client.validation import RequestModel

PATH = "/v1/chat/completions"
TOOL_NAME_PATTERN = r"^[A-Za-z0-9_-]{1,64}$"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")


def _require_object_schema(schema: dict[str, Any] | None, what: str) -> dict[str, Any] | None:
    if schema is not None and schema.get("type", "object") != "object":
        raise ValueError(Text("chat.schema_not_object", what=what))
    return schema


class FunctionDefinition(_Strict):
    name: str = Field(pattern=TOOL_NAME_PATTERN)
    description: str | None = None
    parameters: dict[str, Any] | None = None

    @field_validator("parameters")
    @classmethod
    def _object_schema(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        return _require_object_schema(value, "parameters")


class Tool(_Strict):
    type: Literal["function"] = "function"
    function: FunctionDefinition


class ToolCallFunction(_Open):
    name: str
    arguments: str = ""


class ToolCallItem(_Open):
    id: str = Field(min_length=1)
    type: Literal["function"] = "function"
    function: ToolCallFunction


class Message(_Open):
    role: Literal["system", "user", "assistant", "tool"]
    content: str | list[dict[str, Any]] | None = None
    tool_calls: list[ToolCallItem] | None = None
    tool_call_id: str | None = None
    name: str | None = None

    @model_validator(mode="after")
    def _role_rules(self) -> Message:
        if self.role == "tool" and not self.tool_call_id:
            raise ValueError(Text("chat.tool_message_needs_call_id"))
        if self.content is None and not (self.role == "assistant" and self.tool_calls):
            raise ValueError(Text("chat.message_needs_content", role=self.role))
        if self.tool_calls and self.role != "assistant":
            raise ValueError(Text("chat.tool_calls_only_assistant"))
        return self


class NamedFunction(_Strict):
    name: str


class ToolChoiceFunction(_Strict):
    type: Literal["function"] = "function"
    function: NamedFunction


class JsonSchemaSpec(_Open):
    name: str = Field(pattern=TOOL_NAME_PATTERN)
    schema_: dict[str, Any] = Field(alias="schema")
    strict: bool | None = None

    @field_validator("schema_")
    @classmethod
    def _object_schema(cls, value: dict[str, Any]) -> dict[str, Any]:
        return _require_object_schema(value, "json_schema.schema") or value


class ResponseFormat(_Strict):
    type: Literal["json_schema", "json_object", "text"]
    json_schema: JsonSchemaSpec | None = None

    @model_validator(mode="after")
    def _schema_present(self) -> ResponseFormat:
        if self.type == "json_schema" and self.json_schema is None:
            raise ValueError(Text("chat.json_schema_fields"))
        return self


class Thinking(_Strict):
    type: Literal["enabled", "disabled"] = "disabled"


class SearchOptions(_Open):
    region: str | None = None
    recency_days: int | None = Field(default=None, ge=0)


class AsrOptions(_Open):
    language: str | None = None


class FamilyParameters(_Open):
    incremental_output: bool | None = None
    enable_search: bool | None = None
    search_options: SearchOptions | None = None
    asr_options: AsrOptions | None = None
    temperature: float | None = Field(default=None, ge=0, le=2)
    top_p: float | None = Field(default=None, ge=0, le=1)


class ThinkingConfig(_Open):
    thinking_budget: int | None = Field(default=None, ge=-1)
    include_thoughts: bool | None = None


class SvcExtension(_Open):
    thinking_config: ThinkingConfig | None = None


class ExtraBody(_Open):
    svc: SvcExtension | None = None


class ThinkingLevelConfig(_Open):
    thinkingLevel: Literal["LOW", "HIGH"] = "HIGH"


class ChatGenerationConfig(_Open):
    thinkingConfig: ThinkingLevelConfig | None = None


class ApproximateLocation(_Open):
    timezone: str | None = None
    country: str | None = None
    region: str | None = None
    city: str | None = None


class UserLocation(_Open):
    approximate: ApproximateLocation | None = None


class WebSearchOptions(_Open):
    search_context_size: Literal["low", "medium", "high"] | None = None
    user_location: UserLocation | None = None


class SearchParameters(_Open):
    mode: Literal["off", "auto", "on"] | None = None
    return_citations: bool | None = None


class ChatRequest(RequestModel):
    """The request body, with the spec's rules. Build it with `ChatRequest.build(...)`."""

    model: str = Field(min_length=1)
    messages: list[Message] = Field(min_length=1)
    temperature: float | None = Field(default=None, ge=0, le=2)
    top_p: float | None = Field(default=None, ge=0, le=1)
    max_tokens: int | None = Field(default=None, gt=0)
    stream: bool = False
    stream_options: dict[str, Any] | None = None
    tools: list[Tool] | None = None
    tool_choice: Literal["auto", "none", "required"] | ToolChoiceFunction | None = None
    response_format: ResponseFormat | None = None
    thinking: Thinking | None = None
    enable_thinking: bool | None = None
    svc_thinking_to_content: bool | None = None
    parameters: FamilyParameters | None = None
    extra_body: ExtraBody | None = None
    generationConfig: ChatGenerationConfig | None = None
    reasoning_effort: Literal["low", "medium", "high"] | None = None
    web_search_options: WebSearchOptions | None = None
    search_parameters: SearchParameters | None = None

    @field_validator("model")
    @classmethod
    def _model_text(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("choose a model")
        return value.strip()

    @model_validator(mode="after")
    def _cross_field_rules(self) -> ChatRequest:
        call_ids: set[str] = set()
        for message in self.messages:
            if message.role == "assistant" and message.tool_calls:
                call_ids.update(call.id for call in message.tool_calls)
            if message.role == "tool" and message.tool_call_id not in call_ids:
                raise ValueError(Text("chat.tool_call_id_unmatched", id=repr(message.tool_call_id)))
        if isinstance(self.tool_choice, ToolChoiceFunction):
            names = {tool.function.name for tool in self.tools or []}
            if self.tool_choice.function.name not in names:
                raise ValueError(Text("chat.tool_choice_not_among_tools", name=repr(self.tool_choice.function.name)))
        if self.tool_choice is not None and not self.tools:
            raise ValueError(Text("chat.tool_choice_needs_tool"))
        return self

    def advisories(self) -> list[str]:
        """Valid but probably not what the user meant (the spec's notes on thinking)."""
        notes: list[str] = []
        if self.enable_thinking and not self.stream:
            notes.append(Text("chat.enable_thinking_needs_stream"))
        if self.extra_body and self.extra_body.svc and self.extra_body.svc.thinking_config and not self.stream:
            notes.append(Text("chat.thinking_config_needs_stream"))
        if self.reasoning_effort and self.max_tokens is not None:
            notes.append(Text("chat.reasoning_effort_with_max_tokens"))
        return notes


def _usage(raw: Any) -> Usage | None:
    if not isinstance(raw, dict):
        return None
    details = raw.get("completion_tokens_details") or {}
    prompt_details = raw.get("prompt_tokens_details") or {}
    return Usage(
        input_tokens=raw.get("prompt_tokens"),
        output_tokens=raw.get("completion_tokens"),
        total_tokens=raw.get("total_tokens"),
        reasoning_tokens=details.get("reasoning_tokens") if isinstance(details, dict) else None,
        cached_tokens=prompt_details.get("cached_tokens") if isinstance(prompt_details, dict) else None,
    )


def result_from_completion(body: Any) -> TextResult:
    """A non-streaming chat completion -> `TextResult` (tolerates missing optional parts)."""
    result = TextResult(complete=True)
    choices = body.get("choices") if isinstance(body, dict) else None
    if choices:
        choice = choices[0]
        message = choice.get("message") or {}
        result.text = message.get("content") or ""
        result.reasoning = message.get("reasoning_content") or ""
        for call in message.get("tool_calls") or []:
            function = call.get("function") or {}
            result.tool_calls.append(ToolCall(call.get("id", ""), function.get("name", ""), function.get("arguments") or ""))
        result.finish_reason = choice.get("finish_reason")
    result.usage = _usage(body.get("usage")) if isinstance(body, dict) else None
    return result


class ChatStream(TextStream):
    def parse(self, message: SSEMessage) -> list[StreamEvent]:
        data = message.data
        if not isinstance(data, dict):
            return []
        events: list[StreamEvent] = []
        for choice in data.get("choices") or []:
            delta = choice.get("delta") or {}
            if delta.get("reasoning_content"):
                events.append(ReasoningDelta(delta["reasoning_content"]))
            if delta.get("content"):
                events.append(TextDelta(delta["content"]))
            for call in delta.get("tool_calls") or []:
                function = call.get("function") or {}
                events.append(
                    ToolCallDelta(call.get("index", 0), call.get("id"), function.get("name"), function.get("arguments") or "")
                )
            if choice.get("finish_reason"):
                events.append(Finished(choice["finish_reason"]))
        usage = _usage(data.get("usage"))
        if usage is not None:
            events.append(UsageReport(usage))
        return events


class ChatAPI(TextAPI[ChatStream]):
    path = PATH
    stream_class = ChatStream
    result_from = staticmethod(result_from_completion)
    answer_keys = ("choices",)
    answer_name = Text("chat.answer_name")
