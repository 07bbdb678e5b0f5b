"""The native generate-content format: `/v1beta/models/{model}:streamGenerateContent?alt=sse`
and, where the spec shows no path, the native convention `/v1beta/models/{model}:generateContent`
for a whole answer. The model goes in the path (URL-encoded), never in the body.

Each stream frame is a response fragment; the stream is complete when a candidate carries a
finish reason. Thought parts go to the Thinking section; model turns keep every part (thought
signatures, function calls) to be sent back; generated images are checked and saved as files;
grounding citations are placed by UTF-8 byte offsets.
"""

from __future__ import annotations

from playground.client.texts import Text, joined

import json
from pathlib import Path
from typing import Any, Literal
from urllib.parse import quote

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from playground.client.errors import MalformedEventError, PromptBlockedError
from playground.client.media import save_inline_image
from playground.client.results import (
    Finished,
    ReasoningDelta,
    StreamEvent,
    TextDelta,
    TextReplaced,
    TextResult,
    ToolCallDelta,
    Usage,
    UsageReport,
)
from playground.client.sse import SSEMessage
from playground.client.streaming import TextAPI, TextStream
from playground.client.validation import RequestModel

PART_KINDS = ("text", "inlineData", "fileData", "functionCall", "functionResponse")


class ThinkingConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")
    thinkingBudget: int | None = Field(default=None, ge=-1)
    thinkingLevel: Literal["LOW", "HIGH"] | None = None
    includeThoughts: bool | None = None

    @field_validator("thinkingLevel")
    @classmethod
    def _one_of_two(cls, value: str | None, info: Any) -> str | None:
        if value is not None and info.data.get("thinkingBudget") is not None:
            raise ValueError(Text("native.thinking_budget_and_level"))
        return value


class GenerationConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")
    temperature: float | None = Field(default=None, ge=0, le=2)
    topP: float | None = Field(default=None, ge=0, le=1)
    topK: int | None = Field(default=None, gt=0)
    maxOutputTokens: int | None = Field(default=None, gt=0)
    stopSequences: list[str] | None = None
    responseMimeType: str | None = None
    responseModalities: list[Literal["TEXT", "IMAGE"]] | None = None
    thinkingConfig: ThinkingConfig | None = None
    imageConfig: dict[str, Any] | None = None
    responseSchema: dict[str, Any] | None = None
    """Structured output (not in the spec's list; where the native format of real gateways takes it),
    with `responseMimeType` `application/json`; `responseJsonSchema` takes full JSON Schema."""
    responseJsonSchema: dict[str, Any] | None = None

    @model_validator(mode="after")
    def _schema_wants_json(self) -> GenerationConfig:
        if (self.responseSchema is not None or self.responseJsonSchema is not None) and self.responseMimeType != "application/json":
            raise ValueError(Text("native.schema_needs_json"))
        return self


def check_contents(contents: list[Any]) -> list[str]:
    problems: list[str] = []
    for index, content in enumerate(contents):
        where = f"contents[{index}]"
        if not isinstance(content, dict) or content.get("role", "user") not in ("user", "model"):
            problems.append(Text("native.role_not_allowed", where=where))
            continue
        parts = content.get("parts")
        if not isinstance(parts, list) or not parts:
            problems.append(Text("native.parts_empty", where=where))
            continue
        for n, part in enumerate(parts):
            if not isinstance(part, dict) or not any(kind in part for kind in PART_KINDS):
                problems.append(Text("native.part_kind_missing", where=where, number=n, kinds=', '.join(PART_KINDS)))
            elif "inlineData" in part and not {"mimeType", "data"} <= set(part["inlineData"] or {}):
                problems.append(Text("native.inline_data_fields", where=where, number=n))
            elif "fileData" in part and not {"mimeType", "fileUri"} <= set(part["fileData"] or {}):
                problems.append(Text("native.file_data_fields", where=where, number=n))
        calls = any("functionCall" in part for part in parts if isinstance(part, dict))
        following = contents[index + 1] if index + 1 < len(contents) else None
        if calls and isinstance(following, dict) and not any("functionResponse" in p for p in following.get("parts") or [] if isinstance(p, dict)):
            problems.append(Text("native.function_response_missing", turn=index + 1))
    return problems


class NativeRequest(RequestModel):
    """The request with the spec's rules; `model` goes in the path (`to_body` leaves it out)."""

    model: str = Field(min_length=1)
    stream: bool = Field(default=False, exclude=True)
    """Said in the path (`:streamGenerateContent`), never in the body."""
    contents: list[dict[str, Any]] = Field(min_length=1)
    generationConfig: GenerationConfig | None = None
    systemInstruction: dict[str, Any] | None = None
    safetySettings: list[dict[str, str]] | None = None
    tools: list[dict[str, Any]] | None = None
    toolConfig: dict[str, Any] | None = None
    cachedContent: str | None = None

    @field_validator("contents")
    @classmethod
    def _contents_rules(cls, value: list[dict[str, Any]]) -> list[dict[str, Any]]:
        problems = check_contents(value)
        if problems:
            raise ValueError(joined(problems))
        return value

    @field_validator("tools")
    @classmethod
    def _tool_rules(cls, value: list[dict[str, Any]] | None) -> list[dict[str, Any]] | None:
        problems: list[str] = []
        for index, tool in enumerate(value or []):
            if set(tool) == {"svcSearch"}:
                continue
            if set(tool) != {"functionDeclarations"}:
                problems.append(Text("native.tools_search_separate", index=index))
                continue
            for n, declaration in enumerate(tool["functionDeclarations"] or []):
                if not isinstance(declaration, dict) or not declaration.get("name"):
                    problems.append(f"tools[{index}].functionDeclarations[{n}]: needs a name")
        if problems:
            raise ValueError(joined(problems))
        return value

    @field_validator("toolConfig")
    @classmethod
    def _mode(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        mode = ((value or {}).get("functionCallingConfig") or {}).get("mode")
        if mode not in (None, "AUTO", "ANY", "NONE"):
            raise ValueError(Text("native.calling_mode_not_allowed"))
        return value

    @field_validator("safetySettings")
    @classmethod
    def _safety(cls, value: list[dict[str, str]] | None) -> list[dict[str, str]] | None:
        if any(not {"category", "threshold"} <= set(item) for item in value or []):
            raise ValueError(Text("native.safety_setting_fields"))
        return value

    def to_body(self) -> dict[str, Any]:
        body = super().to_body()
        body.pop("model", None)
        return body

    def advisories(self) -> list[str]:
        return []


def _usage(raw: Any) -> Usage | None:
    if not isinstance(raw, dict):
        return None
    return Usage(input_tokens=raw.get("promptTokenCount"), output_tokens=raw.get("candidatesTokenCount"),
                 total_tokens=raw.get("totalTokenCount"), reasoning_tokens=raw.get("thoughtsTokenCount"),
                 cached_tokens=raw.get("cachedContentTokenCount"))


def cite(text: str, metadata: dict[str, Any]) -> tuple[str, list[dict[str, str]]]:
    """Place [n] after each supported segment (UTF-8 byte offsets) and list the sources."""
    chunks = [chunk.get("web") or {} for chunk in metadata.get("groundingChunks") or []]
    sources = [{"title": str(c.get("title") or c.get("uri")), "url": str(c["uri"])} for c in chunks if c.get("uri")]
    encoded = text.encode()
    marks: list[tuple[int, str]] = []
    for support in metadata.get("groundingSupports") or []:
        end = (support.get("segment") or {}).get("endIndex")
        numbers = "".join(f"[{i + 1}]" for i in support.get("groundingChunkIndices") or [] if i < len(chunks))
        if isinstance(end, int) and 0 < end <= len(encoded) and numbers:
            marks.append((len(encoded[:end].decode("utf-8", "ignore")), numbers))
    for position, numbers in sorted(marks, reverse=True):
        text = text[:position] + numbers + text[position:]
    return text, sources


class NativeStream(TextStream):
    """Response fragments -> neutral events; a finish reason on a candidate ends the stream."""

    image_dir: Path = Path()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._parts: list[dict[str, Any]] = []
        self._open_text: list[str] | None = None
        self._parsed: tuple[SSEMessage | None, bool] = (None, False)
        """The last parsed message and whether it ended the stream (`is_end` asks right after)."""
        """Pieces of the last kept part while unsigned text of one kind goes on being merged into it."""

    def is_end(self, message: SSEMessage) -> bool:
        if message is self._parsed[0]:
            return self._parsed[1]
        data = message.data if isinstance(message.data, dict) else {}
        return any(isinstance(c, dict) and c.get("finishReason") for c in data.get("candidates") or [])

    def _keep(self, part: dict[str, Any]) -> None:
        """Every part of the model turn as received, except that consecutive unsigned text parts
        of one kind are merged (pieces joined once, at the end). A part with a thoughtSignature is
        kept as it came: the signature must go back on the part it arrived on."""
        last = self._parts[-1] if self._parts else None
        signed = "thoughtSignature" in part
        if (self._open_text is not None and last is not None and "text" in part and not signed
                and bool(last.get("thought")) == bool(part.get("thought"))):
            self._open_text.append(str(part["text"]))
            return
        self._close_text()
        self._parts.append(dict(part))
        if "text" in part and not signed:
            self._open_text = [str(part["text"])]

    def _close_text(self) -> None:
        if self._open_text is not None:
            if len(self._open_text) > 1:
                self._parts[-1]["text"] = "".join(self._open_text)
            self._open_text = None

    def _finish_turn(self) -> None:
        self._close_text()
        self.result.turn_items = [{"role": "model", "parts": self._parts}]

    def parse(self, message: SSEMessage) -> list[StreamEvent]:
        data = message.data if isinstance(message.data, dict) else {}
        feedback = data.get("promptFeedback")
        feedback = feedback if isinstance(feedback, dict) else {}
        if feedback.get("blockReason"):
            self.result.usage = _usage(data.get("usageMetadata")) or self.result.usage
            self.result.finish_reason = str(feedback["blockReason"])
            blocked = PromptBlockedError(str(feedback["blockReason"]), feedback.get("blockReasonMessage"))
            blocked.partial = self.result
            raise blocked
        events: list[StreamEvent] = []
        for candidate in (data.get("candidates") or [])[:1]:
            parts = (candidate.get("content") or {}).get("parts") or []
            if not isinstance(parts, list):
                raise MalformedEventError(Text("native.parts_not_list", kind=type(parts).__name__))
            for part in parts:
                events.extend(self._part(part))
            if candidate.get("groundingMetadata"):
                self.result.grounding = candidate["groundingMetadata"]
            if candidate.get("finishReason"):
                events.append(Finished(candidate["finishReason"]))
        usage = _usage(data.get("usageMetadata"))
        if usage:
            events.append(UsageReport(usage))
        ended = any(isinstance(c, dict) and c.get("finishReason") for c in data.get("candidates") or [])
        self._parsed = (message, ended)
        if ended:
            self._finish_turn()
        if ended and self.result.grounding:
            whole = self.result.text + self._redact.pending("text") + "".join(event.text for event in events if isinstance(event, TextDelta))
            cited, self.result.sources = cite(whole, self.result.grounding)
            events.append(TextReplaced(cited))
        return events

    def _part(self, part: dict[str, Any]) -> list[StreamEvent]:
        if not isinstance(part, dict):
            raise MalformedEventError(Text("native.part_not_object", kind=type(part).__name__))
        for key, kind in (("text", str), ("functionCall", dict), ("inlineData", dict)):
            if key in part and not isinstance(part[key], kind) and not (part[key] is None and kind is dict):
                found = type(part[key]).__name__
                raise MalformedEventError(Text("native.part_field_not_text", field=key, kind=found) if kind is str
                                          else Text("native.part_field_not_object", field=key, kind=found))
        self._keep(part)
        if "text" in part:
            return [ReasoningDelta(part["text"]) if part.get("thought") else TextDelta(part["text"])]
        if "functionCall" in part:
            call = part["functionCall"] or {}
            index = len(self.result.tool_calls)
            return [ToolCallDelta(index, f"call_{index}_{call.get('name', '')}", call.get("name"), json.dumps(call.get("args") or {}))]
        if "inlineData" in part:
            inline = part["inlineData"] or {}
            self.result.files.append(str(save_inline_image(str(inline.get("data", "")), self.image_dir)))
            self._parts[-1] = {"inlineData": {"mimeType": inline.get("mimeType"), "data": inline.get("data")}}
        return []


class NativeAPI(TextAPI[NativeStream]):
    stream_class = NativeStream
    stream_flag = False
    answer_keys = ("candidates", "promptFeedback")
    answer_name = Text("native.answer_name")

    def __init__(self, transport: Any, image_dir: Path | None = None) -> None:
        super().__init__(transport)
        self.image_dir = image_dir or Path("native-images")

    def route(self, request: Any, stream: bool) -> tuple[str, dict[str, str] | None]:
        model = quote(request.model, safe="")
        if stream:
            return f"/v1beta/models/{model}:streamGenerateContent", {"alt": "sse"}
        return f"/v1beta/models/{model}:generateContent", None

    def stream(self, conn: Any, request: Any) -> NativeStream:
        opened = super().stream(conn, request)
        opened.image_dir = self.image_dir
        return opened

    def result_from(self, body: Any) -> TextResult:
        """A whole answer, read by the same rules as the stream (one fragment)."""
        stream = NativeStream(self._transport, None, "", {})
        stream.image_dir = self.image_dir
        for event in stream.parse(SSEMessage(None, body)):
            stream.result.apply(event, 0.0)
        stream._finish_turn()
        stream.result.complete = True
        return stream.result

