"""A request that offers mocked tools, run until the model answers: each call of a tool whose mock
answers by itself (fixed or template) is answered in the format's own tool-result shape and the
conversation is sent again, at most `MAX_STEPS` requests in all; a call of an "ask me" tool (or
of a tool no mock declares) ends the run with the call unanswered. Used where nobody is there to
answer (Batch's cells, Compare's columns); the text tabs answer through their conversation.

    format     the model's turn sent back                      each answer
    chat       {role: assistant, tool_calls}                   {role: tool, tool_call_id, name, content}
    responses  the turn's output items (function_call ...)     {type: function_call_output, call_id, output}
    messages   {role: assistant, content: the turn's blocks}   one user message of tool_result blocks
    native     the turn's content (functionCall parts)         one user content of functionResponse parts
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from playground.client.chat import ChatRequest
from playground.client.exchange import Exchange
from playground.client.mcp.formats import tool_result
from playground.client.mcp.model import ToolOutcome
from playground.client.messages import MessagesRequest
from playground.client.native import NativeRequest
from playground.client.responses import ResponsesRequest
from playground.client.results import TextResult, ToolCall
from playground.client.tools.mock import MockTool, declarations, find

MAX_STEPS = 5
"""Requests one run may send (the first included) before it stops with the calls unanswered."""
REQUESTS: dict[str, Any] = {"chat": ChatRequest, "responses": ResponsesRequest, "messages": MessagesRequest, "native": NativeRequest}
_TURNS = {"chat": "messages", "responses": "input", "messages": "messages", "native": "contents"}


@dataclass(frozen=True)
class MockedCall:
    """One call the model made: its tool, its arguments (JSON text) and the mock's answer (None: not answered)."""

    name: str
    arguments: str
    answer: str | None

    def parsed_arguments(self) -> Any:
        try:
            return json.loads(self.arguments or "{}")
        except ValueError:
            return None

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "arguments": self.arguments, "answer": self.answer}


@dataclass
class ToolRun:
    """What a run with mocked tools did: the last result, every request's exchange and every call."""

    result: TextResult
    exchanges: list[Exchange] = field(default_factory=list)
    calls: list[MockedCall] = field(default_factory=list)
    stopped_at_limit: bool = False


def with_tools(request: Any, fmt: str, model: str, tools: Sequence[MockTool]) -> Any:
    """`request` (built by `intent.to_request`) with `tools` offered in `fmt`'s shape; validated again."""
    if not tools:
        return request
    body = request.to_body()
    body["tools"] = [*(body.get("tools") or []), *declarations(tools, fmt)]
    return rebuilt(body, fmt, model)


def rebuilt(body: dict[str, Any], fmt: str, model: str) -> Any:
    if fmt == "native":
        body = {**body, "model": model}
    return REQUESTS[fmt].build(**body)


def answered(fmt: str, body: dict[str, Any], result: TextResult, answers: Sequence[tuple[ToolCall, str]]) -> dict[str, Any]:
    """The next request's body: `body` with the model's turn (`result`) and the `answers` to its calls appended."""
    turns = list(body.get(_TURNS[fmt]) or [])
    turn = _model_turn(fmt, result)
    turns += turn if isinstance(turn, list) else [turn]
    results = [tool_result(fmt, call.id, call.name, ToolOutcome(text, False)) for call, text in answers]
    if fmt in ("chat", "responses"):
        turns += results
    elif fmt == "messages":
        turns.append({"role": "user", "content": results})
    else:
        turns.append({"role": "user", "parts": results})
    return {**body, _TURNS[fmt]: turns}


def _arguments(call: ToolCall) -> Any:
    try:
        value = json.loads(call.arguments or "{}")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _model_turn(fmt: str, result: TextResult) -> Any:
    if fmt == "chat":
        return {"role": "assistant", "content": result.text or None,
                "tool_calls": [{"id": call.id, "type": "function", "function": {"name": call.name, "arguments": call.arguments}}
                               for call in result.tool_calls]}
    if fmt == "responses":
        return result.turn_items or [{"type": "function_call", "call_id": call.id, "name": call.name, "arguments": call.arguments}
                                     for call in result.tool_calls]
    if fmt == "messages":
        blocks = result.turn_items or ([{"type": "text", "text": result.text}] if result.text else []) + \
            [{"type": "tool_use", "id": call.id, "name": call.name, "input": _arguments(call)} for call in result.tool_calls]
        return {"role": "assistant", "content": blocks}
    if result.turn_items:
        return result.turn_items[0]
    parts = ([{"text": result.text}] if result.text else []) + [{"functionCall": {"name": call.name, "args": _arguments(call)}}
                                                               for call in result.tool_calls]
    return {"role": "model", "parts": parts}


Send = Callable[[Any], Any]
"""Sends one request and returns (result, exchange); an awaitable."""


async def run_with_mocks(send: Send, request: Any, fmt: str, model: str, tools: Sequence[MockTool], max_steps: int = MAX_STEPS) -> ToolRun:
    """Send `request`, answering the model's calls of self-answering mocks, until it answers, calls
    a tool nobody mocks, or `max_steps` requests went out. A `GatewayError` from a later step keeps
    the calls made so far on the error (`error.tool_calls`)."""
    run = ToolRun(TextResult())
    for step in range(max_steps):
        try:
            run.result, exchange = await send(request)
        except Exception as error:
            error.tool_calls = run.calls  # type: ignore[attr-defined]  # any exception carries the calls made so far to the cell
            error.tool_exchanges = run.exchanges  # type: ignore[attr-defined]  # and the requests that went out
            raise
        run.exchanges.append(exchange)
        calls = [call for call in run.result.tool_calls if call.name]
        if not calls:
            return run
        answers = []
        for call in calls:
            mock = find(tools, call.name)
            answer = mock.answer_to(call.arguments) if mock is not None else None
            run.calls.append(MockedCall(call.name, call.arguments, answer))
            answers.append((call, answer))
        if any(answer is None for _, answer in answers):
            return run
        if step == max_steps - 1:
            run.stopped_at_limit = True
            return run
        request = rebuilt(answered(fmt, request.to_body(), run.result, [(call, str(answer)) for call, answer in answers]), fmt, model)
    return run
