"""Mocked tools in the conversation, through the handlers the Mocked tools panel's events run,
against the demo gateway (which calls tools) for every text format: the example declared and
offered, the model's call answered by the template with the call's own arguments in the format's
tool-result shape, and the model's answer using it; "ask me" leaves the call for the person; the
steps are bounded; a tool that cannot be declared is refused with its field named."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from playground.client.gateway import GatewayClient
from playground.client.mcp.formats import tool_result
from playground.client.mcp.model import ToolOutcome
from playground.client.results import ToolCall
from playground.client.tools.loop import MAX_STEPS
from playground.client.tools.mock import EXAMPLE, read_mock_tools
from playground.ui.conversation.mock_tools import MockHandlers, MockState, model_turns_since_person
from playground.ui.conversation.turns import Session
from playground.ui.shared.connection import ServerDefaults
from tests.conftest import DEMO_KEY
from tests.ui.conversation.conversation_screen import NO_VARIABLES, handlers
from tests.ui.conversation.test_mcp_tools import TABS, last_tool_result


async def drain(updates: AsyncIterator[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    return [update async for update in updates]


@pytest.mark.parametrize("format", TABS)
async def test_the_example_mock_answers_the_call_and_the_model_uses_its_answer(defaults: ServerDefaults, format: str) -> None:
    client = GatewayClient()
    conversation = handlers(defaults)
    mock = MockHandlers(format, conversation)
    *form, state, declared, tools_box, status, listing, draft = mock.example(MockState(), "")
    assert form[0] == "get_weather" and declared["choices"] == ["get_weather"] and "get_weather" in status
    assert read_mock_tools(listing) == [EXAMPLE]  # the same list Compare and Batch take
    adapter_of, field, model = TABS[format]
    adapter = adapter_of(client, {"model": model, field: tools_box, "stream": format != "responses"})
    session = Session()
    values = (adapter, NO_VARIABLES, defaults.base_url, DEMO_KEY)
    await drain(conversation.send(draft, session, *values))
    call = session.pending[0]
    assert call.name == "get_weather" and json.loads(call.arguments) == {"city": "Paris"}
    updates = await drain(mock.auto(state, session, *values))
    answer = '{"city": "Paris", "temperature_c": 18, "condition": "sunny"}'
    assert "answered by its mock" in updates[0][-2] and json.loads(updates[0][-1])[0]["answer"] == json.loads(answer)
    assert last_tool_result(format, session.messages) == tool_result(format, call.id, "get_weather", ToolOutcome(answer, False))
    final = session.shown[-1]["content"]
    assert "Paris" in final and "18 °C" in final and not session.pending
    sent = list(session.messages)
    assert len(await drain(mock.auto(state, session, *values))) == 1 and session.messages == sent  # nothing pending: nothing sent
    await client.aclose()


async def test_an_ask_me_mock_leaves_the_call_for_the_person(defaults: ServerDefaults) -> None:
    client = GatewayClient()
    conversation = handlers(defaults)
    mock = MockHandlers("chat", conversation)
    state, _declared, tools_box, _status, _listing = mock.save("get_weather", "", json.dumps(EXAMPLE.parameters), "ask", "", MockState(), "")
    adapter_of, field, model = TABS["chat"]
    values = (adapter_of(client, {"model": model, field: tools_box}), NO_VARIABLES, defaults.base_url, DEMO_KEY)
    session = Session()
    await drain(conversation.send({"text": "What is the weather in Oslo?", "files": []}, session, *values))
    before = list(session.messages)
    await drain(mock.auto(state, session, *values))
    assert session.pending and session.pending[0].name == "get_weather" and session.messages == before
    await client.aclose()


async def test_the_mocks_stop_after_the_step_limit_and_leave_the_call(defaults: ServerDefaults) -> None:
    conversation = handlers(defaults)
    mock = MockHandlers("chat", conversation)
    state = MockState([EXAMPLE])
    messages: list[dict[str, Any]] = [{"role": "user", "content": "go"}]
    for step in range(MAX_STEPS):
        messages += [{"role": "assistant", "content": None, "tool_calls": []}, {"role": "tool", "tool_call_id": f"c{step}", "content": "{}"}]
    session = Session(messages=messages, pending=[ToolCall("c9", "get_weather", '{"city": "Rome"}')])
    assert model_turns_since_person(session) == MAX_STEPS

    updates = await drain(mock.auto(state, session, None, NO_VARIABLES, defaults.base_url, DEMO_KEY))
    assert len(updates) == 1 and f"answered {MAX_STEPS} model turns" in updates[0][-2] and session.pending and not state.log


def test_saving_and_removing_keep_the_tools_box_in_step_and_refusals_name_the_field(defaults: ServerDefaults) -> None:
    mock = MockHandlers("messages", handlers(defaults))
    other = json.dumps([{"name": "lookup", "description": "", "input_schema": {"type": "object"}}])
    state, _declared, box, _, _listing = mock.save(*(EXAMPLE.name, EXAMPLE.description, json.dumps(EXAMPLE.parameters), "template", EXAMPLE.answer),
                                        MockState(), other)
    assert [tool["name"] for tool in json.loads(box)] == ["lookup", "get_weather"] and "input_schema" in json.loads(box)[1]
    state, _declared, box, status, listing = mock.remove("get_weather", state, box)
    assert [tool["name"] for tool in json.loads(box)] == ["lookup"] and not state.tools and "removed" in status and listing == ""
    state, _declared, box, status, _listing = mock.save("bad name", "", '{"type": "string"}', "fixed", "", state, "")
    assert "name must be" in status and "parameters must be" in status and "mock.answer is needed" in status and not state.tools
