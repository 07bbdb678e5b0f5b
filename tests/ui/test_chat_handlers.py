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
from playground.ui.shown_files import shown_path
from playground.ui import conversation
from playground.ui.chat_handlers import ChatAdapter, ChatForm
from playground.ui.conversation import Session as ChatSession, View as ChatView, cleared as clear_chat, retry_last, send_message, send_tool_result
from playground.ui.connection import ServerDefaults
from playground.ui.render import THINKING_TITLE, flatten_text
from tests.conftest import DEMO_KEY

WEATHER_TOOLS = '[{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]'


@pytest.fixture
def defaults(gateway: RunningGateway) -> ServerDefaults:
    return ServerDefaults(gateway.url, DEMO_KEY, demo=True)


async def run(gen) -> list[ChatView]:  # type: ignore[no-untyped-def]
    return [view async for view in gen]


def form(**fields) -> ChatForm:  # type: ignore[no-untyped-def]
    return ChatForm(**{"model": "gx-2.5-flash", **fields})


def texts(view: ChatView) -> list[str]:
    return [flatten_text(m["content"]) for m in view.history]


async def test_send_streams_the_reply_and_records_the_turn(client: GatewayClient, defaults: ServerDefaults, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(conversation, "STREAM_UPDATE_INTERVAL", 0.0)
    views = await run(send_message(ChatAdapter(client, form()), defaults, {"text": "Hello please make it long", "files": []}, [], ChatSession(), "", ""))
    assert views[0].clear_draft and texts(views[0]) == ["Hello please make it long"]
    growing = [len(texts(v)[-1]) for v in views[1:-1] if len(v.history) == 2]
    assert len(growing) >= 2 and growing == sorted(growing), "the reply grows across several updates"
    final = views[-1]
    assert final.done and final.error == "" and final.exchange is not None
    assert "here, answering with" in texts(final)[-1] and "first token" in final.metrics and "tokens/s" in final.metrics
    assert [m["role"] for m in final.session.messages] == ["user", "assistant"]


async def test_thinking_appears_in_a_collapsible_message(client: GatewayClient, defaults: ServerDefaults) -> None:
    views = await run(send_message(ChatAdapter(client, form(model="gx-2.5-pro-thinking")), defaults, "Why?", [], None, "", ""))
    thinking = [m for m in views[-1].history if (m.get("metadata") or {}).get("title") == THINKING_TITLE]
    assert thinking and thinking[0]["metadata"]["status"] == "done" and "Why?" in thinking[0]["content"]
    assert any(v.history[-1].get("metadata", {}).get("status") == "pending" for v in views[1:-1] if len(v.history) == 2)
    assert "reasoning" in views[-1].metrics


async def test_validation_errors_are_shown_and_nothing_is_lost(client: GatewayClient, defaults: ServerDefaults) -> None:
    history = [{"role": "user", "content": "earlier"}, {"role": "assistant", "content": "answer"}]
    session = ChatSession(messages=[{"role": "user", "content": "earlier"}, {"role": "assistant", "content": "answer"}])
    for bad_form, message in [
        (form(temperature=3.5), "temperature"),
        (form(tools_json="[{oops"), "Tools: not valid JSON"),
        (form(schema_json="[1]"), "Response schema: must be an object"),
        (form(extensions_json='{"nonsense": 1}'), "unknown field(s) nonsense"),
        (form(max_tokens=-5), "max_tokens"),
    ]:
        views = await run(send_message(ChatAdapter(client, bad_form), defaults, "new question", history, session, "", ""))
        assert len(views) == 1 and message in views[0].error and not views[0].clear_draft
        assert views[0].history == history and len(session.messages) == 2


async def test_empty_message_and_bad_url_are_explained(client: GatewayClient, defaults: ServerDefaults) -> None:
    empty = await run(send_message(ChatAdapter(client, form()), defaults, {"text": "  ", "files": []}, [], None, "", ""))
    assert "type a message" in empty[0].notice.lower() and not empty[0].error and empty[0].aside  # a calm note, never a banner
    bad_url = await run(send_message(ChatAdapter(client, form()), defaults, "hi", [], None, "ftp://nowhere", ""))
    assert "base URL must start with http" in bad_url[-1].error and texts(bad_url[-1]) == ["hi"]


async def test_gateway_errors_keep_history_and_partial_text(client: GatewayClient, defaults: ServerDefaults) -> None:
    views = await run(send_message(ChatAdapter(client, form()), defaults, "story [[fault:cut]]", [], None, "", ""))
    final = views[-1]
    assert "The reply stopped early" in final.error and "Retry" in final.error
    assert "IncompleteStreamError" not in final.error
    assert texts(final)[0] == "story [[fault:cut]]" and texts(final)[1].startswith("gx-2.5-flash here")
    assert "incomplete" in final.metrics
    wrong_key = await run(send_message(ChatAdapter(client, form()), defaults, "hi", [], None, "", "sk-not-the-key-999"))
    assert "The API key was not accepted" in wrong_key[-1].error and "AuthenticationError" not in wrong_key[-1].error
    assert "sk-not-the-key-999" not in wrong_key[-1].error


async def test_tool_round_trip_through_the_tab(client: GatewayClient, defaults: ServerDefaults) -> None:
    tools_form = form(tools_json=WEATHER_TOOLS)
    first = (await run(send_message(ChatAdapter(client, tools_form), defaults, "weather in Lisbon?", [], None, "", "")))[-1]
    assert first.pending_tool is not None and first.pending_tool.name == "get_weather"
    assert "Tool call: get_weather" in first.history[-1]["metadata"]["title"]
    blocked = await run(send_message(ChatAdapter(client, tools_form), defaults, "another", first.history, first.session, "", ""))
    assert "waiting for the result" in blocked[0].notice and not blocked[0].error
    missing = await run(send_tool_result(ChatAdapter(client, tools_form), defaults, " ", first.history, first.session, "", ""))
    assert "type the tool's result" in missing[0].notice.lower() and not missing[0].error
    second = await run(send_tool_result(ChatAdapter(client, tools_form), defaults, '{"temp": 19}', first.history, first.session, "", ""))
    final = second[-1]
    assert final.pending_tool is None and "get_weather reports temp 19." in texts(final)[-1] and len(second) > 2
    assert [m["role"] for m in final.session.messages] == ["user", "assistant", "tool", "assistant"]


async def test_non_streaming_and_retry(client: GatewayClient, defaults: ServerDefaults) -> None:
    first = (await run(send_message(ChatAdapter(client, form(stream=False)), defaults, "once", [], None, "", "")))[-1]
    assert texts(first)[-1].startswith("gx-2.5-flash here") and 'Your message: "once"' in texts(first)[-1] and first.exchange.events == []
    again = await run(retry_last(ChatAdapter(client, form(temperature=0.1)), defaults, first.history, first.session, "", ""))
    final = again[-1]
    assert len(final.history) == 2 and "temperature=0.1" in texts(final)[-1]
    assert len(final.session.messages) == 2
    nothing = await run(retry_last(ChatAdapter(client, form()), defaults, [], ChatSession(), "", ""))
    assert "no message to retry" in nothing[0].notice and not nothing[0].error
    assert clear_chat().history == [] and clear_chat().session.messages == []


async def test_images_are_sent_as_data_urls_and_broken_images_rejected(client: GatewayClient, defaults: ServerDefaults, tmp_path: Path) -> None:
    picture = tmp_path / "dot.png"
    Image.new("RGB", (4, 4), "red").save(picture)
    views = await run(send_message(ChatAdapter(client, form()), defaults, {"text": "what is this?", "files": [str(picture)]}, [], None, "", ""))
    final = views[-1]
    sent = final.session.messages[0]["content"]
    assert sent[1]["image_url"]["url"].startswith("data:image/png;base64,")
    assert "I received 1 image" in texts(final)[-1]
    shown = final.history[0]["content"][1]["path"]  # a copy the app made, never the upload's own path
    assert shown != str(picture) and shown_path(shown) == shown and Path(shown).read_bytes() == picture.read_bytes()
    broken = tmp_path / "broken.png"
    broken.write_bytes(b"\x89PNG not really")
    rejected = await run(send_message(ChatAdapter(client, form()), defaults, {"text": "x", "files": [str(broken)]}, [], None, "", ""))
    assert "broken.png is not a readable" in rejected[0].error and rejected[0].history == []


async def test_cancelling_a_stream_keeps_the_partial_reply(gateway: RunningGateway, client: GatewayClient) -> None:
    gateway.config.token_delay = 0.01
    try:
        defaults = ServerDefaults(gateway.url, DEMO_KEY, demo=True)
        session = ChatSession()
        shown: list[ChatView] = []

        async def consume() -> None:
            async for view in send_message(ChatAdapter(client, form()), defaults, "a long story please", [], session, "", ""):
                shown.append(view)

        task = asyncio.create_task(consume())
        while len(shown) < 4:
            await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    finally:
        gateway.config.token_delay = 0.0
    assert session.messages[-1]["role"] == "assistant"
    partial = session.messages[-1]["content"]
    assert "here, answering with" in partial and len(partial) < 1000


def test_key_never_reaches_generated_code_or_inspector() -> None:
    from playground.client.exchange import Exchange, redact_headers
    from playground.ui.codegen import curl_snippet, python_snippet
    from playground.ui.render import inspector_request

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
    from playground.ui.render import settle_pending

    history = [{"role": "user", "content": "q"}, {"role": "assistant", "content": "hmm", "metadata": {"title": THINKING_TITLE, "status": "pending"}}]
    settled = settle_pending(history)
    assert settled[1]["metadata"] == {"title": THINKING_TITLE, "status": "done"} and settled[0] == history[0]
    assert history[1]["metadata"]["status"] == "pending", "the input is not mutated"
