"""Structured output on the demo gateway through the official SDKs (the spec does not list it; the
demo reads it where real gateways do): the openai SDK's `text.format` json_schema on responses
and google-genai's `response_schema`; each answer is JSON valid against the schema."""

from __future__ import annotations

import json

import jsonschema
import openai
import pytest
from google import genai
from google.genai import types

from playground.demo_gateway.server import RunningGateway
from tests.conftest import DEMO_KEY

SCHEMA = {"type": "object", "properties": {"animal": {"type": "string"}, "diet": {"type": "string", "enum": ["plants", "meat"]},
                                           "home": {"type": "object", "properties": {"continent": {"type": "string"}},
                                                    "required": ["continent"], "additionalProperties": False},
                                           "facts": {"type": "array", "items": {"type": "string"}}},
          "required": ["animal", "diet", "home", "facts"], "additionalProperties": False}


@pytest.fixture
def openai_sdk(gateway: RunningGateway) -> openai.OpenAI:
    return openai.OpenAI(base_url=gateway.url + "/v1", api_key=DEMO_KEY, max_retries=0)


@pytest.fixture
def genai_sdk(gateway: RunningGateway) -> genai.Client:
    options = types.HttpOptions(base_url=gateway.url, api_version="v1beta", headers={"Authorization": f"Bearer {DEMO_KEY}"})
    return genai.Client(api_key="ignored-by-the-demo", http_options=options)


@pytest.mark.parametrize("stream", [False, True])
def test_responses_text_format_json_schema(openai_sdk: openai.OpenAI, stream: bool) -> None:
    text_format = {"format": {"type": "json_schema", "name": "animal", "schema": SCHEMA, "strict": True}}
    if stream:
        with openai_sdk.responses.stream(model="gpt-4.1", input="Describe a zebra.", text=text_format) as events:  # type: ignore[arg-type]
            answer = events.get_final_response().output_text
    else:
        answer = openai_sdk.responses.create(model="gpt-4.1", input="Describe a zebra.", text=text_format).output_text  # type: ignore[arg-type]
    jsonschema.validate(json.loads(answer), SCHEMA)
    with pytest.raises(openai.BadRequestError, match="text.format.schema"):
        openai_sdk.responses.create(model="gpt-4.1", input="hi", text={"format": {"type": "json_schema", "name": "x"}})  # type: ignore[arg-type, typeddict-item]


def test_native_response_schema(genai_sdk: genai.Client) -> None:
    native_schema = {**SCHEMA, "properties": {**SCHEMA["properties"], "home": {"type": "OBJECT", "properties": {"continent": {"type": "STRING"}}}}}
    del native_schema["additionalProperties"]
    config = types.GenerateContentConfig(response_mime_type="application/json", response_schema=native_schema)
    response = genai_sdk.models.generate_content(model="gx-2.5-flash", contents="Describe a zebra.", config=config)
    jsonschema.validate(json.loads(response.text or ""), SCHEMA)
    plain = genai_sdk.models.generate_content(model="gx-2.5-flash", contents="Describe a zebra.",
                                              config=types.GenerateContentConfig(response_schema=native_schema))
    assert not (plain.text or "").lstrip().startswith("{"), "without the JSON mime type the answer is free text"
