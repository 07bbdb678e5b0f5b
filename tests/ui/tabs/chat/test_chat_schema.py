"""Structured output in the Chat tab, against the demo gateway: a strict schema the format would
refuse is refused before anything is sent, with its path; a structured answer gets a line saying
it matches the schema."""

from __future__ import annotations

import json

import pytest

from playground.client.errors import RequestValidationError
from playground.client.gateway import GatewayClient
from playground.demo_gateway.server import RunningGateway
from playground.ui.shared.connection import ServerDefaults
from playground.ui.shared.schema_form import example_json
from playground.ui.tabs.chat.handlers import ChatAdapter, ChatForm, schema_line
from tests.conftest import DEMO_KEY
from tests.ui.conversation.conversation_screen import send

OPTIONAL_DIET = json.loads(example_json("chat"))
OPTIONAL_DIET["schema"]["required"].remove("diet")


@pytest.fixture
def defaults(gateway: RunningGateway) -> ServerDefaults:
    return ServerDefaults(gateway.url, DEMO_KEY, demo=True)


def test_a_strict_schema_strict_mode_refuses_is_refused_before_sending_with_its_path() -> None:
    with pytest.raises(RequestValidationError) as refused:
        ChatForm("gx-2.5-flash", schema_json=json.dumps(OPTIONAL_DIET)).request([{"role": "user", "content": "hi"}])
    assert "optional fields at $: diet" in str(refused.value)
    relaxed = {**OPTIONAL_DIET, "strict": False}
    request = ChatForm("gx-2.5-flash", schema_json=json.dumps(relaxed)).request([{"role": "user", "content": "hi"}])
    assert request.response_format is not None, "without strict mode the same schema is sent"


async def test_a_structured_answer_is_said_to_match_its_schema(client: GatewayClient, defaults: ServerDefaults) -> None:
    adapter = ChatAdapter(client, ChatForm("gx-2.5-flash", stream=False, schema_json=example_json("chat")))
    views = await send(defaults, adapter, {"text": "Describe an animal of the savanna.", "files": []})
    final = views[-1].outcome
    assert final is not None and final.done and final.result is not None
    assert schema_line(final, adapter) == ("The answer matches the schema.",)
    plain = ChatAdapter(client, ChatForm("gx-2.5-flash", stream=False))
    assert schema_line(final, plain) == ("",), "no schema, no line"
