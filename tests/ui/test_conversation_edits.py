"""What is shown and what is sent are one state: delete a turn, edit a message, no second send
while a reply is arriving, and a stopped or failed reply keeps its call for the inspector."""

from __future__ import annotations

import asyncio

import pytest

from playground.client.gateway import GatewayClient
from playground.demo_gateway.server import RunningGateway
from playground.ui import conversation
from playground.ui.chat_handlers import ChatAdapter, ChatForm
from playground.ui.connection import ServerDefaults
from playground.ui.i18n import english
from playground.ui.conversation import REPLYING, Session, begin_edit, begin_send, delete_turn, run_turn, send_message, send_tool_result
from playground.ui.render import flatten_text
from tests.conftest import DEMO_KEY

TOOLS = '[{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}]'


@pytest.fixture
def defaults(gateway: RunningGateway) -> ServerDefaults:
    return ServerDefaults(gateway.url, DEMO_KEY, demo=True)


async def converse(client: GatewayClient, defaults: ServerDefaults, texts: list[str], **form: object) -> tuple[list, Session]:  # type: ignore[type-arg]
    adapter = ChatAdapter(client, ChatForm(model="gx-2.5-flash", **form))  # type: ignore[arg-type]
    history: list = []  # type: ignore[type-arg]
    session = Session()
    for text in texts:
        views = [v async for v in send_message(adapter, defaults, text, history, session, "", "")]
        history, session = views[-1].history, views[-1].session
    return history, session


def shown_texts(history: list) -> list[str]:  # type: ignore[type-arg]
    return [flatten_text(m["content"]) for m in history]


async def test_deleting_a_middle_turn_removes_it_from_what_is_sent(client: GatewayClient, defaults: ServerDefaults) -> None:
    history, session = await converse(client, defaults, ["first", "second", "third"])
    view = delete_turn(history, session, 3)  # the reply to "second"
    assert [t for t in shown_texts(view.history) if "here, answering with" not in t] == ["first", "third"]
    assert [m["content"] for m in session.messages if m["role"] == "user"] == ["first", "third"]
    assert len(session.messages) == 4
    adapter = ChatAdapter(client, ChatForm(model="gx-2.5-flash"))
    final = [v async for v in send_message(adapter, defaults, "fourth", view.history, session, "", "")][-1]
    sent = [m["content"] for m in final.exchange.request_body["messages"] if m["role"] == "user"]
    assert sent == ["first", "third", "fourth"]


async def test_editing_an_earlier_message_resends_from_there(client: GatewayClient, defaults: ServerDefaults) -> None:
    history, session = await converse(client, defaults, ["first", "second", "third"])
    adapter = ChatAdapter(client, ChatForm(model="gx-2.5-flash"))
    view = begin_edit(adapter, history, session, 2, "second, edited")
    assert shown_texts(view.history) == shown_texts(history)[:2] + ["second, edited"] and session.ready
    final = [v async for v in run_turn(adapter, defaults, "", "", view.history, session)][-1]
    assert [m["content"] for m in final.exchange.request_body["messages"] if m["role"] == "user"] == ["first", "second, edited"]
    assert 'Your message: "second, edited"' in shown_texts(final.history)[-1]


async def test_edit_to_empty_deletes_and_replies_cannot_be_edited(client: GatewayClient, defaults: ServerDefaults) -> None:
    history, session = await converse(client, defaults, ["first", "second"])
    adapter = ChatAdapter(client, ChatForm(model="gx-2.5-flash"))
    assert "Only your own messages" in begin_edit(adapter, history, session, 1, "rewritten reply").notice
    view = begin_edit(adapter, history, session, 0, "  ")
    assert shown_texts(view.history)[0] == "second" and [m["content"] for m in session.messages if m["role"] == "user"] == ["second"]


async def test_tool_round_turns_delete_as_one(client: GatewayClient, defaults: ServerDefaults) -> None:
    adapter = ChatAdapter(client, ChatForm(model="gx-2.5-flash", tools_json=TOOLS))
    views = [v async for v in send_message(adapter, defaults, "weather in Paris?", [], Session(), "", "")]
    history, session = views[-1].history, views[-1].session
    views = [v async for v in send_tool_result(adapter, defaults, '{"c": 20}', history, session, "", "")]
    history = views[-1].history
    view = delete_turn(history, session, len(history) - 1)
    assert view.history == [] and session.messages == [] and session.pending == []


def test_a_second_send_waits_for_the_reply_on_its_way() -> None:
    session = Session(replying=True)
    view = begin_send(ChatAdapter(None, ChatForm(model="gx-2.5-flash")), "next question", [{"role": "user", "content": "kept"}], session)  # type: ignore[arg-type]
    assert view.notice == english(REPLYING) and not view.error and view.history == [{"role": "user", "content": "kept"}] and not view.clear_draft


async def test_a_failed_call_is_what_the_inspector_shows(client: GatewayClient, defaults: ServerDefaults) -> None:
    _, session = await converse(client, defaults, ["fine"])
    adapter = ChatAdapter(client, ChatForm(model="gx-2.5-flash", stream=False))
    final = [v async for v in send_message(adapter, defaults, "break [[fault:server_error:5]]", [], session, "", "")][-1]
    assert final.exchange is not None and final.exchange.status == 500 and final.exchange.attempts == 3
    assert final.metrics and "3 attempts" in final.metrics


async def test_a_stopped_reply_keeps_its_live_result(client: GatewayClient, defaults: ServerDefaults, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(conversation, "STREAM_UPDATE_INTERVAL", 0.0)
    adapter = ChatAdapter(client, ChatForm(model="gx-2.5-flash"))
    view = begin_send(adapter, "a long story please", [], Session())
    session, updates = view.session, asyncio.Event()

    async def stream() -> None:  # as the streaming event runs it; Stop cancels the task
        async for shown in run_turn(adapter, defaults, "", "", view.history, session):
            if len(flatten_text(shown.history[-1]["content"])) > 20:
                updates.set()

    task = asyncio.create_task(stream())
    await asyncio.wait_for(updates.wait(), 10)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    result, exchange = session.live  # type: ignore[misc]
    assert result.text and exchange is not None and exchange.events and not result.complete
    assert session.messages[-1] == {"role": "assistant", "content": result.text}


async def test_stop_ends_the_stream_from_inside_and_keeps_the_partial(client: GatewayClient, defaults: ServerDefaults, gateway: RunningGateway) -> None:
    from playground.ui.conversation import until_stopped

    gateway.config.token_delay = 0.01
    try:
        adapter = ChatAdapter(client, ChatForm(model="gx-2.5-flash"))
        view = begin_send(adapter, "a long story please", [], Session())
        session, stop, seen = view.session, asyncio.Event(), []
        async for shown in until_stopped(run_turn(adapter, defaults, "", "", view.history, session), stop):
            seen.append(shown)
            if len(seen) == 3:
                stop.set()
        assert len(seen) == 3, "nothing is yielded after Stop"
        assert session.messages[-1]["role"] == "assistant" and session.messages[-1]["content"] and not session.live[0].complete  # type: ignore[index]
    finally:
        gateway.config.token_delay = 0.0


async def test_a_send_checks_its_request_once_and_sends_what_was_checked(client: GatewayClient, defaults: ServerDefaults,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The begin step validates the request (a message that cannot be sent is refused before it is
    shown); the turn sends that request instead of validating the whole conversation again."""
    history, session = await converse(client, defaults, ["first"])
    adapter = ChatAdapter(client, ChatForm(model="gx-2.5-flash"))
    built = []
    build = adapter.build_request
    monkeypatch.setattr(adapter, "build_request", lambda messages: built.append(len(messages)) or build(messages))
    final = [v async for v in send_message(adapter, defaults, "second", history, session, "", "")][-1]
    assert built == [3], f"the request was validated for {built} messages"
    assert [m["content"] for m in final.exchange.request_body["messages"] if m["role"] == "user"] == ["first", "second"]
