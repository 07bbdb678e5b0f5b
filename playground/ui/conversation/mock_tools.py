"""Mocked tools in a text tab: what the Mocked tools panel's events run (`MockPanel` wires them).

Save declares a tool with its mock (or replaces the one of the same name), Remove takes it away,
and either writes the tab's tools box in its format's shape (the MCP panel's `offered`), checked
whole first, and the declared tools as JSON (the same list Compare and Batch take). When the model calls a mocked tool whose mock answers by itself (fixed or template),
`auto` sends the answer on through the conversation's own tool-result action, so what the chat
shows and what the next request sends stay one state, and the next call is answered the same way,
at most `MAX_STEPS` model turns after the person's message; then the call is left for the person,
with a note. An "ask me" mock leaves the call for the person as before. Each answer the mocks gave
is listed in the panel's log; each request is in the inspector.
"""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator
from contextlib import aclosing
from dataclasses import dataclass, field
from typing import Any, cast

import gradio as gr

from playground.client.errors import GatewayError, RequestValidationError
from playground.client.results import ToolCall
from playground.client.tools.loop import MAX_STEPS
from playground.client.tools.mock import EXAMPLE, KINDS, MockTool, MockToolError, find, mock_tools_from, mock_tools_text
from playground.ui.conversation.handlers import ConversationHandlers
from playground.ui.conversation.mcp_tools import offered, tools_in_box
from playground.ui.conversation.turns import TOOL_RESULT_KINDS, Session
from playground.ui.i18n import say
from playground.ui.shared.codegen import indented_json
from playground.ui.shared.render import error_text

EXAMPLE_PROMPT = "What is the weather in Paris?"
MAX_LOG = 50
Update = tuple[Any, ...]


@dataclass
class MockState:
    """One browser session's mocked tools and the answers they gave (newest last)."""

    tools: list[MockTool] = field(default_factory=list)
    log: list[dict[str, Any]] = field(default_factory=list)


def withdrawn(tools_text: str, names: set[str]) -> str:
    """The tab's tools box without the tools named `names` (the box must hold a JSON list)."""
    kept = [item for item in tools_in_box(tools_text) if _declared_name(item) not in names]
    return json.dumps(kept, indent=2, ensure_ascii=False)


def _declared_name(item: dict[str, Any]) -> Any:
    function = item.get("function")
    return function.get("name") if isinstance(function, dict) else item.get("name")


def tool_from_form(name: str, description: str, parameters: str, kind: str, answer: str) -> MockTool:
    """The form's tool, checked whole like a saved list (raises `MockToolError` naming each field)."""
    problems: list[str] = []
    schema: Any = {"type": "object", "properties": {}}
    if (parameters or "").strip():
        try:
            schema = json.loads(parameters) if len(parameters) <= 50_000 else None
        except ValueError:
            schema = None
    tools: list[MockTool] = []
    try:
        tools = mock_tools_from([{"name": (name or "").strip(), "description": description or "", "parameters": schema,
                                  "mock": {"kind": kind if kind in KINDS else "fixed", "answer": answer or ""}}])
    except MockToolError as error:
        problems += error.problems
    if problems:
        raise MockToolError(problems)
    return tools[0]


def model_turns_since_person(session: Session) -> int:
    """How many model turns came after the person's last message (the steps the mocks answered)."""
    count = 0
    for message in reversed(session.messages):
        role = message.get("role")
        if role in ("assistant", "model"):
            count += 1
        elif role == "user" and not _only_tool_results(message):
            break
    return count


def _only_tool_results(message: dict[str, Any]) -> bool:
    content = message.get("content", message.get("parts"))
    if not isinstance(content, list) or not content:
        return False
    kinds = {part.get("type") or next(iter(part), None) for part in content if isinstance(part, dict)}
    return kinds <= TOOL_RESULT_KINDS


def _as_json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def log_text(log: list[dict[str, Any]]) -> str:
    return indented_json(log[-MAX_LOG:]) if log else ""


@dataclass(frozen=True)
class MockHandlers:
    """The Mocked tools panel's handlers for one tab: its format and the conversation's handlers
    (whose tool-result action sends each mock's answer on)."""

    format: str
    conversation: ConversationHandlers

    def _written(self, state: MockState, tools: list[MockTool], tools_text: str, removed: set[str]) -> str:
        box = withdrawn(tools_text, removed) if removed else tools_text
        return offered(box, [tool.as_mcp() for tool in tools], self.format) if tools else box

    def _listed(self, state: MockState, chosen: str | None) -> Any:
        names = [tool.name for tool in state.tools]
        return gr.update(choices=names, value=chosen if chosen in names else None)

    def save(self, name: str, description: str, parameters: str, kind: str, answer: str, state: MockState | None,
             tools_text: str) -> Update:
        """Save: (state, declared list, tools box, status, the declared tools as JSON)."""
        state = state or MockState()
        try:
            tool = tool_from_form(name, description, parameters, kind, answer)
            tools = [tool if item.name == tool.name else item for item in state.tools]
            tools = tools if tool.name in {item.name for item in state.tools} else [*tools, tool]
            tools = mock_tools_from([item.to_dict() for item in tools])  # the whole list checked again (its size)
            box = self._written(state, tools, tools_text, set())
        except MockToolError as error:
            return state, gr.skip(), gr.skip(), error_text(RequestValidationError(error.problems)), gr.skip()
        except GatewayError as error:
            return state, gr.skip(), gr.skip(), error_text(error), gr.skip()
        state.tools = tools
        return state, self._listed(state, tool.name), box, say("mock.saved", name=tool.name), mock_tools_text(tools)

    def remove(self, name: str, state: MockState | None, tools_text: str) -> Update:
        """Remove: (state, declared list, tools box, status, the declared tools as JSON)."""
        state = state or MockState()
        name = (name or "").strip()
        if find(state.tools, name) is None:
            return state, gr.skip(), gr.skip(), say("mock.not_declared", name=name or "—"), gr.skip()
        try:
            box = withdrawn(tools_text, {name})
        except GatewayError as error:
            return state, gr.skip(), gr.skip(), error_text(error), gr.skip()
        state.tools = [tool for tool in state.tools if tool.name != name]
        return state, self._listed(state, None), box, say("mock.removed", name=name), mock_tools_text(state.tools) if state.tools else ""

    def pick(self, name: str | None, state: MockState | None) -> Update:
        """A declared tool picked: the form filled with it (name, description, parameters, kind, answer)."""
        tool = find((state or MockState()).tools, name or "")
        if tool is None:
            return (gr.skip(),) * 5
        return tool.name, tool.description, indented_json(tool.parameters), tool.kind, tool.answer

    def example(self, state: MockState | None, tools_text: str) -> Update:
        """The example: get_weather with a template answer declared and offered, and a question that
        needs it in the message box: (form ×5, state, declared list, tools box, status, JSON, message box)."""
        form = (EXAMPLE.name, EXAMPLE.description, indented_json(EXAMPLE.parameters), EXAMPLE.kind, EXAMPLE.answer)
        saved = self.save(*form, state, tools_text)
        return (*form, *saved, {"text": EXAMPLE_PROMPT, "files": []})

    async def auto(self, state: MockState | None, session: Session, *values: Any) -> AsyncGenerator[Update, None]:
        """After each turn: the model's first unanswered call answered by its mock (fixed or
        template) and the reply streamed; nothing when there is no such call."""
        call = session.pending[0] if session is not None and session.pending and not session.replying else None
        mock = find(state.tools, call.name) if call is not None and state is not None else None
        if call is None or mock is None or state is None or not mock.answers_itself:
            yield self._skipped()
            return
        if model_turns_since_person(session) >= MAX_STEPS:
            yield self._skipped(say("mock.step_limit", steps=MAX_STEPS, name=call.name))
            return
        answer = str(mock.answer_to(call.arguments))
        state.log = [*state.log, self._entry(call, answer)][-MAX_LOG:]
        status = say("mock.answered", name=call.name)
        first = True
        answering = cast(AsyncGenerator[Update, None], self.conversation.tool_result(answer, session, *values))
        async with aclosing(answering) as updates:
            async for update in updates:
                yield (*update, *((status, log_text(state.log)) if first else (gr.skip(), gr.skip())))
                first = False

    def _entry(self, call: ToolCall, answer: str) -> dict[str, Any]:
        """One line of the log: JSON arguments and answers shown as JSON, anything else as the text it is."""
        return {"tool": call.name, "call_id": call.id, "arguments": _as_json(call.arguments or "{}"), "answer": _as_json(answer)}

    def _skipped(self, status: Any = None) -> Update:
        return (*(gr.skip(),) * (1 + self.conversation.width), status if status is not None else gr.skip(), gr.skip())
