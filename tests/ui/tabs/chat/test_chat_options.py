"""Chat tab options: usage asked for in streams, several images in one message."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from playground.client.gateway import GatewayClient
from playground.demo_gateway.server import RunningGateway
from playground.ui.tabs.chat.handlers import ChatAdapter, ChatForm
from playground.ui.shared.connection import ServerDefaults
from tests.conftest import DEMO_KEY
from tests.ui.conversation.conversation_screen import send


@pytest.fixture
def defaults(gateway: RunningGateway) -> ServerDefaults:
    return ServerDefaults(gateway.url, DEMO_KEY, demo=True)


async def last_view(client: GatewayClient, defaults: ServerDefaults, draft: object, **form: object):  # type: ignore[no-untyped-def]
    views = await send(defaults, ChatAdapter(client, ChatForm(model="gx-2.5-flash", **form)), draft)  # type: ignore[arg-type]
    return views[-1]


@pytest.mark.parametrize(("stream_usage", "expected"), [(True, {"include_usage": True}), (False, None)])
async def test_streams_ask_for_usage_unless_turned_off(client: GatewayClient, defaults: ServerDefaults, stream_usage: bool, expected: object) -> None:
    view = await last_view(client, defaults, "hello", stream=True, stream_usage=stream_usage)
    assert view.exchange.request_body.get("stream_options") == expected
    assert "tokens in" in view.metrics


async def test_non_streaming_calls_send_no_stream_options(client: GatewayClient, defaults: ServerDefaults) -> None:
    view = await last_view(client, defaults, "hello", stream=False)
    assert "stream_options" not in view.exchange.request_body


async def test_several_images_in_one_message(client: GatewayClient, defaults: ServerDefaults, tmp_path: Path) -> None:
    paths = []
    for index, colour in enumerate(("red", "blue", "green")):
        path = tmp_path / f"image-{index}.png"
        Image.new("RGB", (8, 8), colour).save(path)
        paths.append(str(path))
    view = await last_view(client, defaults, {"text": "compare these", "files": [{"path": p} for p in paths]})
    parts = view.exchange.request_body["messages"][-1]["content"]
    assert [p["type"] for p in parts] == ["text", "image_url", "image_url", "image_url"]
    shown = [part["path"] for part in next(m for m in view.history if m["role"] == "user")["content"][1:]]
    assert [Path(p).read_bytes() for p in shown] == [Path(p).read_bytes() for p in paths] and not set(shown) & set(paths)  # app-made copies
