"""Mocked tools without a gateway: the template over the arguments (no eval), the list checked whole
with each problem named, each format's declaration, and the next request of each format after a call."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from playground.client.intent import Intent, to_request
from playground.client.results import TextResult, ToolCall
from playground.client.tools.loop import answered, rebuilt, with_tools
from playground.client.tools.mock import EXAMPLE, MAX_TEXT_CHARS, MockTool, MockToolError, mock_tools_text, read_mock_tools, render

MODELS = {"chat": "gx-2.5-flash", "responses": "gx-2.5-flash", "messages": "cl-sonnet-4-5-20250929", "native": "gx-2.5-flash"}


def test_a_json_template_keeps_each_arguments_type_and_escapes_text() -> None:
    template = '{"city": "{{city}}", "days": "{{days}}", "note": "in {{city}} for {{days}} days"}'
    answer = json.loads(render(template, {"city": 'Pa"ris', "days": 3}))
    assert answer == {"city": 'Pa"ris', "days": 3, "note": 'in Pa"ris for 3 days'}


def test_a_text_template_writes_the_values_in_and_never_evaluates_them() -> None:
    assert render("It is sunny in {{ city }}.", {"city": "{{__import__('os')}}"}) == "It is sunny in {{__import__('os')}}."
    assert render("{{a}}+{{b}}", {"a": 1, "b": {"x": [1]}}) == '1+{"x": [1]}'


def test_a_call_without_the_templates_argument_gets_an_error_the_model_can_read() -> None:
    answer = json.loads(EXAMPLE.answer_to('{"town": "Paris"}') or "")
    assert "no argument 'city'" in answer["error"]
    assert "not a JSON object" in json.loads(EXAMPLE.answer_to("[1]") or "")["error"]
    assert json.loads(EXAMPLE.answer_to('{"city": "Oslo"}') or "")["city"] == "Oslo"


def test_fixed_answers_as_written_and_ask_me_answers_nothing() -> None:
    assert MockTool("f", kind="fixed", answer='{"ok": true}').answer_to('{"x": 1}') == '{"ok": true}'
    assert MockTool("f", kind="ask").answer_to("{}") is None


def test_the_list_round_trips_and_every_problem_is_named_by_tool_and_field() -> None:
    assert read_mock_tools(mock_tools_text([EXAMPLE])) == [EXAMPLE]
    assert read_mock_tools("") == []
    broken = [{"name": "1bad", "mock": {"kind": "guess", "answer": ""}}, {"name": "ok", "parameters": {"type": "string"},
                                                                          "mock": {"kind": "fixed", "answer": ""}, "extra": 1}]
    with pytest.raises(MockToolError) as caught:
        read_mock_tools(json.dumps(broken))
    text = str(caught.value)
    for part in ("tool 1: name", "tool 1: mock.kind", "tool 2: unknown field extra", "tool 2: parameters", "tool 2: mock.answer is needed"):
        assert part in text
    with pytest.raises(MockToolError, match="two mocked tools are named get_weather"):
        read_mock_tools(mock_tools_text([EXAMPLE, EXAMPLE]))
    with pytest.raises(MockToolError, match="placeholder"):
        read_mock_tools(json.dumps([{"name": "t", "mock": {"kind": "template", "answer": "{{ }}"}}]))


def test_the_list_is_bounded_before_it_is_parsed() -> None:
    with pytest.raises(MockToolError, match="at most"):
        read_mock_tools("[" + " " * MAX_TEXT_CHARS + "]")
    with pytest.raises(MockToolError, match="levels deep"):
        read_mock_tools("[" * 100_000)


@settings(max_examples=200, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=12))
def test_reading_any_json_never_raises_anything_but_a_named_refusal(value: object) -> None:
    try:
        read_mock_tools(json.dumps(value))
        read_mock_tools(json.dumps([value]))
    except MockToolError:
        pass


@pytest.mark.parametrize("fmt", MODELS)
def test_each_format_declares_the_tool_in_its_own_shape(fmt: str) -> None:
    request = with_tools(to_request(Intent("weather?"), fmt, MODELS[fmt]).request, fmt, MODELS[fmt], [EXAMPLE])
    tools = request.to_body()["tools"]
    expected = {"chat": [{"type": "function", "function": {"name": "get_weather", "description": EXAMPLE.description, "parameters": EXAMPLE.parameters}}],
                "messages": [{"name": "get_weather", "description": EXAMPLE.description, "input_schema": EXAMPLE.parameters}],
                "native": [{"functionDeclarations": [{"name": "get_weather", "description": EXAMPLE.description, "parameters": EXAMPLE.parameters}]}]}
    expected["responses"] = expected["chat"]
    assert tools == expected[fmt]


@pytest.mark.parametrize("fmt", MODELS)
def test_the_next_request_carries_the_call_and_the_answer_in_the_formats_shape(fmt: str) -> None:
    model = MODELS[fmt]
    request = with_tools(to_request(Intent("weather in Paris?"), fmt, model).request, fmt, model, [EXAMPLE])
    call = ToolCall("call_1", "get_weather", '{"city": "Paris"}')
    result = TextResult(tool_calls=[call], complete=True)
    answer = EXAMPLE.answer_to(call.arguments) or ""
    body = rebuilt(answered(fmt, request.to_body(), result, [(call, answer)]), fmt, model).to_body()
    if fmt == "chat":
        assert body["messages"][-2]["tool_calls"][0]["id"] == "call_1"
        assert body["messages"][-1] == {"role": "tool", "tool_call_id": "call_1", "name": "get_weather", "content": answer}
    elif fmt == "responses":
        assert body["input"][-2] == {"type": "function_call", "call_id": "call_1", "name": "get_weather", "arguments": '{"city": "Paris"}'}
        assert body["input"][-1] == {"type": "function_call_output", "call_id": "call_1", "output": answer}
    elif fmt == "messages":
        assert body["messages"][-2] == {"role": "assistant", "content": [{"type": "tool_use", "id": "call_1", "name": "get_weather", "input": {"city": "Paris"}}]}
        assert body["messages"][-1] == {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "call_1", "content": answer}]}
    else:
        assert body["contents"][-2] == {"role": "model", "parts": [{"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}}]}
        assert body["contents"][-1] == {"role": "user", "parts": [{"functionResponse": {"name": "get_weather", "response": json.loads(answer)}}]}
