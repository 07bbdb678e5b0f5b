"""One format-neutral request ("intent") written in each text format, with the mapping of every
shared parameter to that format's field, or the reason it is not sent.

Used by the Compare tab: the same intent goes through chat completions, responses, messages and
native; what a format cannot express is reported, never silently dropped. Where a column sends
something other than what was asked (a parameter left out or raised so the format or the model
accepts the request), the change is also one of its `adjustments`, said beside the column:
the responses format sends `reasoning` only to a model the catalogue does not call non-reasoning,
and the messages format sends a temperature with thinking only when it is 1 (the real messages
API refuses any other; the spec recommends 1.0).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from playground.client import catalog
from playground.client.chat import ChatRequest
from playground.client.messages import MessagesRequest
from playground.client.native import NativeRequest
from playground.client.responses import ResponsesRequest
from playground.client.texts import Text

FORMATS = ("chat", "responses", "messages", "native")
FORMAT_LABELS = {fmt: Text(f"report.format.{fmt}") for fmt in FORMATS}
MESSAGES_DEFAULT_MAX_TOKENS = 1024
_DATA_URL = re.compile(r"^data:(?P<type>[\w.+/-]+);base64,(?P<data>.+)$", re.DOTALL)


@dataclass(frozen=True)
class Intent:
    user: str
    system: str = ""
    image: str | None = None
    """A data URL (an uploaded image, already checked)."""
    temperature: float | None = None
    max_tokens: int | None = None
    thinking: bool = False
    budget: int = 2048
    stream: bool = True


@dataclass
class Mapped:
    format: str
    request: Any
    mapping: dict[str, str] = field(default_factory=dict)
    """Shared parameter -> how this format carries it (a field path, or a `Text` describing the
    fields), or "not sent: why" (a `Text`)."""
    adjustments: list[Text] = field(default_factory=list)
    """What this column sends differently from what was asked, and why (shown beside the column)."""


NOT_SET = Text("intent.not_sent_not_set")
EMPTY = Text("intent.not_sent_empty")
OFF = Text("intent.not_sent_off")


def _image_parts(image: str) -> tuple[str, str]:
    match = _DATA_URL.match(image)
    if not match:
        raise ValueError(Text("intent.image_not_data_url"))
    return match["type"], match["data"]


def to_chat(intent: Intent, model: str) -> Mapped:
    mapping: dict[str, str] = {}
    mapping["system prompt"] = Text("intent.chat_system_message") if intent.system else EMPTY
    content: Any = intent.user if not intent.image else [{"type": "text", "text": intent.user}, {"type": "image_url", "image_url": {"url": intent.image}}]
    mapping["user message"] = Text("intent.chat_user_with_image") if intent.image else "messages[-1].content"
    fields: dict[str, Any] = {"temperature": intent.temperature, "max_tokens": intent.max_tokens, "stream": intent.stream}
    mapping["temperature"] = "temperature" if intent.temperature is not None else NOT_SET
    mapping["max output tokens"] = "max_tokens" if intent.max_tokens else NOT_SET
    if intent.thinking and intent.stream:
        fields["extra_body"] = {"svc": {"thinking_config": {"thinking_budget": intent.budget, "include_thoughts": True}}}
        mapping["thinking"] = "extra_body.svc.thinking_config.thinking_budget"
    else:
        mapping["thinking"] = Text("intent.not_sent_thinking_needs_stream") if intent.thinking else OFF
    adjustments = [Text("intent.chat_thinking_needs_stream")] if intent.thinking and not intent.stream else []
    mapping["stream"] = "stream"
    messages = ([{"role": "system", "content": intent.system}] if intent.system else []) + [{"role": "user", "content": content}]
    return Mapped("chat", ChatRequest.build(model=model, messages=messages, **fields), mapping, adjustments)


def to_responses(intent: Intent, model: str) -> Mapped:
    content: list[dict[str, Any]] = [{"type": "input_text", "text": intent.user}]
    if intent.image:
        content.append({"type": "input_image", "image_url": intent.image, "detail": "auto"})
    known = catalog.find(model)
    reasons = intent.thinking and (known is None or known.reasoning)
    adjustments = [] if reasons or not intent.thinking else [Text("intent.responses_model_does_not_reason", model=model)]
    mapping: dict[str, str] = {}
    mapping["system prompt"] = "instructions" if intent.system else EMPTY
    mapping["user message"] = Text("intent.responses_user_parts", parts="input_text + input_image" if intent.image else "input_text")
    mapping["temperature"] = "temperature" if intent.temperature is not None else NOT_SET
    mapping["max output tokens"] = "max_output_tokens" if intent.max_tokens else NOT_SET
    mapping["thinking"] = Text("intent.responses_reasoning_effort") if reasons else adjustments[0] if adjustments else OFF
    mapping["stream"] = "stream"
    request = ResponsesRequest.build(model=model, input=[{"role": "user", "content": content}], instructions=intent.system or None,
                                     temperature=intent.temperature, max_output_tokens=intent.max_tokens, stream=intent.stream,
                                     reasoning={"effort": "medium", "summary": "auto"} if reasons else None)
    return Mapped("responses", request, mapping, adjustments)


def to_messages(intent: Intent, model: str) -> Mapped:
    content: list[dict[str, Any]] = []
    if intent.image:
        media, data = _image_parts(intent.image)
        content.append({"type": "image", "source": {"type": "base64", "media_type": media, "data": data}})
    content.append({"type": "text", "text": intent.user})
    max_tokens = intent.max_tokens or MESSAGES_DEFAULT_MAX_TOKENS
    mapping: dict[str, str] = {}
    mapping["system prompt"] = "system" if intent.system else EMPTY
    mapping["user message"] = Text("intent.messages_user_image_blocks") if intent.image else Text("intent.messages_user_text_block")
    temperature, adjustments = intent.temperature, []
    if temperature is not None and intent.thinking and temperature != 1:
        adjustments.append(Text("intent.messages_thinking_temperature", temperature=f"{temperature:g}"))
        mapping["temperature"], temperature = adjustments[-1], None
    elif temperature is not None and temperature > 1:
        mapping["temperature"] = Text("intent.not_sent_temperature_above_messages_range", asked=temperature)
        adjustments.append(Text("intent.messages_temperature_range", temperature=f"{temperature:g}"))
        temperature = None
    else:
        mapping["temperature"] = "temperature" if temperature is not None else NOT_SET
    mapping["max output tokens"] = "max_tokens" if intent.max_tokens else Text("intent.messages_max_tokens_required", max_tokens=MESSAGES_DEFAULT_MAX_TOKENS)
    thinking = None
    if intent.thinking:
        budget = max(intent.budget, 1025)
        if budget != intent.budget:
            adjustments.append(Text("intent.messages_budget_raised", asked=intent.budget, budget=budget))
        if max_tokens <= budget:
            max_tokens = budget + max_tokens
            mapping["max output tokens"] = Text("intent.mapping_max_tokens_raised", field=mapping["max output tokens"], max_tokens=max_tokens)
            if intent.max_tokens:  # the format's default raised is not a change to what was asked
                adjustments.append(Text("intent.messages_max_tokens_raised", max_tokens=max_tokens))
        thinking = {"type": "enabled", "budget_tokens": budget}
        mapping["thinking"] = Text("intent.mapping_budget_raised", budget=budget) if budget != intent.budget else f"thinking.budget_tokens = {budget}"
    else:
        mapping["thinking"] = OFF
    mapping["stream"] = "stream"
    request = MessagesRequest.build(model=model, system=intent.system or None, messages=[{"role": "user", "content": content}],
                                    max_tokens=max_tokens, temperature=temperature, thinking=thinking, stream=intent.stream)
    return Mapped("messages", request, mapping, adjustments)


def to_native(intent: Intent, model: str) -> Mapped:
    parts: list[dict[str, Any]] = [{"text": intent.user}]
    if intent.image:
        media, data = _image_parts(intent.image)
        parts.append({"inlineData": {"mimeType": media, "data": data}})
    config: dict[str, Any] = {}
    if intent.temperature is not None:
        config["temperature"] = intent.temperature
    if intent.max_tokens:
        config["maxOutputTokens"] = intent.max_tokens
    if intent.thinking:
        config["thinkingConfig"] = {"thinkingBudget": intent.budget, "includeThoughts": True}
    mapping: dict[str, str] = {}
    mapping["system prompt"] = "systemInstruction.parts[0].text" if intent.system else EMPTY
    mapping["user message"] = Text("intent.native_user_parts", parts="text + inlineData" if intent.image else "text")
    mapping["temperature"] = "generationConfig.temperature" if intent.temperature is not None else NOT_SET
    mapping["max output tokens"] = "generationConfig.maxOutputTokens" if intent.max_tokens else NOT_SET
    mapping["thinking"] = "generationConfig.thinkingConfig.thinkingBudget" if intent.thinking else OFF
    mapping["stream"] = Text("intent.native_stream_path")
    request = NativeRequest.build(model=model, stream=intent.stream, contents=[{"role": "user", "parts": parts}],
                                  systemInstruction={"parts": [{"text": intent.system}]} if intent.system else None,
                                  generationConfig=config or None)
    return Mapped("native", request, mapping)


WRITERS = {"chat": to_chat, "responses": to_responses, "messages": to_messages, "native": to_native}


def to_request(intent: Intent, fmt: str, model: str) -> Mapped:
    """The intent in format `fmt` for `model` (raises `RequestValidationError` on a rule)."""
    return WRITERS[fmt](intent, model)
