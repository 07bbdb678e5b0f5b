"""Probes of tools and thinking in the four text formats: a function round trip (call parsed,
result sent back, answer uses it), a forced tool choice, and thinking (shown, counted, and where
the format signs it, the signed turn accepted when sent back)."""

from __future__ import annotations

import json
from typing import Any

from playground.client import catalog
from playground.client.intent import Intent
from playground.client.report.probe import EMPTY, NONE, Fail, Probe, Skip, excerpt
from playground.client.results import TextResult
from playground.client.texts import Text

TOOL = "get_weather"
DESCRIPTION = "Current weather for a city."
PARAMETERS = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
ASK = "What is the weather in Paris? Use the get_weather tool."
UNRELATED = "Say hello."


def tools_fields(fmt: str, forced: bool) -> dict[str, Any]:
    """The format's way of offering `get_weather` (and forcing it)."""
    if fmt == "chat":
        fields: dict[str, Any] = {"tools": [{"type": "function", "function": {"name": TOOL, "description": DESCRIPTION, "parameters": PARAMETERS}}]}
        if forced:
            fields["tool_choice"] = {"type": "function", "function": {"name": TOOL}}
        return fields
    if fmt == "responses":
        fields = {"tools": [{"type": "function", "function": {"name": TOOL, "description": DESCRIPTION, "parameters": PARAMETERS}}]}
        if forced:
            fields["tool_choice"] = {"type": "function", "function": {"name": TOOL}}
        return fields
    if fmt == "messages":
        fields = {"tools": [{"name": TOOL, "description": DESCRIPTION, "input_schema": PARAMETERS}]}
        if forced:
            fields["tool_choice"] = {"type": "tool", "name": TOOL}
        return fields
    fields = {"tools": [{"functionDeclarations": [{"name": TOOL, "description": DESCRIPTION, "parameters": PARAMETERS}]}]}
    if forced:
        fields["toolConfig"] = {"functionCallingConfig": {"mode": "ANY"}}
    return fields


def _called(result: TextResult) -> dict[str, Any]:
    """The arguments of the one get_weather call (Fail when there is none or they do not parse)."""
    calls = [call for call in result.tool_calls if call.name == TOOL]
    if not calls:
        names = ", ".join(call.name for call in result.tool_calls) or NONE
        raise Fail(Text("report.tools.no_call"), Text("report.tools.expected_call", tool=TOOL), Text("report.tools.calls_and_text", calls=names, text=excerpt(result.text, 100)))
    try:
        arguments = json.loads(calls[0].arguments or "{}")
    except ValueError:
        raise Fail(Text("report.tools.arguments_not_json"), Text("report.tools.expected_json_arguments"), excerpt(calls[0].arguments)) from None
    if not isinstance(arguments, dict):
        raise Fail(Text("report.tools.arguments_not_object"), Text("report.tools.expected_object"), excerpt(arguments))
    return arguments


def _follow_up(probe: Probe, first: Any, result: TextResult, answer: str) -> Any:
    """The next request: the first one's conversation, the model's turn, and the tool's result."""
    body = first.to_body()
    call = next(call for call in result.tool_calls if call.name == TOOL)
    if probe.format == "chat":
        assistant = {"role": "assistant", "content": None, "tool_calls": [{"id": call.id, "type": "function",
                                                                            "function": {"name": call.name, "arguments": call.arguments}}]}
        body["messages"] += [assistant, {"role": "tool", "tool_call_id": call.id, "content": answer}]
    elif probe.format == "responses":
        body["input"] += [*result.turn_items, {"type": "function_call_output", "call_id": call.id, "output": answer}]
    elif probe.format == "messages":
        body["messages"] += [{"role": "assistant", "content": result.turn_items},
                             {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call.id, "content": answer}]}]
    else:
        body["contents"] += [*result.turn_items, {"role": "user", "parts": [{"functionResponse": {"name": TOOL, "response": {"result": answer}}}]}]
        body["model"] = probe.model
    body.pop("tool_choice", None)
    body.pop("toolConfig", None)
    return type(first).build(**body)


async def tools(probe: Probe) -> str:
    first = probe.request(Intent(ASK), **tools_fields(probe.format, forced=False))
    result = await probe.stream(first)
    arguments = _called(result)
    marker = f"sunny-{probe.nonce[-5:]}"
    answer = json.dumps({"city": arguments.get("city", "Paris"), "weather": marker})
    final = await probe.stream(_follow_up(probe, first, result, answer))
    if marker not in final.text:
        raise Fail(Text("report.tools.result_unused"), Text("report.tools.expected_mention", marker=marker), excerpt(final.text))
    return Text("report.tools.passed", tool=TOOL, arguments=excerpt(arguments, 60), marker=marker)


async def tool_choice(probe: Probe) -> str:
    result = await probe.stream(probe.request(Intent(UNRELATED), **tools_fields(probe.format, forced=True)))
    _called(result)
    return Text("report.tool_choice.passed", tool=TOOL)


def _thinking_request(probe: Probe) -> Any:
    if probe.format == "responses":
        return probe.request(Intent(ASK_THINK, thinking=True))
    return probe.request(Intent(ASK_THINK, thinking=True, budget=1500))


ASK_THINK = "Is 391 a prime number? Think before you answer."


async def thinking(probe: Probe) -> str:
    info = catalog.find(probe.model)
    if probe.format == "responses" and info is not None and not info.reasoning:
        raise Skip(Text("report.thinking.not_reasoning_model", model=probe.model))
    first = _thinking_request(probe)
    result = await probe.stream(first)
    if not result.reasoning.strip():
        raise Fail(Text("report.thinking.no_reasoning"), Text("report.thinking.expected_reasoning"), excerpt(result.text, 120), tag="no-reasoning")
    if probe.format != "messages":
        tokens = result.usage.reasoning_tokens if result.usage else None
        if not tokens:
            raise Fail(Text("report.thinking.not_counted"), Text("report.thinking.expected_tokens"),
                       excerpt(result.usage.__dict__ if result.usage else Text("report.no_usage")), tag="no-reasoning-tokens")
    if probe.format in ("messages", "native"):
        signed = _signed(probe.format, result)
        if not signed:
            raise Fail(Text("report.thinking.no_signature"), Text("report.thinking.expected_signature"), excerpt(result.turn_items, 200))
        body = first.to_body()
        if probe.format == "messages":
            body["messages"] += [{"role": "assistant", "content": result.turn_items}, {"role": "user", "content": "And 397?"}]
        else:
            body["contents"] += [*result.turn_items, {"role": "user", "parts": [{"text": "And 397?"}]}]
            body["model"] = probe.model
        replay = await probe.stream(type(first).build(**body))
        if not replay.text.strip():
            raise Fail(Text("report.thinking.replay_unanswered"), Text("report.thinking.expected_replay_answer"), EMPTY)
        return Text("report.thinking.passed_signed", characters=len(result.reasoning))
    return Text("report.thinking.passed", characters=len(result.reasoning), tokens=result.usage.reasoning_tokens if result.usage else 0)


def _signed(fmt: str, result: TextResult) -> bool:
    if fmt == "messages":
        return any(item.get("type") == "thinking" and item.get("signature") for item in result.turn_items)
    return any(part.get("thoughtSignature") for turn in result.turn_items for part in turn.get("parts") or [] if isinstance(part, dict))


PROBES = {"tools": tools, "tool_choice": tool_choice, "thinking": thinking}
