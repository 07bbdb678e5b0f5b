"""`POST /v1/chat/completions` on the demo gateway: replies, reasoning, tools, json_schema."""

from __future__ import annotations

import hashlib
import re
import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from starlette.responses import JSONResponse, Response

from playground.demo_gateway import scripted, text
from playground.demo_gateway.catalog import CHAT_MODELS, resolve_chat_model
from playground.demo_gateway.characters import pace as model_pace
from playground.demo_gateway.common import (
    HTTPProblem,
    count_tokens,
    first_pieces,
    number_in_range,
    pace,
    positive_int,
    split_pieces,
    sse_data,
    sse_response,
)
from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.faults import Fault, inject_stream_fault, strip_markers

ROLES = frozenset({"system", "user", "assistant", "tool"})
IMAGE_TOKENS = 85
BUILTIN_SEARCH_TOOL = "svcSearch"
ARGUMENT_PIECE = 8


@dataclass
class Plan:
    """What one chat completion will contain, decided once for streaming and non-streaming."""

    model: str
    text: str = ""
    reasoning: str = ""
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    finish_reason: str = "stop"
    prompt_tokens: int = 0
    inline_reasoning: bool = False

    @property
    def visible_text(self) -> str:
        if self.inline_reasoning and self.reasoning:
            return f"<think>{self.reasoning}</think>\n{self.text}"
        return self.text

    def usage(self, reasoning_shown: bool = True) -> dict[str, Any]:
        reasoning_tokens = count_tokens(self.reasoning)
        arguments = "".join(call["function"]["arguments"] for call in self.tool_calls)
        completion = count_tokens(self.text) + reasoning_tokens + count_tokens(arguments)
        usage: dict[str, Any] = {
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": completion,
            "total_tokens": self.prompt_tokens + completion,
        }
        if self.reasoning:
            usage["completion_tokens_details"] = {"reasoning_tokens": reasoning_tokens}
        return usage


def _content_text_and_images(content: Any) -> tuple[str, int]:
    if isinstance(content, str):
        return content, 0
    if not isinstance(content, list):
        return "", 0
    texts, images = [], 0
    for part in content:
        if not isinstance(part, dict):
            continue
        if part.get("type") == "text":
            texts.append(str(part.get("text", "")))
        elif part.get("type") in ("image_url", "input_image", "image"):
            images += 1
    return " ".join(texts), images


def _validate_messages(messages: Any) -> dict[str, str]:
    """Check roles and tool-call links; return tool_call_id -> tool name."""
    if not isinstance(messages, list) or not messages:
        raise HTTPProblem(400, "invalid_request_error", "messages must be a non-empty array.", code="invalid_value")
    names: dict[str, str] = {}
    for index, message in enumerate(messages):
        if not isinstance(message, dict) or message.get("role") not in ROLES:
            raise HTTPProblem(400, "invalid_request_error", f"messages[{index}].role must be one of {sorted(ROLES)}.")
        for call in message.get("tool_calls") or []:
            names[call.get("id", "")] = (call.get("function") or {}).get("name", "")
        if message["role"] == "tool" and message.get("tool_call_id") not in names:
            raise HTTPProblem(
                400, "invalid_request_error", f"messages[{index}].tool_call_id must equal the id of an earlier tool call."
            )
    return names


def _thinking(body: dict[str, Any], base: str, mode: str | None, stream: bool) -> tuple[bool, str, int | None]:
    """(on, effort, token budget) from the suffix and every thinking switch the spec lists."""
    effort = body.get("reasoning_effort")
    if effort is not None and effort not in ("low", "medium", "high"):
        raise HTTPProblem(400, "invalid_request_error", "reasoning_effort must be low, medium or high.")
    if mode == "off":
        return False, "medium", None
    if mode is not None:
        budget = int(mode) if mode.isdigit() else None
        return True, mode if mode in ("low", "high") else (effort or "medium"), budget
    thinking_config = ((body.get("extra_body") or {}).get("svc") or {}).get("thinking_config") or {}
    switches = [
        CHAT_MODELS[base]["reasoning"],
        effort is not None,
        (body.get("thinking") or {}).get("type") == "enabled",
        bool((body.get("generationConfig") or {}).get("thinkingConfig")),
        bool(body.get("enable_thinking")) and stream,
        stream and (thinking_config.get("include_thoughts") or thinking_config.get("thinking_budget", 0) not in (0, None)),
    ]
    level = ((body.get("generationConfig") or {}).get("thinkingConfig") or {}).get("thinkingLevel")
    if level is not None and level not in ("LOW", "HIGH"):
        raise HTTPProblem(400, "invalid_request_error", "generationConfig.thinkingConfig.thinkingLevel must be LOW or HIGH.")
    if (body.get("enable_thinking") is False) or thinking_config.get("thinking_budget") == 0:
        return False, "medium", None
    return any(switches), effort or (level or "medium").lower(), None


def _call_id(seed: str, name: str, index: int) -> str:
    return "call_" + hashlib.sha256(f"{seed}|{name}|{index}".encode()).hexdigest()[:24]


def _pick_tool(tools: list[dict[str, Any]], tool_choice: Any, prompt: str) -> dict[str, Any] | None:
    callable_tools = [t for t in tools if (t.get("function") or {}).get("name") != BUILTIN_SEARCH_TOOL]
    if tool_choice == "none" or not callable_tools:
        return None
    if isinstance(tool_choice, dict):
        wanted = (tool_choice.get("function") or {}).get("name")
        chosen = next((t for t in callable_tools if t["function"]["name"] == wanted), None)
        if chosen is None:
            raise HTTPProblem(400, "invalid_request_error", f"tool_choice names {wanted!r}, which is not among the tools.")
        return chosen
    words = set(re.findall(r"[a-z0-9]+", prompt.lower()))
    for tool in callable_tools:
        parts = [p for p in re.split(r"[_\W]+|(?<=[a-z])(?=[A-Z])", tool["function"]["name"]) if len(p) >= 4]
        if any(part.lower() in words for part in parts):
            return tool
    return callable_tools[0] if tool_choice == "required" else None


def _validate_tools(tools: Any) -> list[dict[str, Any]]:
    if tools is None:
        return []
    if not isinstance(tools, list):
        raise HTTPProblem(400, "invalid_request_error", "tools must be an array.")
    for index, tool in enumerate(tools):
        if not isinstance(tool, dict) or tool.get("type") != "function" or not (tool.get("function") or {}).get("name"):
            raise HTTPProblem(400, "invalid_request_error", f"tools[{index}] must be {{type: function, function: {{name, ...}}}}.")
    return tools


def plan_completion(body: dict[str, Any]) -> tuple[Plan, bool]:
    """Validate the body and decide the answer. Returns the plan and whether to stream."""
    model = body.get("model")
    if not isinstance(model, str) or not model:
        raise HTTPProblem(400, "invalid_request_error", "model is required.", code="missing_required_parameter")
    resolved = resolve_chat_model(model)
    if resolved is None:
        raise HTTPProblem(404, "invalid_request_error", f"The model '{model}' does not exist or is not supported.", code="model_not_found")
    base, mode = resolved
    messages = body.get("messages")
    tool_names = _validate_messages(messages)
    temperature = number_in_range(body, "temperature", 0, 2)
    top_p = number_in_range(body, "top_p", 0, 1)
    max_tokens = positive_int(body, "max_tokens")
    tools = _validate_tools(body.get("tools"))
    stream = bool(body.get("stream"))
    thinking_on, effort, budget = _thinking(body, base, mode, stream)

    prompt_parts = [_content_text_and_images(m.get("content")) for m in messages]
    prompt_tokens = sum(count_tokens(t) + IMAGE_TOKENS * n for t, n in prompt_parts)
    prompt_tokens += sum(count_tokens(json.dumps(t)) for t in tools)
    last = messages[-1]
    prompt, images = _content_text_and_images(last.get("content")) if last.get("role") == "user" else ("", 0)
    prompt = strip_markers(prompt)
    plan = Plan(model=model, prompt_tokens=prompt_tokens, inline_reasoning=bool(body.get("svc_thinking_to_content")))

    if thinking_on:
        plan.reasoning = text.reasoning_text(prompt, effort, model)
        if budget is not None:
            plan.reasoning = first_pieces(plan.reasoning, budget)

    if last.get("role") == "tool":
        trailing = []
        for message in reversed(messages):
            if message.get("role") != "tool":
                break
            trailing.append((tool_names.get(message["tool_call_id"], ""), _content_text_and_images(message.get("content"))[0]))
        plan.text = text.tool_answer_text(list(reversed(trailing)))
    else:
        tool = _pick_tool(tools, body.get("tool_choice"), prompt) if last.get("role") == "user" else None
        response_format = body.get("response_format") or {}
        if tool is not None:
            function = tool["function"]
            arguments = scripted.tool_arguments(function.get("parameters") or {"type": "object", "properties": {}}, prompt)
            plan.tool_calls.append(
                {"id": _call_id(prompt, function["name"], 0), "type": "function",
                 "function": {"name": function["name"], "arguments": json.dumps(arguments)}}
            )
            plan.finish_reason = "tool_calls"
        elif response_format.get("type") == "json_schema":
            schema = (response_format.get("json_schema") or {}).get("schema")
            if not isinstance(schema, dict):
                raise HTTPProblem(400, "invalid_request_error", "response_format.json_schema.schema must be a JSON Schema object.")
            plan.text = json.dumps(scripted.structured(schema, prompt))
        else:
            settings = {"temperature": temperature, "top_p": top_p, "max_tokens": max_tokens}
            if any((t.get("function") or {}).get("name") == BUILTIN_SEARCH_TOOL for t in tools):
                settings["web_search"] = "simulated"
            plan.text = text.reply_text(prompt, model, settings, images)
    if max_tokens is not None and not plan.tool_calls and count_tokens(plan.text) > max_tokens:
        plan.text = first_pieces(plan.text, max_tokens)
        plan.finish_reason = "length"
    return plan, stream


def _completion_id(plan: Plan) -> str:
    return "chatcmpl-" + hashlib.sha256((plan.model + plan.text).encode()).hexdigest()[:20]


def completion_body(plan: Plan) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": plan.text if not plan.inline_reasoning else plan.visible_text}
    if plan.tool_calls:
        message["tool_calls"] = plan.tool_calls
        message["content"] = message["content"] or None
    return {
        "id": _completion_id(plan),
        "object": "chat.completion",
        "created": int(time.time()),
        "model": plan.model,
        "choices": [{"index": 0, "message": message, "finish_reason": plan.finish_reason}],
        "usage": plan.usage(),
    }


async def _chunks(plan: Plan, delay: float) -> AsyncIterator[str]:
    head = {"id": _completion_id(plan), "object": "chat.completion.chunk", "created": int(time.time()), "model": plan.model}

    def chunk(delta: dict[str, Any], finish: str | None = None) -> str:
        return sse_data({**head, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})

    yield ": keep-alive\n\n"
    yield chunk({"role": "assistant", "content": ""})
    reasoning_field = "content" if plan.inline_reasoning else "reasoning_content"
    if plan.reasoning:
        pieces = split_pieces(plan.reasoning)
        if plan.inline_reasoning:
            pieces = ["<think>", *pieces, "</think>\n"]
        for piece in pieces:
            await pace(delay)
            yield chunk({reasoning_field: piece})
    for piece in split_pieces(plan.text):
        await pace(delay)
        yield chunk({"content": piece})
    for index, call in enumerate(plan.tool_calls):
        start = {"index": index, "id": call["id"], "type": "function", "function": {"name": call["function"]["name"], "arguments": ""}}
        yield chunk({"tool_calls": [start]})
        arguments = call["function"]["arguments"]
        for offset in range(0, len(arguments), ARGUMENT_PIECE):
            await pace(delay)
            yield chunk({"tool_calls": [{"index": index, "function": {"arguments": arguments[offset : offset + ARGUMENT_PIECE]}}]})
    yield chunk({}, plan.finish_reason)
    yield sse_data({**head, "choices": [], "usage": plan.usage()})
    yield "data: [DONE]\n\n"


async def handle(body: dict[str, Any], config: DemoConfig, fault: Fault | None) -> Response:
    plan, stream = plan_completion(body)
    if not stream:
        return JSONResponse(completion_body(plan))
    error_event = sse_data({"error": {"message": "The upstream model failed mid-stream (demo fault).", "type": "upstream_error"}})
    return sse_response(inject_stream_fault(_chunks(plan, config.token_delay * model_pace(plan.model)), fault, config.stall_seconds, error_event))
