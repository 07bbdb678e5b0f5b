"""The property behind "what is shown is what is sent": over random sequences of send, edit,
delete, retry, Stop, empty send, tool result, clear, load a saved session, example clicks and a
reload (the conversation the browser kept, read back into a fresh page session),
the chatbot and the request the next send would build hold the same turns after every step.

A seeded random walk drives each conversation tab's real wired handlers (through `PageModel`,
which applies outputs as Gradio does) against a demo gateway on a real socket that streams
slowly enough for Stop to land mid-reply. A failure prints the seed and the steps."""

from __future__ import annotations

import dataclasses
import json
import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import gradio as gr
import pytest

from playground.client.errors import GatewayError
from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.server import RunningGateway, start_in_thread
from playground.settings import Settings
from playground.ui.app import build_app
from playground.ui.conversation import handlers as conversation_handlers
from playground.ui.tabs.chat.handlers import ChatAdapter, ChatForm
from playground.ui.shared.connection import ServerDefaults
from playground.ui.conversation.turns import TOOL_RESULT_MARK, Session
from playground.ui.tabs.messages.handlers import MessagesAdapter, MessagesForm
from playground.ui.tabs.native.handlers import NativeAdapter, NativeForm
from playground.ui.shared.render import THINKING_TITLE, flatten_text
from playground.ui.tabs.responses.handlers import ResponsesAdapter, ResponsesForm, chained_from
from tests.ui.page_model import PageModel

KEY = "sk-walk-key-123456"
ADAPTERS = {"chat": (ChatAdapter, ChatForm), "responses": (ResponsesAdapter, ResponsesForm),
            "messages": (MessagesAdapter, MessagesForm), "native": (NativeAdapter, NativeForm)}
SEEDS = {"chat": (1, 2), "responses": (4, 5), "messages": (6,), "native": (8,)}
MORE_SEEDS = int(os.environ.get("SHOWN_IS_SENT_WALKS", "0"))
"""Extra walks per tab for a deeper run: `SHOWN_IS_SENT_WALKS=30 python -m pytest tests/ui/test_shown_is_sent_property.py`."""
STEPS = 22
WORDS = ("apple", "birch", "cedar", "delta", "ember", "fjord", "grove", "harbor", "indigo", "juniper")


@pytest.fixture(scope="module")
def slow_gateway() -> Iterator[RunningGateway]:
    running = start_in_thread(DemoConfig(api_key=KEY, token_delay=0.002))
    yield running
    running.stop()


def shown_turns(history: list[dict[str, Any]]) -> list[str]:
    """U:<text> per message the person typed, T per tool result, A per reply (runs merged); a
    thinking section alone or an empty bubble is not a reply."""
    turns: list[str] = []
    for message in history or []:
        text = flatten_text(message.get("content"))
        title = (message.get("metadata") or {}).get("title") or ""
        if message.get("role") == "user":
            turns.append("T" if text.startswith(TOOL_RESULT_MARK) else f"U:{text}")
        elif title != THINKING_TITLE and (text.strip() or title or _has_file(message)):
            turns.append("A")
    return _merged(turns)


def _has_file(message: dict[str, Any]) -> bool:
    content = message.get("content")
    return isinstance(content, list) and any(isinstance(part, dict) and (part.get("path") or part.get("file")) for part in content)


def _merged(turns: list[str]) -> list[str]:
    return [turn for index, turn in enumerate(turns) if turn.startswith("U:") or index == 0 or turns[index - 1] != turn]


def _user_text(content: Any) -> str | None:
    """The typed text of a user message in any format; None for a tool result."""
    if isinstance(content, str):
        return content
    parts = content if isinstance(content, list) else []
    if any(isinstance(p, dict) and (p.get("type") in ("tool_result", "function_call_output") or "functionResponse" in p) for p in parts):
        return None
    return "".join(str(p.get("text", "")) for p in parts if isinstance(p, dict))


def sent_turns(body: dict[str, Any]) -> list[str]:
    """The same markers from a request body of any of the four formats."""
    turns: list[str] = []
    items = body.get("messages") or body.get("contents") or body.get("input") or []
    for item in [{"role": "user", "content": items}] if isinstance(items, str) else items:
        role, kind = item.get("role"), item.get("type")
        if role == "system":
            continue
        if role == "tool" or kind == "function_call_output":
            turns.append("T")
        elif role in ("assistant", "model") or kind in ("function_call", "reasoning", "message"):
            turns.append("A")
        elif role == "user":
            text = _user_text(item.get("content", item.get("parts")))
            turns.append("T" if text is None else f"U:{text}")
    return _merged(turns)


def next_request(page: PageModel, tab: str) -> dict[str, Any]:
    """The body the next send would carry (before its new message), built by the tab's adapter
    from the form on the page and the session, as a send builds it."""
    adapter_class, form_class = ADAPTERS[tab]
    send = page.dependency(page.component(f"{tab}-input"), "submit")
    at = next(i for i, c in enumerate(send.inputs) if isinstance(c, gr.State))  # draft, chatbot, session, *form, variables, url, key
    form = [page.get(c) for c in send.inputs[at + 1:-3]]
    session: Session = page.get(send.inputs[at])
    form_values = form_class(*form)
    if isinstance(form_values, ResponsesForm) and form_values.chain:
        # chained, the gateway holds the turns up to the last response: compare the whole
        # conversation (the chained request is the tail of it, after `previous_response_id`)
        previous, _ = chained_from(session.messages)
        assert previous is None or any(m.get("_response_id") == previous for m in session.messages)
        form_values = dataclasses.replace(form_values, chain=False)
    adapter = adapter_class(None, form_values)
    probe = adapter.user_message("probe", [])
    try:
        request = adapter.build_request([*session.messages, probe])
    except GatewayError:  # e.g. a tool call waits for its result: the request as it stands
        request = adapter.build_request(list(session.messages))
    return request.to_body()


class Walk:
    def __init__(self, page: PageModel, tab: str, rng: random.Random, tmp: Path) -> None:
        self.page, self.tab, self.rng, self.tmp = page, tab, rng, tmp
        self.saved: list[str] = []
        self.log: list[str] = []
        self.chatbot = page.component(f"{tab}-chatbot")
        self.draft = page.component(f"{tab}-input")
        self.session_state = next(c for c in page.dependency(self.draft, "submit").inputs if isinstance(c, gr.State))

    def history(self) -> list[dict[str, Any]]:
        return self.page.get(self.chatbot) or []

    async def send(self, text: str, stop: bool = False) -> None:
        self.page.set(self.draft, {"text": text, "files": []})
        await self.page.run(self.page.dependency(self.draft, "submit"), during_stream=self.stop if stop else None)

    async def stop(self) -> None:
        await self.page.click(f"{self.tab}-stop")

    async def step(self) -> None:
        rng, history = self.rng, self.history()
        word = rng.choice(WORDS) + str(rng.randint(0, 99))
        action = rng.choice(["send", "send", "send_stop", "edit", "delete", "retry", "retry_stop", "stop", "empty",
                             "tool", "clear", "trash", "save", "load", "example", "example_send", "reload"])
        self.log.append(action)
        if action == "send":
            await self.send(f"{word} please" if rng.random() < 0.7 else f"tell me a long story about {word}")
        elif action == "send_stop":
            await self.send(f"tell me a long story about {word}", stop=True)
        elif action == "empty":
            await self.send(rng.choice(["", "   "]))
        elif action in ("edit", "delete") and history:
            index = rng.randrange(len(history))
            text = "" if action == "delete" else f"{word} edited"
            self.log[-1] += f"@{index}"
            data = gr.EditData(None, {"index": index, "value": text, "previous_value": flatten_text(history[index].get("content"))})
            await self.page.run(self.page.dependency(self.chatbot, "edit"), event_data=data)
        elif action in ("retry", "retry_stop"):
            await self.page.click(f"{self.tab}-retry", during_stream=self.stop if action == "retry_stop" else None)
        elif action == "stop":
            await self.stop()
        elif action == "tool":
            self.page.set(self.page.component(f"{self.tab}-tool-result"), rng.choice(['{"temperature_c": 21}', "sunny", " "]))
            await self.page.click(f"{self.tab}-tool-send")
        elif action == "clear":
            await self.page.click(f"{self.tab}-clear")
        elif action == "trash":  # the browser empties the chatbot itself, then fires the event
            self.page.set(self.chatbot, [])
            await self.page.run(self.page.dependency(self.chatbot, "clear"))
        elif action == "save":
            await self.page.click(f"{self.tab}-session-save")
            saved = self.page.get(self.page.component(f"{self.tab}-session-download"))
            if saved:
                self.saved.append(str(saved))
        elif action == "load" and self.saved:
            self.page.set(self.page.component(f"{self.tab}-session-load"), rng.choice(self.saved))
            await self.page.run(self.page.dependency(self.page.component(f"{self.tab}-session-load"), "upload"))
        elif action == "reload":
            await self.reload()
        elif action in ("example", "example_send"):
            count = sum(1 for elem_id in self.page.blocks if elem_id.startswith(f"{self.tab}-example-") and elem_id[-1].isdigit())
            await self.page.click(f"{self.tab}-example-{rng.randrange(count)}")
            if action == "example_send":
                await self.page.run(self.page.dependency(self.draft, "submit"))

    async def reload(self) -> None:
        """A reload: a fresh page session (empty chat and session) reading what the browser kept on load."""
        keeper = next(fn for fn in self.page.app.fns.values() if fn.name == "restore" and getattr(fn.fn, "__self__", None) is not None
                      and getattr(fn.fn.__self__, "tab", None) == self.tab)
        kept = json.loads(json.dumps(self.page.get(keeper.inputs[0])))  # as the browser's storage holds it
        self.page.set(self.chatbot, [])
        self.page.set(self.session_state, Session())
        self.page.set(keeper.inputs[0], kept)
        await self.page.run(keeper)

    def check(self) -> None:
        shown = shown_turns(self.history())
        sent = sent_turns(next_request(self.page, self.tab))
        sent = sent[:-1] if sent and sent[-1] == "U:probe" else sent
        assert shown == sent, f"after {' '.join(self.log)}:\nshown {shown}\nsent  {sent}"


async def walk_seeds(tab: str, seeds: tuple[int, ...], gateway: RunningGateway, tmp_path: Path) -> None:
    for seed in seeds:
        app = build_app(Settings(read_timeout=10), ServerDefaults(gateway.url, KEY, demo=True))
        walk = Walk(PageModel(app), tab, random.Random(seed), tmp_path)
        for _ in range(STEPS):
            await walk.step()
            try:
                walk.check()
            except AssertionError as failure:
                raise AssertionError(f"{tab} seed {seed}: {failure}") from None


@pytest.mark.parametrize("tab", list(ADAPTERS))
async def test_what_is_shown_is_what_the_next_request_sends(tab: str, slow_gateway: RunningGateway, tmp_path: Path) -> None:
    await walk_seeds(tab, (*SEEDS[tab], *range(100, 100 + MORE_SEEDS)), slow_gateway, tmp_path)


@pytest.mark.parametrize("tab", list(ADAPTERS))
async def test_a_reply_slow_to_end_after_stop_is_kept_as_it_is_shown(tab: str, slow_gateway: RunningGateway, tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """On a machine too busy for the stopped reply to end within Stop's wait (none here), Stop
    keeps the reply as it shows it, and the turn ending later changes neither."""
    monkeypatch.setattr(conversation_handlers, "STOP_SETTLE_S", 0.0)
    await walk_seeds(tab, SEEDS[tab][:1], slow_gateway, tmp_path)
