"""Every chat request rule of the spec is enforced before anything is sent, with a clear message."""

from __future__ import annotations

from typing import Any

import pytest

from playground.client.chat import ChatRequest
from playground.client.errors import RequestValidationError

USER = [{"role": "user", "content": "hi"}]
TOOL = {"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {}}}}


def build(**overrides: Any) -> ChatRequest:
    fields: dict[str, Any] = {"model": "gx-2.5-flash", "messages": USER}
    fields.update(overrides)
    return ChatRequest.build(**fields)


def problems(**overrides: Any) -> str:
    with pytest.raises(RequestValidationError) as caught:
        build(**overrides)
    return str(caught.value)


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        ({"temperature": 2.5}, "temperature: Input should be less than or equal to 2"),
        ({"temperature": -0.1}, "temperature: Input should be greater than or equal to 0"),
        ({"top_p": 1.01}, "top_p: Input should be less than or equal to 1"),
        ({"max_tokens": 0}, "max_tokens: Input should be greater than 0"),
        ({"model": "  "}, "model: choose a model"),
        ({"messages": []}, "messages: List should have at least 1 item"),
        ({"messages": [{"role": "robot", "content": "x"}]}, "messages[0].role"),
        ({"messages": [{"role": "user"}]}, "a 'user' message needs content"),
        ({"messages": [*USER, {"role": "tool", "content": "21C"}]}, "needs tool_call_id"),
        ({"messages": [*USER, {"role": "tool", "tool_call_id": "call_x", "content": "21C"}]}, "does not match any earlier assistant tool call id"),
        ({"tools": [{"type": "function", "function": {"name": "bad name!"}}]}, "tools[0].function.name"),
        ({"tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "array"}}}]}, "parameters must be a JSON Schema with type 'object'"),
        ({"tools": [{"type": "retrieval"}]}, "tools[0].type"),
        ({"tool_choice": "auto"}, "tool_choice needs at least one tool"),
        ({"tools": [TOOL], "tool_choice": {"type": "function", "function": {"name": "other"}}}, "not among the tools"),
        ({"tools": [TOOL], "tool_choice": "sometimes"}, "tool_choice"),
        ({"response_format": {"type": "json_schema"}}, "needs a json_schema object"),
        ({"response_format": {"type": "json_schema", "json_schema": {"name": "r", "schema": {"type": "string"}}}}, "json_schema.schema must be a JSON Schema with type 'object'"),
        ({"thinking": {"type": "maybe"}}, "thinking.type"),
        ({"reasoning_effort": "extreme"}, "reasoning_effort"),
        ({"parameters": {"temperature": 3}}, "parameters.temperature"),
        ({"parameters": {"search_options": {"recency_days": -1}}}, "parameters.search_options.recency_days"),
        ({"extra_body": {"svc": {"thinking_config": {"thinking_budget": -2}}}}, "extra_body.svc.thinking_config.thinking_budget"),
        ({"generationConfig": {"thinkingConfig": {"thinkingLevel": "MEDIUM"}}}, "generationConfig.thinkingConfig.thinkingLevel"),
        ({"web_search_options": {"search_context_size": "huge"}}, "web_search_options.search_context_size"),
        ({"search_parameters": {"mode": "always"}}, "search_parameters.mode"),
        ({"search_parameters": {"return_citations": "often"}}, "search_parameters.return_citations"),
        ({"unknown_field": 1}, "unknown_field: Extra inputs are not permitted"),
    ],
)
def test_rule_violations_are_rejected_with_the_field_named(overrides: dict[str, Any], expected: str) -> None:
    assert expected in problems(**overrides)


def test_every_problem_is_listed_at_once() -> None:
    text = problems(temperature=9, top_p=9, max_tokens=-1)
    assert "temperature" in text and "top_p" in text and "max_tokens" in text
    assert "nothing was sent" in RequestValidationError(["x"]).user_message


def test_valid_request_with_every_field_keeps_the_spec_names() -> None:
    call = {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}
    request = build(
        messages=[*USER, {"role": "assistant", "content": None, "tool_calls": [call]}, {"role": "tool", "tool_call_id": "call_1", "content": "21C"}],
        temperature=0, top_p=1, max_tokens=5, stream=True, tools=[TOOL], tool_choice="auto",
        response_format={"type": "json_schema", "json_schema": {"name": "r", "schema": {"type": "object"}}},
        thinking={"type": "enabled"}, enable_thinking=True, svc_thinking_to_content=False,
        parameters={"incremental_output": True, "enable_search": True, "search_options": {"region": "eu", "recency_days": 7}, "asr_options": {"language": "en"}},
        extra_body={"svc": {"thinking_config": {"thinking_budget": -1, "include_thoughts": True}}},
        generationConfig={"thinkingConfig": {"thinkingLevel": "LOW"}}, reasoning_effort="low",
        web_search_options={"search_context_size": "medium", "user_location": {"approximate": {"country": "FR", "city": "Paris"}}},
        search_parameters={"mode": "auto", "return_citations": True},
    )
    body = request.to_body()
    assert body["response_format"]["json_schema"]["schema"] == {"type": "object"}
    assert body["extra_body"]["svc"]["thinking_config"]["thinking_budget"] == -1
    assert body["generationConfig"]["thinkingConfig"]["thinkingLevel"] == "LOW"
    assert body["messages"][2]["tool_call_id"] == "call_1"
    assert "temperature" in body and body["temperature"] == 0


def test_advisories_explain_thinking_rules() -> None:
    assert "needs streaming" in " ".join(build(enable_thinking=True).advisories())
    assert build(enable_thinking=True, stream=True).advisories() == []
    assert "max_tokens" in " ".join(build(reasoning_effort="high", max_tokens=10).advisories())
