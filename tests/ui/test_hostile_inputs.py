"""Inputs that used to crash a handler get a clear message and lose nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from playground.client.gateway import GatewayClient
from playground.client.video_catalog import Mode
from playground.demo_gateway.server import RunningGateway
from playground.ui.tabs.chat.handlers import ChatAdapter, ChatForm
from playground.ui.shared.connection import ServerDefaults
from playground.ui.conversation.turns import Session
from playground.ui.tabs.messages.handlers import MessagesForm, count_draft_tokens
from playground.ui.tabs.video.board import VideoBoard
from playground.ui.tabs.video.form import FIELD_NAMES, VideoForm
from playground.ui.tabs.video.handlers import submit_job
from tests.conftest import DEMO_KEY
from tests.ui.conversation.conversation_screen import new_session, send

SURROGATE = "half a pair \ud83d here"


@pytest.fixture
def defaults(gateway: RunningGateway) -> ServerDefaults:
    return ServerDefaults(gateway.url, DEMO_KEY, demo=True)


async def views_of(client: GatewayClient, defaults: ServerDefaults, draft: object, **form: object) -> list:  # type: ignore[type-arg]
    adapter = ChatAdapter(client, ChatForm(**{"model": "gx-2.5-flash", **form}))  # type: ignore[arg-type]
    return await send(defaults, adapter, draft, new_session([{"role": "user", "content": "kept"}]))


@pytest.mark.parametrize(("draft", "form", "words"), [
    (SURROGATE, {}, "cannot be sent"),
    ("hello", {"system": SURROGATE}, "cannot be sent"),
    ("hello", {"tools_json": "[" * 5000 + "]" * 5000}, "nested more than 64 levels"),
    ("hello", {"tools_json": "[" * 100 + "]" * 100}, "nested more than 64 levels"),
    ({"text": "see this", "files": [{"path": "/tmp/gone-already-12345.png"}]}, {}, "no longer on the server"),
])
async def test_chat_inputs_that_cannot_be_sent_are_explained(client: GatewayClient, defaults: ServerDefaults, draft: object,
                                                             form: dict, words: str) -> None:  # type: ignore[type-arg]
    views = await views_of(client, defaults, draft, **form)
    assert words in views[-1].error and "Something went wrong" not in views[-1].error
    assert views[-1].history[0]["content"] == "kept"


async def test_token_count_input_with_a_surrogate(client: GatewayClient, defaults: ServerDefaults) -> None:
    shown = await count_draft_tokens(client, defaults, SURROGATE, Session(), "", "", MessagesForm(model="cl-sonnet-4-5-20250929"), debounce=0)
    assert shown.startswith("Token count unavailable") and "cannot be sent" in shown


async def test_video_prompt_with_a_surrogate(client: GatewayClient, defaults: ServerDefaults, tmp_path: Path) -> None:
    values: dict[str, object] = {name: None for name in FIELD_NAMES}
    values.update(model="vidA-2", mode=Mode.TEXT.value, prompt=SURROGATE, duration=4)
    outcome = await submit_job(client, defaults, VideoBoard(), "", "", VideoForm(**values))  # type: ignore[arg-type]
    assert "cannot be sent" in outcome.error
