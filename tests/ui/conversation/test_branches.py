"""Conversation branches: create from an earlier message, switch, and keep them in session files;
each branch sends only its own line of the conversation (checked on the wire)."""

from __future__ import annotations

import json

from playground.client.gateway import GatewayClient
from playground.ui.conversation.branches import branch_choices, branch_from, switch_branch
from playground.ui.tabs.chat.handlers import ChatAdapter, ChatForm
from playground.ui.shared.connection import ServerDefaults
from playground.ui.session_files.panel import read_session_document, session_document
from tests.ui.conversation.conversation_screen import send
from tests.ui.conversation.test_conversation_edits import converse, shown_texts


async def test_branch_create_switch_save_load(client: GatewayClient, defaults: ServerDefaults) -> None:
    history, session = await converse(client, defaults, ["first", "second", "third"])
    assert branch_from(history, session, None).notice  # nothing clicked yet
    view = branch_from(history, session, 1)  # the reply to "first"
    assert shown_texts(view.history)[0] == "first" and len(view.history) == 2 and "branch 2" in view.notice
    assert [m["content"] for m in session.messages if m["role"] == "user"] == ["first"]
    adapter = ChatAdapter(client, ChatForm(model="gx-2.5-flash"))
    session.shown = view.history  # as the branch button drew it
    final = (await send(defaults, adapter, "another way", session))[-1]
    sent = [m["content"] for m in final.exchange.request_body["messages"] if m["role"] == "user"]
    assert sent == ["first", "another way"]
    labels = [label for label, _ in branch_choices(final.session)]
    assert len(labels) == 2 and "last sent: third" in labels[0] and "last sent: first" in labels[1]

    back = switch_branch(final.history, final.session, 0)
    assert [t for t in shown_texts(back.history) if "offline demo gateway" not in t] == ["first", "second", "third"]
    assert [m["content"] for m in back.session.messages if m["role"] == "user"] == ["first", "second", "third"]
    assert "last sent: another way" in branch_choices(back.session)[1][0]

    document = session_document("chat", {"model": "gx-2.5-flash"}, back.history, back.session)
    _, shown, loaded = read_session_document(json.dumps(document).encode(), "chat", ["model"])
    assert loaded.branch == 0 and len(loaded.branches) == 2 and shown_texts(shown) == shown_texts(back.history)
    again = switch_branch(shown, loaded, 1)
    assert shown_texts(again.history)[-2] == "another way"
    assert [m["content"] for m in again.session.messages if m["role"] == "user"] == ["first", "another way"]


def test_a_file_with_broken_branches_is_refused() -> None:
    document = session_document("chat", {}, [], None)
    document["branches"] = {"all": [{"shown": "not a list", "sent": []}], "current": 0}
    try:
        read_session_document(json.dumps(document).encode(), "chat", [])
    except Exception as error:
        assert "branches" in str(getattr(error, "user_message", error))
    else:
        raise AssertionError("a broken branch list was accepted")
