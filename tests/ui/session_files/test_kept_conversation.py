"""A conversation tab's conversation kept in the browser (`session_files.kept`): written after every event
that can change it, from the server's state; read back on the page's load (a reload, or the app restarted on
the same data folder) as a session file is read, so the chat shows it again and the next request carries it;
a tampered, foreign or empty value restores nothing; a conversation too long to keep says so; no key and no
setting is ever kept. Driven through the real page's events (`PageModel`) against the demo gateway."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import gradio as gr
import pytest

from playground.demo_gateway.server import RunningGateway
from playground.settings import Settings
from playground.ui.app import build_app
from playground.ui.conversation.turns import Session
from playground.ui.session_files import kept
from playground.ui.session_files.kept import EMPTY, KeptConversation
from playground.ui.shared.connection import ServerDefaults
from tests.conftest import DEMO_KEY
from tests.ui.page_model import PageModel

TABS = ("chat", "responses", "messages", "native")


def _page(gateway: RunningGateway, data_dir: Path) -> PageModel:
    return PageModel(build_app(Settings(read_timeout=10, data_dir=data_dir), ServerDefaults(gateway.url, DEMO_KEY, demo=True)))


def _kept_of(page: PageModel, tab: str) -> KeptConversation:
    return next(fn.fn.__self__ for fn in page.app.fns.values()
                if getattr(fn.fn, "__func__", None) is KeptConversation.restore and fn.fn.__self__.tab == tab)


def _store(page: PageModel, tab: str) -> Any:
    return _kept_of(page, tab).saved


async def _send(page: PageModel, tab: str, text: str) -> None:
    draft = page.component(f"{tab}-input")
    page.set(draft, {"text": text, "files": []})
    await page.run(page.dependency(draft, "submit"))


async def _reloaded(page: PageModel, tab: str, stored: Any) -> None:
    """The page's load with `stored` in the browser's store (what a reload reads)."""
    page.set(_store(page, tab), stored)
    await page.run(next(fn for fn in page.app.fns.values() if getattr(fn.fn, "__self__", None) is _kept_of(page, tab)
                        and fn.name == "restore"))


@pytest.mark.parametrize("tab", TABS)
async def test_a_reloaded_or_restarted_page_shows_the_conversation_and_the_next_request_carries_it(
        tab: str, gateway: RunningGateway, tmp_path: Path) -> None:
    before = _page(gateway, tmp_path)
    await _send(before, tab, "What is the capital of France?")
    stored = json.loads(json.dumps(before.get(_store(before, tab))))  # as the browser keeps it
    shown = before.get(before.component(f"{tab}-chatbot"))
    assert len(shown) >= 2 and "Paris" in json.dumps(shown), shown
    assert stored["form"] == {} and DEMO_KEY not in json.dumps(stored), "no setting and no key is kept"

    after = _page(gateway, tmp_path)  # a new build on the same data folder: a restart (a reload builds nothing new)
    await _reloaded(after, tab, stored)
    assert after.get(after.component(f"{tab}-chatbot")) == shown
    session: Session = after.get(_kept_of(after, tab).panel.session)
    assert session.messages == before.get(_kept_of(before, tab).panel.session).messages
    await _send(after, tab, "And of Peru?")
    sent = after.get(_kept_of(after, tab).panel.session).messages
    assert len(sent) == 4 and "France" in json.dumps(sent[0]) and "Peru" in json.dumps(sent[2]), "the next request carried the kept turns"


async def test_every_event_that_writes_a_conversation_is_followed_by_keeping_it(gateway: RunningGateway, tmp_path: Path) -> None:
    page = _page(gateway, tmp_path)
    for tab in TABS:
        keeper = _kept_of(page, tab)
        writers = [fn for fn in page.app.fns.values() if keeper.panel.session in fn.outputs and getattr(fn.fn, "__self__", None) is not keeper]
        assert len(writers) >= 10, tab  # send, tool result, retry, edit, clear, the chat's own clear, branch, switch, a session file, curl
        for writer in writers:
            after = [fn for fn in page.app.fns.values() if fn.trigger_after == writer._id and getattr(fn.fn, "__self__", None) is keeper]
            assert len(after) == 1 and after[0].inputs == [keeper.panel.session], f"{tab}: {writer.name} is not kept"


async def test_clear_keeps_nothing_and_a_reload_then_shows_an_empty_chat(gateway: RunningGateway, tmp_path: Path) -> None:
    page = _page(gateway, tmp_path)
    await _send(page, "chat", "What is the capital of France?")
    assert page.get(_store(page, "chat"))["conversation"]["shown"]
    await page.click("chat-clear")
    assert page.get(_store(page, "chat")) == EMPTY
    fresh = _page(gateway, tmp_path)
    await _reloaded(fresh, "chat", EMPTY)
    assert fresh.get(fresh.component("chat-chatbot")) == []


@pytest.mark.parametrize("stored", [
    None, "text", {"kept": "nothing"}, {"format": "something else", "conversation": {"shown": [], "sent": []}},
    {"format": "gateway-playground-session", "version": 2, "tab": "messages", "form": {}, "conversation": {"shown": [], "sent": []}},
    {"format": "gateway-playground-session", "version": 2, "tab": "chat", "form": {},
     "conversation": {"shown": [{"role": "user", "content": [{"path": "/etc/passwd"}]}], "sent": []}},
    {"format": "gateway-playground-session", "version": 2, "tab": "chat", "form": {}, "conversation": {"shown": "no", "sent": []}},
])
async def test_a_value_that_does_not_read_as_a_kept_conversation_restores_nothing(stored: Any, gateway: RunningGateway, tmp_path: Path) -> None:
    page = _page(gateway, tmp_path)
    await _reloaded(page, "chat", stored)
    assert page.get(page.component("chat-chatbot")) == [] and page.get(_kept_of(page, "chat").panel.session).messages == []


async def test_a_conversation_too_long_to_keep_is_said_once_it_is_and_keeps_nothing(
        gateway: RunningGateway, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kept, "MAX_KEPT_CHARS", 2_000)
    page = _page(gateway, tmp_path)
    await _send(page, "chat", "What is the capital of France?")
    assert page.get(_store(page, "chat")) != EMPTY and page.get(page.component("chat-notice")) in ("", None, gr.skip())
    await _send(page, "chat", "Tell me about " + "the sea " * 300)
    assert page.get(_store(page, "chat")) == EMPTY
    assert "too long to keep in this browser" in json.dumps(page.get(page.component("chat-notice")))


async def test_nothing_is_kept_while_a_reply_arrives(gateway: RunningGateway, tmp_path: Path) -> None:
    """A second send while a reply streams is answered with a note at once; the conversation is kept when the reply ends."""
    page = _page(gateway, tmp_path)
    keeper = _kept_of(page, "chat")
    assert keeper.kept(Session(shown=[{"role": "user", "content": "hi"}], replying=True)) == (gr.skip(), gr.skip())
    document, _ = keeper.kept(Session(shown=[{"role": "user", "content": "hi"}]))
    assert document["conversation"]["shown"] == [{"role": "user", "content": "hi"}]
