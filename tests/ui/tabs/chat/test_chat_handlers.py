"""Chat tab handlers called directly, against the demo gateway over a real socket."""

from __future__ import annotations

import asyncio
import base64
import io
from pathlib import Path

import pytest
from PIL import Image

from playground.client.gateway import GatewayClient
from playground.demo_gateway.server import RunningGateway
from playground.ui.web.shown_files import shown_path
from playground.ui.conversation import turns as conversation
from playground.ui.tabs.chat.handlers import ChatAdapter, ChatForm
from playground.ui.conversation.turns import Session as ChatSession
from playground.ui.conversation.handlers import IDLE_PLACEHOLDER, REPLYING_PLACEHOLDER
from playground.ui.shared.connection import ServerDefaults
from playground.ui.shared.render import THINKING_TITLE, flatten_text
from tests.conftest import DEMO_KEY
from tests.ui.conversation.conversation_screen import Screen, handlers, new_session, retry, send, stop, tool_result

WEATHER_TOOLS = '[{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]'


@pytest.fixture
def defaults(gateway: RunningGateway) -> ServerDefaults:
    return ServerDefaults(gateway.url, DEMO_KEY, demo=True)


def form(**fields) -> ChatForm:  # type: ignore[no-untyped-def]
    return ChatForm(**{"model": "gx-2.5-flash", **fields})


def texts(screen: Screen) -> list[str]:
    return [flatten_text(m["content"]) for m in screen.history]


async def test_send_streams_the_reply_and_records_the_turn(client: GatewayClient, defaults: ServerDefaults, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(conversation, "STREAM_UPDATE_INTERVAL", 0.0)
    views = await send(defaults, ChatAdapter(client, form()), {"text": "Hello please make it long", "files": []})
    assert views[0].cleared_draft and texts(views[0]) == ["Hello please make it long"] and views[0].placeholder == REPLYING_PLACEHOLDER
    growing = [len(texts(v)[-1]) for v in views[1:-2] if len(v.history) == 2]
    assert len(growing) >= 2 and growing == sorted(growing), "the reply grows across several updates"
    assert not views[-1].drew_chat, "the closing update repeats nothing (issue 25)"
    final = views[-1]
    assert final.outcome is not None and final.error == "" and final.exchange is not None and final.placeholder == IDLE_PLACEHOLDER
    assert final.inspector[0] and final.session.shown == final.history, "the inspector shows the call; the chat drawn is the one kept"
    assert "offline demo gateway" in texts(final)[-1] and "first token" in final.metrics and "tokens/s" in final.metrics
    assert [m["role"] for m in final.session.messages] == ["user", "assistant"]


async def test_thinking_appears_in_a_collapsible_message(client: GatewayClient, defaults: ServerDefaults) -> None:
    views = await send(defaults, ChatAdapter(client, form(model="gx-2.5-pro-thinking")), "Why is the sky blue?")
    thinking = [m for m in views[-1].history if (m.get("metadata") or {}).get("title") == THINKING_TITLE]
    assert thinking and thinking[0]["metadata"]["status"] == "done" and "Rayleigh scattering" in thinking[0]["content"]
    assert any(v.history[-1].get("metadata", {}).get("status") == "pending" for v in views[1:-2] if len(v.history) == 2)
    assert "reasoning" in views[-1].metrics


async def test_validation_errors_are_shown_and_nothing_is_lost(client: GatewayClient, defaults: ServerDefaults) -> None:
    history = [{"role": "user", "content": "earlier"}, {"role": "assistant", "content": "answer"}]
    session = new_session(history, messages=[{"role": "user", "content": "earlier"}, {"role": "assistant", "content": "answer"}])
    for bad_form, message in [
        (form(temperature=3.5), "temperature"),
        (form(tools_json="[{oops"), "Tools: not valid JSON"),
        (form(schema_json="[1]"), "Response schema: must be an object"),
        (form(extensions_json='{"nonsense": 1}'), "unknown field(s) nonsense"),
        (form(max_tokens=-5), "max_tokens"),
    ]:
        views = await send(defaults, ChatAdapter(client, bad_form), "new question", session)
        assert len(views) == 1 and message in views[0].error and not views[0].cleared_draft
        assert views[0].history == history and len(session.messages) == 2


async def test_empty_message_and_bad_url_are_explained(client: GatewayClient, defaults: ServerDefaults) -> None:
    empty = await send(defaults, ChatAdapter(client, form()), {"text": "  ", "files": []})
    assert "type a message" in empty[0].notice.lower() and not empty[0].error and not empty[0].drew_chat  # a calm note, never a banner
    bad_url = await send(defaults, ChatAdapter(client, form()), "hi", url="ftp://nowhere")
    assert "base URL must start with http" in bad_url[-1].error and texts(bad_url[-1]) == ["hi"]


async def test_gateway_errors_keep_history_and_partial_text(client: GatewayClient, defaults: ServerDefaults) -> None:
    views = await send(defaults, ChatAdapter(client, form()), "story [[fault:cut]]")
    final = views[-1]
    assert "The reply stopped early" in final.error and "Retry" in final.error
    assert "IncompleteStreamError" not in final.error
    assert texts(final)[0] == "story [[fault:cut]]" and texts(final)[1] and "This is the playground's offline demo gateway".startswith(texts(final)[1])
    assert "incomplete" in final.metrics
    wrong_key = await send(defaults, ChatAdapter(client, form()), "hi", key="sk-not-the-key-999")
    assert "The API key was not accepted" in wrong_key[-1].error and "AuthenticationError" not in wrong_key[-1].error
    assert "sk-not-the-key-999" not in wrong_key[-1].error


async def test_tool_round_trip_through_the_tab(client: GatewayClient, defaults: ServerDefaults) -> None:
    tools_form = form(tools_json=WEATHER_TOOLS)
    first = (await send(defaults, ChatAdapter(client, tools_form), "weather in Lisbon?"))[-1]
    assert first.pending_tool is not None and first.pending_tool.name == "get_weather"
    assert first.tool_panel and "get_weather" in first.tool_label, "the tool panel asks for the result"
    assert "Tool call: get_weather" in first.history[-1]["metadata"]["title"]
    blocked = await send(defaults, ChatAdapter(client, tools_form), "another", first.session)
    assert "waiting for the result" in blocked[0].notice and not blocked[0].error
    missing = await tool_result(defaults, ChatAdapter(client, tools_form), " ", first.session)
    assert "type the tool's result" in missing[0].notice.lower() and not missing[0].error
    second = await tool_result(defaults, ChatAdapter(client, tools_form), '{"temp": 19}', first.session)
    final = second[-1]
    assert final.pending_tool is None and not final.tool_panel and "get_weather reports temp 19." in texts(final)[-1] and len(second) > 2
    assert [m["role"] for m in final.session.messages] == ["user", "assistant", "tool", "assistant"]


async def test_non_streaming_and_retry(client: GatewayClient, defaults: ServerDefaults) -> None:
    first = (await send(defaults, ChatAdapter(client, form(stream=False)), "What is 3 + 4?"))[-1]
    assert texts(first)[-1] == "3 + 4 = 7" and first.exchange.events == []
    again = await retry(defaults, ChatAdapter(client, form(temperature=0.1)), first.session)
    final = again[-1]
    assert len(final.history) == 2 and texts(final)[-1] == "3 + 4 = 7" and final.exchange.request_body["temperature"] == 0.1
    assert len(final.session.messages) == 2
    nothing = await retry(defaults, ChatAdapter(client, form()), ChatSession())
    assert "no message to retry" in nothing[0].notice and not nothing[0].error
    chat, session, draft, *_ = handlers(defaults).clear()
    assert chat == [] and session.messages == [] and session is not final.session and draft["value"] == {"text": "", "files": []}


async def test_images_are_sent_as_data_urls_and_broken_images_rejected(client: GatewayClient, defaults: ServerDefaults, tmp_path: Path) -> None:
    picture = tmp_path / "dot.png"
    Image.new("RGB", (4, 4), "red").save(picture)
    views = await send(defaults, ChatAdapter(client, form()), {"text": "what is this?", "files": [str(picture)]})
    final = views[-1]
    sent = final.session.messages[0]["content"]
    assert sent[1]["image_url"]["url"].startswith("data:image/png;base64,")
    assert "I received 1 image" in texts(final)[-1]
    shown = final.history[0]["content"][1]["path"]  # a copy the app made, never the upload's own path
    assert shown != str(picture) and shown_path(shown) == shown and Path(shown).read_bytes() == picture.read_bytes()
    broken = tmp_path / "broken.png"
    broken.write_bytes(b"\x89PNG not really")
    rejected = await send(defaults, ChatAdapter(client, form()), {"text": "x", "files": [str(broken)]})
    assert "broken.png is not a readable" in rejected[0].error and rejected[0].history == []


async def test_stop_ends_the_reply_where_it_is_and_shows_what_is_kept(gateway: RunningGateway, client: GatewayClient) -> None:
    gateway.config.token_delay = 0.01
    try:
        defaults = ServerDefaults(gateway.url, DEMO_KEY, demo=True)
        session = ChatSession()
        updates: list[tuple] = []  # type: ignore[type-arg]

        async def consume() -> None:
            async for update in handlers(defaults).send("a long story please", session, ChatAdapter(client, form()), None, "", ""):
                updates.append(update)

        task = asyncio.create_task(consume())
        while len(updates) < 4:
            await asyncio.sleep(0.01)
        stopped = await stop(session)
        await asyncio.wait_for(task, 5)
    finally:
        gateway.config.token_delay = 0.0
    assert all(gr_skip(value) for update in updates[1:] for value in update[1:]), "stopped, the event ends without its last update"
    assert session.messages[-1]["role"] == "assistant" and not session.replying
    partial = session.messages[-1]["content"]
    assert partial.startswith("This is the playground's") and len(partial) < 1000
    assert stopped["chatbot"] == session.shown and flatten_text(stopped["chatbot"][-1]["content"]) == partial, "shown as it is kept to be sent"
    assert "stopped" in stopped["metrics"].lower() and stopped["inspector"][0] and not stopped["error"]["visible"]
    assert all(gr_skip(value) for value in (await stop(session)).values() if not isinstance(value, tuple)), "Stop again changes nothing"


def gr_skip(value: object) -> bool:
    return value == {"__type__": "update"}


def test_key_never_reaches_generated_code_or_inspector() -> None:
    from playground.client.exchange import Exchange, redact_headers
    from playground.ui.shared.codegen import curl_snippet, python_snippet
    from playground.ui.shared.render import inspector_request

    image = "data:image/png;base64," + base64.b64encode(io.BytesIO(b"x" * 3000).getvalue()).decode()
    exchange = Exchange("POST", "http://gw/v1/chat/completions", redact_headers({"Authorization": f"Bearer {DEMO_KEY}"}), {"model": "m", "messages": [{"role": "user", "content": image}], "flag": True})
    for text in (curl_snippet(exchange), python_snippet(exchange), inspector_request(exchange)):
        assert DEMO_KEY not in text
    assert "more characters" in inspector_request(exchange), "the inspector shortens big data"
    assert image in curl_snippet(exchange) and image in python_snippet(exchange), "generated code carries the exact body"
    assert "$GATEWAY_API_KEY" in curl_snippet(exchange)
    compile(python_snippet(exchange), "snippet", "exec")
    assert '"flag": True' in python_snippet(exchange)


def test_stop_settles_spinning_thinking_messages() -> None:
    from playground.ui.shared.render import settle_pending

    history = [{"role": "user", "content": "q"}, {"role": "assistant", "content": "hmm", "metadata": {"title": THINKING_TITLE, "status": "pending"}}]
    settled = settle_pending(history)
    assert settled[1]["metadata"] == {"title": THINKING_TITLE, "status": "done"} and settled[0] == history[0]
    assert history[1]["metadata"]["status"] == "pending", "the input is not mutated"
