"""The official google-genai SDK against the demo gateway (base URL and a Bearer header through
`http_options`): generate, stream, a function-call round trip, and an image back."""

from __future__ import annotations

import pytest
from google import genai
from google.genai import types

from playground.demo_gateway.server import RunningGateway
from tests.conftest import DEMO_KEY


@pytest.fixture
def sdk(gateway: RunningGateway) -> genai.Client:
    options = types.HttpOptions(base_url=gateway.url, api_version="v1beta", headers={"Authorization": f"Bearer {DEMO_KEY}"})
    return genai.Client(api_key="ignored-by-the-demo", http_options=options)


def test_generate_content(sdk: genai.Client) -> None:
    response = sdk.models.generate_content(model="gx-2.5-flash", contents="capital of Japan?")
    assert "Tokyo" in response.text and response.usage_metadata.prompt_token_count == 4


def test_generate_content_stream_with_thoughts(sdk: genai.Client) -> None:
    config = types.GenerateContentConfig(thinking_config=types.ThinkingConfig(thinking_budget=512, include_thoughts=True))
    chunks = list(sdk.models.generate_content_stream(model="gx-2.5-flash", contents="How many days are there between 2024-01-01 and 2024-03-01?", config=config))
    text = "".join(part.text for chunk in chunks for part in chunk.candidates[0].content.parts if part.text and not part.thought)
    thoughts = [part for chunk in chunks for part in chunk.candidates[0].content.parts if part.thought]
    assert "60 days" in text and any("60" in part.text for part in thoughts) and thoughts and chunks[-1].candidates[0].finish_reason == types.FinishReason.STOP


def test_function_call_round_trip(sdk: genai.Client) -> None:
    weather = types.FunctionDeclaration(name="get_weather", parameters=types.Schema(type="OBJECT", properties={"city": types.Schema(type="STRING")}))
    config = types.GenerateContentConfig(tools=[types.Tool(function_declarations=[weather])],
                                         automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True))
    first = sdk.models.generate_content(model="gx-2.5-flash", contents="weather in Oslo?", config=config)
    call = first.function_calls[0]
    assert call.name == "get_weather" and "city" in call.args
    contents = [types.Content(role="user", parts=[types.Part(text="weather in Oslo?")]), first.candidates[0].content,
                types.Content(role="user", parts=[types.Part.from_function_response(name="get_weather", response={"temp_c": 3})])]
    second = sdk.models.generate_content(model="gx-2.5-flash", contents=contents, config=config)
    assert "temp 3 °C" in second.text


def test_image_output(sdk: genai.Client) -> None:
    config = types.GenerateContentConfig(response_modalities=["IMAGE", "TEXT"])
    response = sdk.models.generate_content(model="gx-2.5-flash", contents="a lighthouse", config=config)
    images = [part.inline_data for part in response.candidates[0].content.parts if part.inline_data]
    assert images and images[0].mime_type == "image/png" and images[0].data.startswith(b"\x89PNG")


def test_image_model_output(sdk: genai.Client) -> None:
    config = types.GenerateContentConfig(response_modalities=["TEXT", "IMAGE"])
    response = sdk.models.generate_content(model="gx-3-pro-image-preview", contents="a red kite", config=config)
    images = [part.inline_data for part in response.candidates[0].content.parts if part.inline_data]
    assert images and images[0].data.startswith(b"\x89PNG")
