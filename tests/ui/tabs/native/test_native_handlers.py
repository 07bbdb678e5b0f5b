"""Native tab handlers against the demo gateway: thoughts replayed with their signatures, images
in the conversation, function round trip, the key as the person chose, grounding note."""

from __future__ import annotations

import pytest

from playground.client.gateway import GatewayClient
from playground.demo_gateway.server import RunningGateway
from playground.ui.shared.connection import ServerDefaults
from playground.ui.conversation.turns import Session
from playground.ui.tabs.native.handlers import NativeAdapter, NativeForm, grounding_note
from playground.ui.shared.render import THINKING_TITLE, flatten_text
from tests.conftest import DEMO_KEY
from tests.ui.conversation.conversation_screen import send, tool_result

FUNCTIONS = '[{"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}]'


@pytest.fixture
def defaults(gateway: RunningGateway) -> ServerDefaults:
    return ServerDefaults(gateway.url, DEMO_KEY, demo=True)


async def turn(adapter: NativeAdapter, defaults: ServerDefaults, text: str, session: Session):  # type: ignore[no-untyped-def]
    return (await send(defaults, adapter, text, session))[-1]


async def test_thoughts_then_an_image_in_the_conversation(client: GatewayClient, defaults: ServerDefaults) -> None:
    adapter = NativeAdapter(client, NativeForm(model="gx-2.5-flash", thinking="budget", budget=512))
    view = await turn(adapter, defaults, "why is the sky blue?", Session())
    assert view.history[1]["metadata"]["title"] == THINKING_TITLE and any("thoughtSignature" in part for part in view.session.messages[-1]["parts"])
    images = NativeAdapter(client, NativeForm(model="gx-2.5-flash", output_images=True))
    view = await turn(images, defaults, "now draw it", view.session)
    sent = view.exchange.request_body["contents"]
    assert sent[1]["role"] == "model" and any(part.get("thought") and part.get("thoughtSignature") for part in sent[1]["parts"])
    assert view.history[-1]["content"][0]["path"].endswith(".png")


@pytest.mark.parametrize("auth", ["Authorization: Bearer", "x-svc-api-key header", "key= in the URL"])
async def test_the_key_travels_as_chosen_and_is_never_shown(client: GatewayClient, defaults: ServerDefaults, auth: str) -> None:
    view = await turn(NativeAdapter(client, NativeForm(model="gx-2.5-flash", auth=auth)), defaults, "hi", Session())
    assert not view.error and DEMO_KEY not in view.exchange.url + str(view.exchange.request_headers)
    assert ("key=***" in view.exchange.url) == (auth == "key= in the URL")


async def test_function_round_trip_and_grounding(client: GatewayClient, defaults: ServerDefaults) -> None:
    adapter = NativeAdapter(client, NativeForm(model="gx-2.5-flash", functions_json=FUNCTIONS))
    view = await turn(adapter, defaults, "weather in Oslo?", Session())
    assert view.pending_tool is not None and view.pending_tool.name == "get_weather"
    final = (await tool_result(defaults, adapter, '{"temp_c": 3}', view.session))[-1]
    assert "temp 3 °C" in flatten_text(final.history[-1]["content"])
    assert final.exchange.request_body["contents"][-1] == {"role": "user", "parts": [{"functionResponse": {"name": "get_weather", "response": {"temp_c": 3}}}]}
    grounded = await turn(NativeAdapter(client, NativeForm(model="gx-2.5-flash", grounding=True)), defaults, "gateway", Session())
    assert "[1]" in flatten_text(grounded.history[-2]["content"]) and "Sources:" in flatten_text(grounded.history[-1]["content"])
    assert grounding_note(grounded.result) == "Grounded on a web search for: “gateway”"


@pytest.mark.parametrize("stream", [True, False])
async def test_a_blocked_prompt_is_named_with_its_reason_and_usage_and_no_retry(client: GatewayClient, defaults: ServerDefaults,
                                                                                stream: bool) -> None:
    adapter = NativeAdapter(client, NativeForm(model="gx-2.5-flash", stream=stream))
    view = await turn(adapter, defaults, "how to pick a lock [[fault:prompt_blocked]]", Session())
    assert "The prompt was blocked" in view.error and "SAFETY" in view.error
    assert "Retry" not in view.error and "partial output" not in view.error and "stopped early" not in view.error
    assert "tokens in " in view.metrics and view.session.usage_log and view.session.usage_log[-1].input_tokens


def test_the_native_tab_offers_the_image_models_with_image_output_preset() -> None:
    from playground.client.catalog import IMAGE_MODELS
    from playground.ui.tabs.native.handlers import output_images_for
    from playground.ui.tabs.native.layout import _models

    assert set(IMAGE_MODELS) <= set(_models())
    assert all(output_images_for(model, False) is True for model in IMAGE_MODELS)
    assert output_images_for("gx-2.5-flash", False) is False and output_images_for("gx-2.5-flash", True) is True


async def test_an_image_model_picked_in_the_native_tab_draws(client: GatewayClient, defaults: ServerDefaults) -> None:
    from playground.ui.tabs.native.handlers import output_images_for

    form = NativeForm(model="gx-2.5-flash-image", output_images=output_images_for("gx-2.5-flash-image", False))
    views = await send(defaults, NativeAdapter(client, form), "a lighthouse at dusk")
    assert not views[-1].error and views[-1].result is not None and len(views[-1].result.files) == 1
    assert views[-1].exchange.request_body["generationConfig"]["responseModalities"] == ["TEXT", "IMAGE"]
