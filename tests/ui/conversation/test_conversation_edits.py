"""What is shown and what is sent are one state: delete a turn, edit a message, no second send
while a reply is arriving, and a stopped or failed reply keeps its call for the inspector."""

from __future__ import annotations

import asyncio

import pytest

from playground.client.gateway import GatewayClient
from playground.demo_gateway.server import RunningGateway
from playground.ui.conversation import turns as conversation
from playground.ui.tabs.chat.handlers import ChatAdapter, ChatForm
from playground.ui.shared.connection import ServerDefaults
from playground.ui.conversation.turns import REPLYING, Session, delete_turn
from playground.ui.conversation.handlers import REPLYING_PLACEHOLDER
from playground.ui.i18n import english
from playground.ui.shared.render import flatten_text
from tests.conftest import DEMO_KEY
from tests.ui.conversation.conversation_screen import edit, handlers, send, stop, tool_result

TOOLS = '[{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}]'


@pytest.fixture
def defaults(gateway: RunningGateway) -> ServerDefaults:
    return ServerDefaults(gateway.url, DEMO_KEY, demo=True)


async def converse(client: GatewayClient, defaults: ServerDefaults, texts: list[str], **form: object) -> tuple[list, Session]:  # type: ignore[type-arg]
    adapter = ChatAdapter(client, ChatForm(model="gx-2.5-flash", **form))  # type: ignore[arg-type]
    session = Session()
    for text in texts:
        await send(defaults, adapter, text, session)
    return session.shown, session


def shown_texts(history: list) -> list[str]:  # type: ignore[type-arg]
    return [flatten_text(m["content"]) for m in history]


async def test_deleting_a_middle_turn_removes_it_from_what_is_sent(client: GatewayClient, defaults: ServerDefaults) -> None:
    history, session = await converse(client, defaults, ["first", "second", "third"])
    view = delete_turn(history, session, 3)  # the reply to "second"
    assert [t for t in shown_texts(view.history) if "offline demo gateway" not in t] == ["first", "third"]
    assert [m["content"] for m in session.messages if m["role"] == "user"] == ["first", "third"]
    assert len(session.messages) == 4
    adapter = ChatAdapter(client, ChatForm(model="gx-2.5-flash"))
    session.shown = view.history  # as the edit event that deleted it drew the chat
    final = (await send(defaults, adapter, "fourth", session))[-1]
    sent = [m["content"] for m in final.exchange.request_body["messages"] if m["role"] == "user"]
    assert sent == ["first", "third", "fourth"]


async def test_editing_an_earlier_message_resends_from_there(client: GatewayClient, defaults: ServerDefaults) -> None:
    history, session = await converse(client, defaults, ["first", "second", "third"])
    adapter = ChatAdapter(client, ChatForm(model="gx-2.5-flash"))
    earlier = shown_texts(history)
    views = await edit(defaults, adapter, session, 2, "What is 2 + 3?")
    assert shown_texts(views[0].history) == earlier[:2] + ["What is 2 + 3?"] and views[0].placeholder == REPLYING_PLACEHOLDER
    final = views[-1]
    assert [m["content"] for m in final.exchange.request_body["messages"] if m["role"] == "user"] == ["first", "What is 2 + 3?"]
    assert shown_texts(final.history)[-1] == "2 + 3 = 5"


async def test_edit_to_empty_deletes_and_replies_cannot_be_edited(client: GatewayClient, defaults: ServerDefaults) -> None:
    history, session = await converse(client, defaults, ["first", "second"])
    adapter = ChatAdapter(client, ChatForm(model="gx-2.5-flash"))
    refused = await edit(defaults, adapter, session, 1, "rewritten reply")
    assert len(refused) == 1 and "Only your own messages" in refused[0].notice and refused[0].history == history
    views = await edit(defaults, adapter, session, 0, "  ")
    assert len(views) == 1 and "Deleted that turn" in views[0].notice
    assert shown_texts(views[0].history)[0] == "second" and [m["content"] for m in session.messages if m["role"] == "user"] == ["second"]
    assert session.shown == views[0].history, "the next action starts from the chat as drawn"


async def test_tool_round_turns_delete_as_one(client: GatewayClient, defaults: ServerDefaults) -> None:
    adapter = ChatAdapter(client, ChatForm(model="gx-2.5-flash", tools_json=TOOLS))
    session = Session()
    await send(defaults, adapter, "weather in Paris?", session)
    views = await tool_result(defaults, adapter, '{"c": 20}', session)
    history = views[-1].history
    view = delete_turn(history, session, len(history) - 1)
    assert view.history == [] and session.messages == [] and session.pending == []


async def test_a_second_send_waits_for_the_reply_on_its_way(defaults: ServerDefaults) -> None:
    session = Session(replying=True, shown=[{"role": "user", "content": "kept"}])
    views = await send(defaults, ChatAdapter(None, ChatForm(model="gx-2.5-flash")), "next question", session)  # type: ignore[arg-type]
    assert len(views) == 1 and views[0].notice == english(REPLYING) and not views[0].error and not views[0].cleared_draft
    assert not views[0].drew_chat and session.shown == [{"role": "user", "content": "kept"}], "the reply on its way is left alone"


async def test_a_failed_call_is_what_the_inspector_shows(client: GatewayClient, defaults: ServerDefaults) -> None:
    _, session = await converse(client, defaults, ["fine"])
    adapter = ChatAdapter(client, ChatForm(model="gx-2.5-flash", stream=False))
    final = (await send(defaults, adapter, "break [[fault:server_error:5]]", session))[-1]
    assert final.exchange is not None and final.exchange.status == 500 and final.exchange.attempts == 3
    assert final.metrics and "3 attempts" in final.metrics and final.inspector[0], "the inspector shows the failed call"


async def test_a_stopped_reply_keeps_its_live_result(client: GatewayClient, defaults: ServerDefaults, gateway: RunningGateway,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Stop ends the stream from inside the event: nothing is yielded after it, the partial reply
    is recorded to be sent, and the stopped call is what the inspector shows."""
    monkeypatch.setattr(conversation, "STREAM_UPDATE_INTERVAL", 0.0)
    gateway.config.token_delay = 0.01
    try:
        session, seen, worded = Session(), [], asyncio.Event()

        async def sending() -> None:  # as the page runs the event, beside the Stop click
            async for update in handlers(defaults).send("a long story please", session, ChatAdapter(client, ChatForm(model="gx-2.5-flash")),
                                                        None, "", ""):
                seen.append(update)
                if len(seen) > 1 and len(flatten_text(update[0][-1]["content"])) > 20:
                    worded.set()

        task = asyncio.create_task(sending())
        await asyncio.wait_for(worded.wait(), 10)
        stopped = await stop(session)
        count = len(seen)
        await asyncio.wait_for(task, 5)
        assert len(seen) == count, "nothing is yielded after Stop"
    finally:
        gateway.config.token_delay = 0.0
    assert session.live is not None
    result, exchange = session.live.result, session.live.exchange
    assert result.text and exchange is not None and exchange.events and not result.complete
    assert session.messages[-1] == {"role": "assistant", "content": result.text}
    assert flatten_text(stopped["chatbot"][-1]["content"]) == result.text and stopped["inspector"][1]


async def test_a_send_checks_its_request_once_and_sends_what_was_checked(client: GatewayClient, defaults: ServerDefaults,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The begin step validates the request (a message that cannot be sent is refused before it is
    shown); the turn sends that request instead of validating the whole conversation again."""
    _, session = await converse(client, defaults, ["first"])
    adapter = ChatAdapter(client, ChatForm(model="gx-2.5-flash"))
    built = []
    build = adapter.build_request
    monkeypatch.setattr(adapter, "build_request", lambda messages: built.append(len(messages)) or build(messages))
    final = (await send(defaults, adapter, "second", session))[-1]
    assert built == [3], f"the request was validated for {built} messages"
    assert [m["content"] for m in final.exchange.request_body["messages"] if m["role"] == "user"] == ["first", "second"]
