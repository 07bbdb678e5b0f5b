"""Responses tab handlers against the demo gateway: stateless and chained continuation, files,
sources, tool round trip, what the next request carries."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from playground.client.gateway import GatewayClient
from playground.demo_gateway.server import RunningGateway
from playground.ui.shared.connection import ServerDefaults
from playground.ui.conversation.turns import Session
from playground.ui.shared.render import THINKING_TITLE, flatten_text
from playground.ui.tabs.responses.handlers import TOOL_FORMATS, ResponsesAdapter, ResponsesForm, chain_status
from tests.conftest import DEMO_KEY
from tests.ui.conversation.conversation_screen import send, tool_result

TOOLS = '[{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}]'


@pytest.fixture
def defaults(gateway: RunningGateway) -> ServerDefaults:
    return ServerDefaults(gateway.url, DEMO_KEY, demo=True)


async def turn(adapter: ResponsesAdapter, defaults: ServerDefaults, draft: object, session: Session):  # type: ignore[no-untyped-def]
    return (await send(defaults, adapter, draft, session))[-1]


@pytest.mark.parametrize("chain", [False, True], ids=["stateless", "chained"])
async def test_three_turns_stateless_or_chained(client: GatewayClient, defaults: ServerDefaults, chain: bool) -> None:
    adapter = ResponsesAdapter(client, ResponsesForm(model="o4-mini", chain=chain, summary="auto"))
    view = await turn(adapter, defaults, "first", Session())
    assert view.history[1]["metadata"]["title"] == THINKING_TITLE
    first_id = view.session.messages[-1]["_response_id"]
    view = await turn(adapter, defaults, "second", view.session)
    view = await turn(adapter, defaults, "third", view.session)
    sent = view.exchange.request_body
    if chain:
        assert sent["input"] == [{"role": "user", "content": "third"}] and sent["previous_response_id"].startswith("resp_")
        assert sent["previous_response_id"] != first_id
        assert "continues from response" in chain_status(view.session.messages, True)
    else:
        assert "previous_response_id" not in sent
        kinds = [item.get("type", item.get("role")) for item in sent["input"]]
        assert kinds == ["user", "reasoning", "message", "user", "reasoning", "message", "user"]


async def test_documents_and_images_are_attached(client: GatewayClient, defaults: ServerDefaults, tmp_path: Path) -> None:
    pdf, text_file, image = tmp_path / "report.pdf", tmp_path / "notes.txt", tmp_path / "dot.png"
    pdf.write_bytes(b"%PDF-1.4 tiny")
    text_file.write_text("hello notes")
    Image.new("RGB", (4, 4), "red").save(image)
    adapter = ResponsesAdapter(client, ResponsesForm(model="gpt-4.1"))
    view = await turn(adapter, defaults, {"text": "read these", "files": [{"path": str(p)} for p in (pdf, text_file, image)]}, Session())
    assert not view.error
    reply = flatten_text(view.history[-1]["content"])
    assert "report.pdf (application/pdf" in reply and "notes.txt (text/plain" in reply and "an image" in reply
    fake = tmp_path / "fake.pdf"
    fake.write_bytes(b"not a pdf")
    view = await turn(adapter, defaults, {"text": "this", "files": [{"path": str(fake)}]}, Session())
    assert "is not a PDF file" in view.error


async def test_sources_show_as_links_and_tools_round_trip(client: GatewayClient, defaults: ServerDefaults) -> None:
    adapter = ResponsesAdapter(client, ResponsesForm(model="gpt-4.1", web_search=True))
    view = await turn(adapter, defaults, "gateway news", Session())
    assert "Sources: [Gateway Playground documentation](https://docs.example.com/gateway-playground)" in flatten_text(view.history[-1]["content"])
    adapter = ResponsesAdapter(client, ResponsesForm(model="gpt-4.1", tools_json=TOOLS, tool_format=TOOL_FORMATS[1]))
    view = await turn(adapter, defaults, "weather in Rome?", Session())
    assert view.pending_tool is not None and view.exchange.request_body["tools"][0]["name"] == "get_weather"
    call_id = view.pending_tool.id
    final = (await tool_result(defaults, adapter, '{"temp_c": 25}', view.session))[-1]
    assert "temp 25 °C" in flatten_text(final.history[-1]["content"])
    assert final.exchange.request_body["input"][-1] == {"type": "function_call_output", "call_id": call_id, "output": '{"temp_c": 25}'}
