"""Responses format (`POST /v1/responses`): request rules, the response object and its stream.

The stream is read by event `type`: the spec's events plus what real gateways of this kind also
send (function-call argument deltas, reasoning summary parts and deltas, content parts,
annotations, web search progress, `response.failed`, `response.incomplete`, `error`); any other
event passes through to the inspector. The done text of an output part is the authority over
the joined deltas; usage missing from the end event stays unknown.
"""

from __future__ import annotations

from playground.client.texts import Text, joined

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from playground.client.errors import MalformedEventError, StreamEventError
from playground.client.results import (
    Finished,
    Joined,
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

PATH = "/v1/responses"
MAX_FILE_BYTES = 50 * 1024 * 1024
REASONING_MODELS = ("o4-mini", "gx-2.5-pro", "gx-3-pro-preview", "deepseek-reasoner")
SEARCH_FAMILIES = ("gpt", "gx")
SUMMARY_BREAK = "\n\n"
"""Between reasoning summary parts (and items): each part is a paragraph of its own."""
PART_TYPES = ("input_text", "input_image", "input_file", "output_text")


class Reasoning(BaseModel):
    model_config = ConfigDict(extra="forbid")
    effort: Literal["none", "low", "medium", "high"] | None = None
    summary: Literal["auto", "none", "detailed"] | None = None


class TextFormat(BaseModel):
    """`text.format`: plain text, any JSON object, or JSON following a schema (`strict` as in chat)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    type: Literal["text", "json_object", "json_schema"]
    name: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_-]{1,64}$")
    schema_: dict[str, Any] | None = Field(default=None, alias="schema")
    strict: bool | None = None
    description: str | None = None

    @model_validator(mode="after")
    def _schema_present(self) -> TextFormat:
        if self.type == "json_schema" and (not self.name or self.schema_ is None or self.schema_.get("type") != "object"):
            raise ValueError(Text("responses.text_format_fields"))
        return self


class TextOptions(BaseModel):
    """`text`: the answer's format. Not in the spec's table of fields; real gateways of this kind
    take the responses format's own `{"format": {...}}`, so it is sent when the person sets a schema."""

    model_config = ConfigDict(extra="forbid")
    format: TextFormat | None = None


def _data_url_bytes(value: str) -> int:
    head, _, data = value.partition(",")
    if not head.startswith("data:") or ";base64" not in head:
        raise ValueError(Text("responses.file_data_not_data_url"))
    return len(data) * 3 // 4 - data[-2:].count("=")


def _check_part(part: Any, where: str, problems: list[str]) -> int:
    """Problems of one content part; returns its file bytes."""
    kind = part.get("type") if isinstance(part, dict) else None
    if kind not in PART_TYPES:
        problems.append(Text("responses.part_type_not_allowed", where=where, allowed=', '.join(PART_TYPES)))
        return 0
    if kind == "input_image" and not part.get("image_url"):
        problems.append(Text("responses.input_image_needs_url", where=where))
    if kind == "input_image" and part.get("detail") not in (None, "low", "high", "auto"):
        problems.append(Text("responses.detail_not_allowed", where=where))
    if kind == "input_file":
        if part.get("file_url"):
            return 0
        if not (part.get("filename") and isinstance(part.get("file_data"), str)):
            problems.append(Text("responses.input_file_needs_data", where=where))
            return 0
        try:
            size = _data_url_bytes(part["file_data"])
        except ValueError as exc:
            problems.append(Text("validation.field_problem", field=where, problem=exc.args[0]))
            return 0
        if size > MAX_FILE_BYTES:
            problems.append(Text("responses.file_too_large", where=where, filename=part['filename'], megabytes=size / 1e6))
        return size
    return 0


def check_input(items: list[dict[str, Any]]) -> list[str]:
    """Every problem of an `input` array (items and parts), with the 50 MB file limits."""
    problems: list[str] = []
    total = 0
    for index, item in enumerate(items):
        where = f"input[{index}]"
        if not isinstance(item, dict):
            problems.append(Text("responses.item_not_object", where=where))
            continue
        kind = item.get("type", "message")
        if kind == "function_call_output":
            if not item.get("call_id"):
                problems.append(Text("responses.output_needs_call_id", where=where))
            continue
        if kind != "message":
            continue  # items the gateway returned (reasoning, function_call, ...) are sent back as they came
        if item.get("role") not in ("user", "assistant", "system", "developer"):
            problems.append(Text("responses.role_not_allowed", where=where))
        content = item.get("content")
        if isinstance(content, list):
            total += sum(_check_part(part, f"{where}.content[{n}]", problems) for n, part in enumerate(content))
        elif not isinstance(content, str):
            problems.append(Text("responses.content_not_string_or_parts", where=where))
    if total > MAX_FILE_BYTES:
        problems.append(Text("responses.files_too_large", megabytes=total / 1e6))
    return problems


class ResponsesRequest(RequestModel):
    """The request body with the spec's rules. Build it with `ResponsesRequest.build(...)`."""

    model: str = Field(min_length=1)
    input: list[dict[str, Any]] | str
    instructions: str | None = None
    max_output_tokens: int | None = Field(default=None, gt=0)
    stream: bool = False
    temperature: float | None = Field(default=None, ge=0, le=2)
    top_p: float | None = Field(default=None, ge=0, le=1)
    reasoning: Reasoning | None = None
    tools: list[dict[str, Any]] | None = None
    tool_choice: Literal["auto", "none"] | dict[str, Any] | None = None
    parallel_tool_calls: bool | None = None
    max_tool_calls: int | None = Field(default=None, gt=0)
    previous_response_id: str | None = Field(default=None, min_length=1)
    truncation: Literal["auto", "disabled"] | None = None
    metadata: dict[str, Any] | None = None
    user: str | None = None
    text: TextOptions | None = None

    @field_validator("input")
    @classmethod
    def _input_rules(cls, value: list[dict[str, Any]] | str) -> list[dict[str, Any]] | str:
        if not value:
            raise ValueError(Text("responses.input_empty"))
        if isinstance(value, list):
            problems = check_input(value)
            if problems:
                raise ValueError(joined(problems))
        return value

    @field_validator("tools")
    @classmethod
    def _tool_rules(cls, value: list[dict[str, Any]] | None) -> list[dict[str, Any]] | None:
        problems = []
        for index, tool in enumerate(value or []):
            kind = tool.get("type")
            if kind == "function":
                definition = tool.get("function")
                definition = definition if isinstance(definition, dict) else tool
                if not definition.get("name"):
                    problems.append(Text("responses.function_tool_needs_name", index=index))
                parameters = definition.get("parameters")
                if parameters is not None and (not isinstance(parameters, dict) or parameters.get("type", "object") != "object"):
                    problems.append(Text("responses.tool_parameters_not_object_schema", index=index))
            elif kind == "web_search_preview":
                if tool.get("search_context_size") not in (None, "low", "medium", "high"):
                    problems.append(Text("responses.search_context_size_not_allowed", index=index))
                location = tool.get("user_location")
                if location is not None and (not isinstance(location, dict) or location.get("type") != "approximate"):
                    problems.append(Text("responses.user_location_not_approximate", index=index))
            elif kind != "file_search":
                problems.append(Text("responses.tool_type_not_allowed", index=index))
        if problems:
            raise ValueError(joined(problems))
        return value

    @field_validator("tool_choice")
    @classmethod
    def _named_function(cls, value: Any) -> Any:
        if isinstance(value, dict):
            name = (value.get("function") or {}).get("name") or value.get("name")
            if value.get("type") != "function" or not name:
                raise ValueError(Text("responses.forced_tool_choice_shape"))
        return value

    def advisories(self) -> list[str]:
        notes: list[str] = []
        base = self.model.split("-thinking")[0].split("-nothinking")[0]
        if self.reasoning is not None and base not in REASONING_MODELS:
            notes.append(Text("responses.reasoning_models_only", models=', '.join(REASONING_MODELS), model=self.model))
        searching = any(tool.get("type") == "web_search_preview" for tool in self.tools or [])
        if searching and not self.model.startswith(SEARCH_FAMILIES):
            notes.append(Text("responses.web_search_some_families"))
        return notes


def _usage(raw: Any) -> Usage | None:
    if not isinstance(raw, dict):
        return None
    return Usage(
        input_tokens=raw.get("input_tokens"), output_tokens=raw.get("output_tokens"), total_tokens=raw.get("total_tokens"),
        cached_tokens=(raw.get("input_tokens_details") or {}).get("cached_tokens"),
        reasoning_tokens=(raw.get("output_tokens_details") or {}).get("reasoning_tokens"),
    )


def _sources(annotations: Any) -> list[dict[str, str]]:
    return [{"title": str(a.get("title") or a.get("url")), "url": str(a["url"])}
            for a in annotations or [] if isinstance(a, dict) and a.get("type") == "url_citation" and a.get("url")]


def result_from_response(body: Any) -> TextResult:
    """A response object -> `TextResult`: text of every output_text part, function calls,
    reasoning summaries, URL citations as sources, usage, status."""
    result = TextResult(complete=True)
    summaries: list[str] = []
    for item in body.get("output") or []:
        kind = item.get("type")
        if kind == "message":
            for part in item.get("content") or []:
                if part.get("type") == "output_text":
                    result.text += part.get("text", "")
                    result.sources += _sources(part.get("annotations"))
        elif kind == "function_call":
            result.tool_calls.append(ToolCall(item.get("call_id", ""), item.get("name", ""), item.get("arguments") or ""))
        elif kind == "reasoning":
            summaries += [part.get("text", "") for part in item.get("summary") or [] if isinstance(part, dict) and part.get("text")]
    result.reasoning = SUMMARY_BREAK.join(summaries)
    result.turn_items = [item for item in body.get("output") or [] if isinstance(item, dict)]
    result.finish_reason = (body.get("incomplete_details") or {}).get("reason") or body.get("status")
    result.usage = _usage(body.get("usage"))
    result.response_id = body.get("id")
    return result


def _delta(data: dict[str, Any]) -> str:
    """An event's `delta`: text, or a malformed event (an object's repr is never shown as text)."""
    delta = data.get("delta")
    if delta is None:
        return ""
    if not isinstance(delta, str):
        raise MalformedEventError(Text("responses.delta_not_text", event=str(data.get('type'))[:60], kind=type(delta).__name__))
    return delta


class ResponsesStream(TextStream):
    """Responses events -> neutral events; `response.completed` (or `.incomplete`) ends it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._calls: dict[str, tuple[int, str]] = {}
        self._joined: dict[tuple[str, int], list[str]] = {}
        self._part_start: dict[tuple[str, int], int] = {}
        self._items: dict[int, dict[str, Any]] = {}
        self._summary_part: tuple[str, Any] | None = None

    def is_end(self, message: SSEMessage) -> bool:
        return self._kind(message) in ("response.completed", "response.incomplete")

    @staticmethod
    def _kind(message: SSEMessage) -> str:
        data = message.data if isinstance(message.data, dict) else {}
        return str(data.get("type") or message.event or "")

    def parse(self, message: SSEMessage) -> list[StreamEvent]:
        data = message.data if isinstance(message.data, dict) else {}
        kind = self._kind(message)
        handler = getattr(self, "_on_" + kind.replace("response.", "").replace(".", "_"), None)
        return handler(data) if handler else []

    def _on_output_item_added(self, data: dict[str, Any]) -> list[StreamEvent]:
        item = data.get("item") or {}
        if item.get("type") == "function_call":
            index = len(self._calls)
            self._calls[str(item.get("id"))] = (index, str(item.get("name") or ""))
            return [ToolCallDelta(index, item.get("call_id"), item.get("name"), item.get("arguments") or "")]
        return []

    def _on_output_text_delta(self, data: dict[str, Any]) -> list[StreamEvent]:
        key = (str(data.get("item_id")), int(data.get("content_index") or 0))
        delta = _delta(data)
        pieces = self._joined.get(key)
        if pieces is None:
            self._part_start[key] = Joined.length(self.result, "text")
            pieces = self._joined[key] = []
        pieces.append(delta)
        return [TextDelta(delta)]

    def _on_output_text_done(self, data: dict[str, Any]) -> list[StreamEvent]:
        key = (str(data.get("item_id")), int(data.get("content_index") or 0))
        done, joined = data.get("text"), "".join(self._joined.get(key, ()))
        if isinstance(done, str) and done != joined:
            start = self._part_start.get(key, Joined.length(self.result, "text"))
            self.result.text = self.result.text[:start] + done + self.result.text[start + len(joined):]
            if self.exchange is not None:
                self.exchange.notes.append(Text("responses.done_text_differs", item=key[0]))
        return []

    def _on_output_text_annotation_added(self, data: dict[str, Any]) -> list[StreamEvent]:
        self.result.sources += _sources([data.get("annotation")])
        return []

    def _on_reasoning_summary_text_delta(self, data: dict[str, Any]) -> list[StreamEvent]:
        part = (str(data.get("item_id")), data.get("summary_index"))
        events: list[StreamEvent] = []
        if part != self._summary_part:
            if Joined.length(self.result, "reasoning"):
                events.append(ReasoningDelta(SUMMARY_BREAK))
            self._summary_part = part
        return events + [ReasoningDelta(_delta(data))]

    def _on_function_call_arguments_delta(self, data: dict[str, Any]) -> list[StreamEvent]:
        index, _ = self._calls.get(str(data.get("item_id")), (len(self._calls), ""))
        return [ToolCallDelta(index, arguments=_delta(data))]

    def _on_function_call_arguments_done(self, data: dict[str, Any]) -> list[StreamEvent]:
        index, name = self._calls.get(str(data.get("item_id")), (None, ""))
        if index is None or index >= len(self.result.tool_calls):
            return []
        call = self.result.tool_calls[index]
        call.name = call.name or data.get("name") or name
        if isinstance(data.get("arguments"), str) and data["arguments"] != call.arguments:
            call.arguments = data["arguments"]
        return []

    def _on_output_item_done(self, data: dict[str, Any]) -> list[StreamEvent]:
        item = data.get("item")
        if isinstance(item, dict):
            self._items[int(data.get("output_index") or len(self._items))] = item
            self.result.turn_items = [self._items[i] for i in sorted(self._items)]
        return []

    def _on_completed(self, data: dict[str, Any]) -> list[StreamEvent]:
        response = data.get("response") or {}
        self.result.response_id = response.get("id") or self.result.response_id
        if not self.result.turn_items and response.get("output"):
            self.result.turn_items = list(response["output"])
        events: list[StreamEvent] = [Finished((response.get("incomplete_details") or {}).get("reason") or response.get("status"))]
        usage = _usage(response.get("usage"))
        return events + [UsageReport(usage)] if usage else events

    _on_incomplete = _on_completed

    def _on_created(self, data: dict[str, Any]) -> list[StreamEvent]:
        self.result.response_id = (data.get("response") or {}).get("id")
        return []

    def _on_error(self, data: dict[str, Any]) -> list[StreamEvent]:
        nested = data.get("error")
        nested = nested if isinstance(nested, dict) else {}
        message = data.get("message") or nested.get("message")
        raise StreamEventError(str(message) if message else Text("responses.gateway_reported_error"), data.get("code") or nested.get("code") or nested.get("type"))

    def _on_failed(self, data: dict[str, Any]) -> list[StreamEvent]:
        error = (data.get("response") or {}).get("error") or {}
        message = error.get("message")
        raise StreamEventError(str(message) if message else Text("responses.response_failed"), error.get("code"))


class ResponsesAPI(TextAPI[ResponsesStream]):
    path = PATH
    stream_class = ResponsesStream
    result_from = staticmethod(result_from_response)
    answer_keys = ("output", "status")
    answer_name = Text("responses.answer_name")

