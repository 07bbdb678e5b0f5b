"""An MCP tool written as each text format's tool declaration, and an MCP tool's result written
as each format's tool result (the spec's shapes; the tabs' adapters send the same):

    format     declaration                                        result
    chat       {type: function, function: {name, description,     {role: tool, tool_call_id, name, content}
                parameters}}
    responses  {type: function, function: {name, description,     {type: function_call_output, call_id, output}
                parameters}}
    messages   {name, description, input_schema}                  {type: tool_result, tool_use_id, content, is_error}
    native     {functionDeclarations: [{name, description,        {functionResponse: {name, response}}
                parameters}]}                                      (the result's JSON object, or {result}/{error})
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from playground.client.mcp.session import MCPTool, ToolOutcome

FORMATS = ("chat", "responses", "messages", "native")
NATIVE_SCHEMA_KEYS = frozenset({"type", "description", "properties", "required", "enum", "items", "format", "nullable",
                                "minimum", "maximum", "minItems", "maxItems", "anyOf", "title"})
"""The schema keywords the native format's function declarations take (others are dropped)."""
REFUSED = "The person using the playground refused this call; it was not run."


def declarations(tools: Iterable[MCPTool], format: str) -> list[dict[str, Any]]:
    """The `tools` array of a request in `format` offering `tools`."""
    chosen = list(tools)
    if format == "native":
        return [{"functionDeclarations": [{"name": tool.name, "description": tool.description,
                                           "parameters": native_schema(tool.input_schema)} for tool in chosen]}] if chosen else []
    return [declaration(tool, format) for tool in chosen]


def declaration(tool: MCPTool, format: str) -> dict[str, Any]:
    """One tool's declaration in `format` (chat, responses or messages)."""
    if format in ("chat", "responses"):
        return {"type": "function", "function": {"name": tool.name, "description": tool.description, "parameters": tool.input_schema}}
    if format == "messages":
        return {"name": tool.name, "description": tool.description, "input_schema": tool.input_schema}
    raise ValueError(f"no declaration for the format {format!r}")


def native_schema(schema: Any) -> Any:
    """A JSON Schema reduced to the keywords the native format's declarations take."""
    if isinstance(schema, list):
        return [native_schema(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    kept: dict[str, Any] = {}
    for key, value in schema.items():
        if key not in NATIVE_SCHEMA_KEYS or key == "title":
            continue
        if key == "properties" and isinstance(value, dict):
            kept[key] = {name: native_schema(inner) for name, inner in value.items()}
        else:
            kept[key] = native_schema(value)
    return kept


def tool_result(format: str, call_id: str, name: str, outcome: ToolOutcome) -> dict[str, Any]:
    """The block (or message) that answers the call `call_id` of tool `name` in `format`."""
    if format == "chat":
        return {"role": "tool", "tool_call_id": call_id, "name": name, "content": outcome.text}
    if format == "responses":
        return {"type": "function_call_output", "call_id": call_id, "output": outcome.text}
    if format == "messages":
        block: dict[str, Any] = {"type": "tool_result", "tool_use_id": call_id, "content": outcome.text}
        if outcome.is_error:
            block["is_error"] = True
        return block
    if format == "native":
        return {"functionResponse": {"name": name, "response": native_response(outcome)}}
    raise ValueError(f"no tool result for the format {format!r}")


def native_response(outcome: ToolOutcome) -> dict[str, Any]:
    """The native `functionResponse.response` object: the tool's JSON object as it is, else the
    text under `result` (under `error` when the tool failed)."""
    if outcome.is_error:
        return {"error": outcome.text}
    if isinstance(outcome.structured, dict):
        return outcome.structured
    try:
        value = json.loads(outcome.text)
    except ValueError:
        return {"result": outcome.text}
    return value if isinstance(value, dict) else {"result": value}


def refused(name: str) -> ToolOutcome:
    """The answer sent for a call the person refused: an error result, so the model knows it did not run."""
    return ToolOutcome(f"{REFUSED} ({name})", is_error=True)
