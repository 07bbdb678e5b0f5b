"""The official openai SDK's responses API against the demo gateway: create, stream with its
accumulator, and a function-call round trip with flat tools as the SDK sends them."""

from __future__ import annotations

import openai
import pytest

from playground.demo_gateway.server import RunningGateway
from tests.conftest import DEMO_KEY

FLAT_TOOLS = [{"type": "function", "name": "get_weather", "description": "weather", "strict": False,
               "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}]


@pytest.fixture
def sdk(gateway: RunningGateway) -> openai.OpenAI:
    return openai.OpenAI(base_url=gateway.url + "/v1", api_key=DEMO_KEY, max_retries=0)


def test_sdk_create(sdk: openai.OpenAI) -> None:
    response = sdk.responses.create(model="o4-mini", input="What is 15% of 240?", reasoning={"effort": "low", "summary": "auto"})
    assert response.status == "completed" and "36" in response.output_text
    assert response.usage.output_tokens_details.reasoning_tokens > 0
    assert [item.type for item in response.output] == ["reasoning", "message"]


def test_sdk_stream_and_final_response(sdk: openai.OpenAI) -> None:
    with sdk.responses.stream(model="gpt-4.1", input="Who painted the Mona Lisa?") as stream:
        deltas = [event.delta for event in stream if event.type == "response.output_text.delta"]
        final = stream.get_final_response()
    assert "".join(deltas) == final.output_text and "Leonardo da Vinci" in final.output_text
    follow = sdk.responses.create(model="gpt-4.1", input="and again", previous_response_id=final.id)
    assert follow.previous_response_id == final.id


def test_sdk_function_call_round_trip(sdk: openai.OpenAI) -> None:
    first = sdk.responses.create(model="gpt-4.1", input="weather in Paris?", tools=FLAT_TOOLS,
                                 tool_choice={"type": "function", "name": "get_weather"})
    call = next(item for item in first.output if item.type == "function_call")
    assert call.name == "get_weather" and "city" in call.arguments
    second = sdk.responses.create(model="gpt-4.1", tools=FLAT_TOOLS, previous_response_id=first.id,
                                  input=[{"type": "function_call_output", "call_id": call.call_id, "output": '{"temp_c": 21}'}])
    assert "temp 21 °C" in second.output_text


def test_sdk_errors(sdk: openai.OpenAI) -> None:
    with pytest.raises(openai.BadRequestError):
        sdk.responses.create(model="gpt-4.1", input="x", previous_response_id="resp_nope")
    with pytest.raises(openai.NotFoundError):
        sdk.responses.create(model="no-such-model", input="x")
