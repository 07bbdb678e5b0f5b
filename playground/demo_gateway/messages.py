"""`POST /v1/messages` and `/v1/messages/count_tokens` on the demo gateway."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from starlette.responses import JSONResponse, Response

from playground.demo_gateway import scripted, text
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
from playground.demo_gateway.characters import pace as model_pace
from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.parallel_calls import call_prompts
from playground.demo_gateway.faults import Fault, inject_stream_fault, last_user_text, strip_markers
from playground.demo_gateway.prompt_cache import PromptCache, prompt_units

MODELS = ("cl-opus-4-5-20251101", "cl-haiku-4-5-20251001", "cl-sonnet-4-5-20250929", "cl-opus-4-1-20250805", "cl-sonnet-4-20250514")
WEB_SEARCH = ("web_search_20250305", "web_search")
TOOL_CHOICE_TYPES = ("auto", "any", "none", "tool")
ARGUMENT_PIECE = 8


def _invalid(message: str) -> HTTPProblem:
    return HTTPProblem(400, "invalid", message)


def validate_prompt(body: dict[str, Any]) -> None:
    """Rules shared by messages and count_tokens: model, messages, tools."""
    model = body.get("model")
    if not isinstance(model, str) or not model:
        raise _invalid("model: field required")
    if model not in MODELS:
        raise HTTPProblem(404, "not_found_error", f"model: {model} is not a served `cl` model")
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise _invalid("messages: must be a non-empty array")
    tool_use_ids: set[str] = set()
    for index, message in enumerate(messages):
        if not isinstance(message, dict) or message.get("role") not in ("user", "assistant"):
            raise _invalid(f"messages[{index}].role: must be 'user' or 'assistant'")
        content = message.get("content")
        if not isinstance(content, (str, list)):
            raise _invalid(f"messages[{index}].content: must be a string or an array of blocks")
        for block in content if isinstance(content, list) else []:
            if block.get("type") == "tool_use":
                tool_use_ids.add(block.get("id"))
            if block.get("type") == "tool_result" and block.get("tool_use_id") not in tool_use_ids:
                raise _invalid(f"messages[{index}]: tool_result.tool_use_id must equal the id of an earlier tool_use block")
    for index, tool in enumerate(body.get("tools") or []):
        if str(tool.get("type", "")).startswith("web_search"):
            if (tool.get("type"), tool.get("name")) != WEB_SEARCH:
                raise _invalid(f"tools[{index}]: the web search tool needs type 'web_search_20250305' and name 'web_search'")
        elif not tool.get("name") or not isinstance(tool.get("input_schema"), dict):
            raise _invalid(f"tools[{index}]: a function tool needs name and input_schema")


def _validate_thinking_replay(body: dict[str, Any]) -> None:
    """With thinking on, the assistant turn that called a tool must come back starting with its
    thinking block and the signature it was given (as real gateways of this format require)."""
    if not body.get("thinking"):
        return
    messages = body["messages"]
    if not (messages[-1].get("role") == "user" and _tool_results(messages[-1]) and len(messages) >= 2):
        return
    turn = messages[-2].get("content")
    first = turn[0] if isinstance(turn, list) and turn else None
    if not isinstance(first, dict) or first.get("type") not in ("thinking", "redacted_thinking"):
        raise _invalid(f"messages[{len(messages) - 2}].content[0]: with thinking enabled, an assistant turn with tool_use must "
                       "start with its thinking block, sent back unchanged with its signature")
    if first.get("type") == "thinking" and first.get("signature") != _block_id("sig_", str(first.get("thinking", ""))):
        raise _invalid(f"messages[{len(messages) - 2}].content[0]: the thinking block's signature does not match its text")


def _validate_generation(body: dict[str, Any]) -> None:
    _validate_thinking_replay(body)
    if body.get("max_tokens") is None:
        raise _invalid("max_tokens: field required")
    positive_int(body, "max_tokens")
    number_in_range(body, "temperature", 0, 1)
    number_in_range(body, "top_p", 0, 1)
    thinking = body.get("thinking")
    if thinking is not None:
        budget = thinking.get("budget_tokens") if isinstance(thinking, dict) else None
        if thinking.get("type") != "enabled" or not isinstance(budget, int) or budget <= 1024:
            raise _invalid("thinking: needs type 'enabled' and budget_tokens greater than 1024")
    choice = body.get("tool_choice")
    if choice is not None and (not isinstance(choice, dict) or choice.get("type") not in TOOL_CHOICE_TYPES):
        raise _invalid("tool_choice.type: must be auto, any, none or tool")
    if isinstance(choice, dict) and choice.get("type") == "tool" and choice.get("name") not in {t.get("name") for t in body.get("tools") or []}:
        raise _invalid("tool_choice.name: must name one of the tools")


def _block_id(prefix: str, seed: str) -> str:
    return prefix + hashlib.sha256(seed.encode()).hexdigest()[:24]


def _pick_tool(body: dict[str, Any], prompt: str) -> dict[str, Any] | None:
    functions = [t for t in body.get("tools") or [] if not str(t.get("type", "")).startswith("web_search")]
    choice = (body.get("tool_choice") or {}).get("type", "auto")
    if choice == "none" or not functions:
        return None
    if choice == "tool":
        return next(t for t in functions if t["name"] == body["tool_choice"]["name"])
    words = set(re.findall(r"[a-z0-9]+", prompt.lower()))
    for tool in functions:
        if any(part.lower() in words for part in re.split(r"[_\W]+", tool["name"]) if len(part) >= 4):
            return tool
    return functions[0] if choice == "any" else None


@dataclass
class Reply:
    model: str
    blocks: list[dict[str, Any]] = field(default_factory=list)
    stop_reason: str = "end_turn"
    stop_sequence: str | None = None

    def output_tokens(self) -> int:
        total = 0
        for block in self.blocks:
            if block["type"] == "text":
                total += count_tokens(block["text"])
            elif block["type"] == "thinking":
                total += count_tokens(block["thinking"])
            elif block["type"] in ("tool_use", "server_tool_use"):
                total += count_tokens(json.dumps(block["input"]))
        return total


def _tool_results(message: dict[str, Any]) -> list[tuple[str, str]]:
    content = message.get("content")
    if not isinstance(content, list):
        return []
    results = []
    for block in content:
        if block.get("type") == "tool_result":
            inner = block.get("content")
            shown = inner if isinstance(inner, str) else " ".join(p.get("text", "") for p in inner or [] if isinstance(p, dict))
            results.append((block.get("tool_use_id", ""), shown))
    return results


def _answer_text(body: dict[str, Any], prompt: str) -> str:
    content = body["messages"][-1].get("content")
    images = sum(1 for b in content if isinstance(b, dict) and b.get("type") == "image") if isinstance(content, list) else 0
    settings = {k: body.get(k) for k in ("temperature", "top_p", "top_k", "max_tokens")}
    return text.reply_text(prompt, body["model"], settings, images)


def plan_reply(body: dict[str, Any]) -> Reply:
    reply = Reply(body["model"])
    last = body["messages"][-1]
    prompt = strip_markers(last_user_text(body["messages"])) if last.get("role") == "user" else ""
    results = _tool_results(last) if last.get("role") == "user" else []
    thinking = body.get("thinking")
    if thinking:
        reasoning = first_pieces(text.reasoning_text(prompt, "high", body["model"]), thinking["budget_tokens"])
        reply.blocks.append({"type": "thinking", "thinking": reasoning, "signature": _block_id("sig_", reasoning)})
    if results:
        reply.blocks.append({"type": "text", "text": text.tool_answer_text([(tid, content) for tid, content in results])})
        return reply
    tool = _pick_tool(body, prompt)
    if tool is not None:
        parallel = not (body.get("tool_choice") or {}).get("disable_parallel_tool_use")
        for index, asked in enumerate(call_prompts(prompt, parallel)):
            arguments = scripted.tool_arguments(tool["input_schema"], asked)
            seed = prompt + tool["name"] + (f"|{index}" if index else "")
            reply.blocks.append({"type": "tool_use", "id": _block_id("toolu_", seed), "name": tool["name"], "input": arguments})
        reply.stop_reason = "tool_use"
        return reply
    answer = _answer_text(body, prompt)
    if any(str(t.get("type", "")).startswith("web_search") for t in body.get("tools") or []):
        search_id = _block_id("srvtoolu_", prompt)
        reply.blocks.append({"type": "server_tool_use", "id": search_id, "name": "web_search", "input": {"query": prompt[:80]}})
        reply.blocks.append({"type": "web_search_tool_result", "tool_use_id": search_id, "content": [
            {"type": "web_search_result", "url": "https://example.com/demo-result", "title": f"Demo result for {prompt[:40]}", "encrypted_content": "", "page_age": None}
        ]})
        if scripted.answer(prompt) is None:
            answer += " (I searched the web — simulated: 1 result from example.com.)"
    for stop in body.get("stop_sequences") or []:
        position = answer.find(stop)
        if position >= 0 and (reply.stop_sequence is None or position < answer.find(reply.stop_sequence)):
            reply.stop_sequence = stop
    if reply.stop_sequence is not None:
        answer = answer[: answer.find(reply.stop_sequence)]
        reply.stop_reason = "stop_sequence"
    visible_budget = body["max_tokens"] - reply.output_tokens()
    if count_tokens(answer) > visible_budget:
        answer = first_pieces(answer, max(visible_budget, 0))
        reply.stop_reason = "max_tokens"
        reply.stop_sequence = None
    reply.blocks.append({"type": "text", "text": answer})
    return reply


def error_event(message: str, error_type: str = "upstream_error") -> str:
    return sse_data({"type": "error", "error": {"type": error_type, "message": message}}, event="error")


class MessagesEndpoints:
    """Holds the prompt cache for one demo gateway."""

    def __init__(self, config: DemoConfig) -> None:
        self.config = config
        self.cache = PromptCache(config.clock)

    async def count_tokens(self, body: dict[str, Any], _fault: Fault | None) -> Response:
        for name in ("model", "messages"):
            if name not in body:
                return JSONResponse({"type": "error", "error": {"type": "invalid_request_error", "message": f"{name}: field required"}}, 400)
        try:
            validate_prompt(body)
        except HTTPProblem as problem:
            return JSONResponse({"type": "error", "error": {"type": "invalid_request_error", "message": problem.message}}, problem.status)
        return JSONResponse({"input_tokens": sum(unit.tokens for unit in prompt_units(body))})

    async def create(self, body: dict[str, Any], fault: Fault | None) -> Response:
        validate_prompt(body)
        _validate_generation(body)
        reply = plan_reply(body)
        outcome = self.cache.apply(body["model"], prompt_units(body))
        usage = {
            "input_tokens": outcome.input_tokens,
            "output_tokens": reply.output_tokens(),
            "cache_creation_input_tokens": outcome.cache_creation_input_tokens,
            "cache_read_input_tokens": outcome.cache_read_input_tokens,
        }
        message = {
            "id": _block_id("msg_", json.dumps(reply.blocks)), "type": "message", "role": "assistant", "model": reply.model,
            "content": reply.blocks, "stop_reason": reply.stop_reason, "stop_sequence": reply.stop_sequence, "usage": usage,
        }
        if not body.get("stream"):
            return JSONResponse(message)
        events = _stream_events(message, self.config.token_delay * model_pace(reply.model))
        failure = error_event("The upstream model failed mid-stream (demo fault).")
        return sse_response(inject_stream_fault(events, fault, self.config.stall_seconds, failure))


async def _stream_events(message: dict[str, Any], delay: float) -> AsyncIterator[str]:
    usage = message["usage"]
    start = {**message, "content": [], "stop_reason": None, "stop_sequence": None, "usage": {**usage, "output_tokens": 1}}
    yield sse_data({"type": "message_start", "message": start}, "message_start")
    yield sse_data({"type": "ping"}, "ping")
    for index, block in enumerate(message["content"]):
        kind = block["type"]
        opening = {"thinking": {"type": "thinking", "thinking": "", "signature": ""}, "text": {"type": "text", "text": ""},
                   "tool_use": {**block, "input": {}}}.get(kind, block)
        yield sse_data({"type": "content_block_start", "index": index, "content_block": opening}, "content_block_start")
        if kind in ("thinking", "text"):
            delta_type, field_name = ("thinking_delta", "thinking") if kind == "thinking" else ("text_delta", "text")
            for piece in split_pieces(block[field_name]):
                await pace(delay)
                yield sse_data({"type": "content_block_delta", "index": index, "delta": {"type": delta_type, field_name: piece}}, "content_block_delta")
            if kind == "thinking":
                yield sse_data({"type": "content_block_delta", "index": index, "delta": {"type": "signature_delta", "signature": block["signature"]}}, "content_block_delta")
        elif kind == "tool_use":
            arguments = json.dumps(block["input"])
            for offset in range(0, len(arguments), ARGUMENT_PIECE):
                await pace(delay)
                piece = arguments[offset : offset + ARGUMENT_PIECE]
                yield sse_data({"type": "content_block_delta", "index": index, "delta": {"type": "input_json_delta", "partial_json": piece}}, "content_block_delta")
        yield sse_data({"type": "content_block_stop", "index": index}, "content_block_stop")
    delta = {"stop_reason": message["stop_reason"], "stop_sequence": message["stop_sequence"]}
    yield sse_data({"type": "message_delta", "delta": delta, "usage": {"output_tokens": usage["output_tokens"]}}, "message_delta")
    yield sse_data({"type": "message_stop"}, "message_stop")
