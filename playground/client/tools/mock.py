"""A mocked tool: its name, description and parameters schema, and how it is answered.

    kind       answer
    fixed      the same text (usually JSON) for every call
    template   `{{name}}` placeholders filled from the call's arguments (no eval): in a JSON
               template a string that is one placeholder takes the argument's value with its type,
               other placeholders are written into their string; a template that is not JSON is
               text with the values written in
    ask        none: the call is left for the person to answer

A list of mocked tools is read from JSON bounded first (characters, nesting, how many) and checked
whole: every problem is named by its tool and field, and nothing is used until all are fixed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from playground.client.json_depth import deeper_than
from playground.client.mcp.formats import declarations as mcp_declarations
from playground.client.mcp.model import MCPTool
from playground.client.texts import Text
from playground.client.errors import ProblemsError

KINDS = ("fixed", "template", "ask")
MAX_TOOLS = 16
MAX_TEXT_CHARS = 100_000
"""The whole list as JSON text."""
MAX_ANSWER_CHARS = 20_000
MAX_DESCRIPTION_CHARS = 2_000
MAX_DEPTH = 16
MAX_ARGUMENT_CHARS = 100_000
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]{0,63}")
_PLACEHOLDER = re.compile(r"\{\{\s*([^{}\n]*?)\s*\}\}")
"""The `{{name}}` placeholders of the Variables feature and Batch's templates (the same syntax);
this package does not import Batch's template module, which imports it in turn."""
MAX_PLACEHOLDER_CHARS = 64


class TemplateError(ValueError):
    """A template that cannot answer this call (a placeholder the call did not give, or no name)."""


class MockToolError(ProblemsError):
    """Mocked tools that cannot be used, every problem named."""


@dataclass(frozen=True)
class MockTool:
    """One tool offered to the model and how its calls are answered."""

    name: str
    description: str = ""
    parameters: dict[str, Any] = field(default_factory=lambda: {"type": "object", "properties": {}})
    kind: str = "fixed"
    answer: str = ""

    @property
    def answers_itself(self) -> bool:
        return self.kind != "ask"

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "description": self.description, "parameters": self.parameters,
                "mock": {"kind": self.kind, "answer": self.answer}}

    def as_mcp(self) -> MCPTool:
        return MCPTool(self.name, self.description, self.parameters)

    def answer_to(self, arguments: str) -> str | None:
        """The answer to a call with `arguments` (the call's JSON text); None for "ask me". Never raises:
        arguments the template cannot use are answered with an error object the model can read."""
        if self.kind == "ask":
            return None
        if self.kind == "fixed":
            return self.answer
        try:
            values = _arguments(arguments)
            return render(self.answer, values)
        except (TemplateError, ValueError) as error:
            return json.dumps({"error": f"the mock of {self.name} could not answer: {error}"}, ensure_ascii=False)  # for the model, in English


EXAMPLE = MockTool(
    "get_weather", "The current weather in a city.",
    {"type": "object", "properties": {"city": {"type": "string", "description": "The city, e.g. Paris"}}, "required": ["city"]},
    "template", '{"city": "{{city}}", "temperature_c": 18, "condition": "sunny"}')
"""The one-click example: a weather lookup answered from a template over its `city` argument."""


def _arguments(text: str) -> dict[str, Any]:
    text = (text or "").strip() or "{}"
    if len(text) > MAX_ARGUMENT_CHARS or deeper_than(text, MAX_DEPTH):
        raise ValueError(f"the arguments are larger than {MAX_ARGUMENT_CHARS} characters or {MAX_DEPTH} levels")
    value = json.loads(text)
    if not isinstance(value, dict):
        raise ValueError("the arguments are not a JSON object")
    return value


def _text_of(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def render(template: str, arguments: dict[str, Any]) -> str:
    """`template` with its placeholders filled from `arguments` (raises `TemplateError` naming a
    placeholder the call did not give)."""
    try:
        document = json.loads(template)
    except ValueError:
        return _written(template, arguments)
    return json.dumps(_filled(document, arguments), ensure_ascii=False)


def placeholders(template: str) -> list[str]:
    """The names `template` uses, in order (raises `TemplateError` for an empty or long name)."""
    names = [match.group(1) for match in _PLACEHOLDER.finditer(template)]
    for name in names:
        if not name or len(name) > MAX_PLACEHOLDER_CHARS:
            raise TemplateError(Text("tools.placeholder_name", limit=MAX_PLACEHOLDER_CHARS))
    return list(dict.fromkeys(names))


def _written(text: str, arguments: dict[str, Any]) -> str:
    def value(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in arguments:
            raise TemplateError(f"the call gave no argument {name!r}")
        return _text_of(arguments[name])

    return _PLACEHOLDER.sub(value, text)


def _filled(value: Any, arguments: dict[str, Any]) -> Any:
    if isinstance(value, str):
        exact = _PLACEHOLDER.fullmatch(value.strip())
        if exact is not None and exact.group(1) in arguments:
            return arguments[exact.group(1)]
        return _written(value, arguments)
    if isinstance(value, list):
        return [_filled(item, arguments) for item in value]
    if isinstance(value, dict):
        return {key: _filled(item, arguments) for key, item in value.items()}
    return value


def read_mock_tools(text: str) -> list[MockTool]:
    """The mocked tools in `text` (a JSON list of `MockTool.to_dict` objects; empty text: none),
    bounded before parsing and checked whole. Raises `MockToolError`."""
    text = (text or "").strip()
    if not text:
        return []
    if len(text) > MAX_TEXT_CHARS:
        raise MockToolError([Text("tools.too_long", chars=len(text), limit=MAX_TEXT_CHARS)])
    if deeper_than(text, MAX_DEPTH + 4):
        raise MockToolError([Text("tools.too_deep", limit=MAX_DEPTH + 4)])
    try:
        data = json.loads(text)
    except ValueError as error:
        raise MockToolError([Text("tools.not_json", error=str(error))]) from None
    return mock_tools_from(data)


def mock_tools_from(data: Any) -> list[MockTool]:
    """Mocked tools from parsed JSON, checked whole (raises `MockToolError` naming each tool and field)."""
    if not isinstance(data, list):
        raise MockToolError([Text("tools.not_list")])
    if len(data) > MAX_TOOLS:
        raise MockToolError([Text("tools.too_many", count=len(data), limit=MAX_TOOLS)])
    problems: list[str] = []
    tools = [tool for index, item in enumerate(data, 1) if (tool := _tool(item, index, problems)) is not None]
    names = [tool.name for tool in tools]
    for name in sorted({name for name in names if names.count(name) > 1}):
        problems.append(Text("tools.same_name", name=name))
    if problems:
        raise MockToolError(problems)
    return tools


def _tool(item: Any, index: int, problems: list[str]) -> MockTool | None:
    if not isinstance(item, dict):
        problems.append(Text("tools.not_object", index=index))
        return None
    before = len(problems)
    unknown = sorted(set(item) - {"name", "description", "parameters", "mock"})
    if unknown:
        problems.append(Text("tools.unknown_field", index=index, field=", ".join(map(str, unknown))))
    name = item.get("name")
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        problems.append(Text("tools.bad_name", index=index))
    description = item.get("description", "")
    if not isinstance(description, str) or len(description) > MAX_DESCRIPTION_CHARS:
        problems.append(Text("tools.bad_description", index=index, limit=MAX_DESCRIPTION_CHARS))
    parameters = item.get("parameters", {"type": "object", "properties": {}})
    if not isinstance(parameters, dict) or parameters.get("type", "object") != "object" or \
            not isinstance(parameters.get("properties", {}), dict):
        problems.append(Text("tools.bad_parameters", index=index))
    mock = item.get("mock")
    kind = mock.get("kind") if isinstance(mock, dict) else None
    answer = mock.get("answer", "") if isinstance(mock, dict) else None
    if kind not in KINDS:
        problems.append(Text("tools.bad_kind", index=index, kinds=", ".join(KINDS)))
    if not isinstance(answer, str) or len(answer) > MAX_ANSWER_CHARS:
        problems.append(Text("tools.bad_answer", index=index, limit=MAX_ANSWER_CHARS))
    elif kind in ("fixed", "template") and not answer.strip():
        problems.append(Text("tools.answer_needed", index=index, kind=kind))
    elif kind == "template":
        try:
            placeholders(answer)
        except TemplateError as error:
            problems.append(Text("tools.bad_template", index=index, error=str(error)))
    if len(problems) > before:
        return None
    return MockTool(str(name), str(description), dict(parameters), str(kind), str(answer))


def mock_tools_text(tools: Iterable[MockTool]) -> str:
    return json.dumps([tool.to_dict() for tool in tools], indent=2, ensure_ascii=False)


def declarations(tools: Iterable[MockTool], fmt: str) -> list[dict[str, Any]]:
    """The request's `tools` array in format `fmt` offering `tools` (the MCP panel's converters)."""
    return mcp_declarations([tool.as_mcp() for tool in tools], fmt)


def find(tools: Iterable[MockTool], name: str) -> MockTool | None:
    return next((tool for tool in tools if tool.name == name), None)
