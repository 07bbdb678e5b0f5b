"""Structured output in the Responses and Native tabs, against the demo gateway: the schema box is
sent where each format takes it (`text.format`, `generationConfig.responseSchema`), what the
format refuses is refused before sending with its path, the answer gets its verdict line, and a
curl command carrying a schema comes back into the schema box."""

from __future__ import annotations

import json
import shlex

import pytest

from playground.client.curl_import import parse_curl
from playground.client.errors import RequestValidationError
from playground.client.gateway import GatewayClient
from playground.demo_gateway.server import RunningGateway
from playground.ui.shared.connection import ServerDefaults
from playground.ui.shared.schema_form import EXAMPLE_SCHEMA, example_json
from playground.ui.tabs.native.handlers import NativeAdapter, NativeForm, grounding_line, native_form_values
from playground.ui.tabs.responses.handlers import ResponsesAdapter, ResponsesForm, chain_line, responses_form_values
from tests.conftest import DEMO_KEY
from tests.ui.conversation.conversation_screen import send

HI = [{"role": "user", "content": "hi"}]
NATIVE_HI = [{"role": "user", "parts": [{"text": "hi"}]}]


@pytest.fixture
def defaults(gateway: RunningGateway) -> ServerDefaults:
    return ServerDefaults(gateway.url, DEMO_KEY, demo=True)


def test_responses_sends_the_box_as_text_format_and_strict_mode_refuses_before_sending() -> None:
    body = ResponsesForm("gpt-4.1", schema_json=example_json("responses")).request(HI).to_body()
    assert body["text"]["format"]["type"] == "json_schema" and body["text"]["format"]["name"] == "animal"
    assert body["text"]["format"]["strict"] is True and body["text"]["format"]["schema"]["required"][0] == "name"
    bare = ResponsesForm("gpt-4.1", schema_json='{"type": "object", "properties": {"a": {"type": "string"}}}').request(HI).to_body()
    assert bare["text"]["format"]["name"] == "response" and "strict" not in bare["text"]["format"]
    optional = json.loads(example_json("responses"))
    optional["schema"]["properties"]["habitat"]["additionalProperties"] = True
    with pytest.raises(RequestValidationError) as refused:
        ResponsesForm("gpt-4.1", schema_json=json.dumps(optional)).request(HI)
    assert "Responses strict mode refuses an object that allows extra fields at $.properties.habitat" in str(refused.value)


def test_native_sends_the_box_as_response_schema_and_refuses_what_its_subset_cannot_take() -> None:
    body = NativeForm("gx-2.5-flash", schema_json=example_json("native")).request(NATIVE_HI).to_body()
    config = body["generationConfig"]
    assert config["responseMimeType"] == "application/json" and config["responseSchema"]["properties"]["diet"]["enum"][0] == "herbivore"
    with pytest.raises(RequestValidationError) as refused:
        NativeForm("gx-2.5-flash", schema_json=json.dumps(EXAMPLE_SCHEMA)).request(NATIVE_HI)
    assert "responseSchema refuses the keyword additionalProperties at $ " in str(refused.value)
    assert "additionalProperties at $.properties.habitat" in str(refused.value)


async def test_a_responses_answer_is_checked_against_its_schema(client: GatewayClient, defaults: ServerDefaults) -> None:
    adapter = ResponsesAdapter(client, ResponsesForm("gpt-4.1", stream=True, schema_json=example_json("responses")))
    final = (await send(defaults, adapter, {"text": "Describe an animal of the savanna.", "files": []}))[-1].outcome
    assert final is not None and chain_line(final, adapter)[1] == "The answer matches the schema."


async def test_a_native_answer_is_checked_against_its_schema(client: GatewayClient, defaults: ServerDefaults) -> None:
    adapter = NativeAdapter(client, NativeForm("gx-2.5-flash", stream=True, schema_json=example_json("native")))
    final = (await send(defaults, adapter, {"text": "Describe an animal of the savanna.", "files": []}))[-1].outcome
    assert final is not None and grounding_line(final, adapter)[1] == "The answer matches the schema."
    without = NativeAdapter(client, NativeForm("gx-2.5-flash"))
    assert grounding_line(final, without)[1] == "", "no schema, no verdict"


def test_a_curl_command_with_a_schema_fills_the_schema_box() -> None:
    sent = ResponsesForm("gpt-4.1", schema_json=example_json("responses")).request(HI).to_body()
    values = responses_form_values(sent)
    assert json.loads(values["schema_json"]) == json.loads(example_json("responses")) and values["extensions_json"] == ""
    native = NativeForm("gx-2.5-flash", schema_json=example_json("native")).request(NATIVE_HI).to_body()
    command = f"curl http://x/v1beta/models/gx-2.5-flash:generateContent -H 'Authorization: Bearer k' -d {shlex.quote(json.dumps(native))}"
    request = parse_curl(command)
    filled = native_form_values(request.body, request.model, request.auth_style)
    assert json.loads(filled["schema_json"]) == json.loads(example_json("native")) and filled["extensions_json"] == ""
