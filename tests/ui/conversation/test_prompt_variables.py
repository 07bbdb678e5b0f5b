"""`{{name}}` placeholders in the system prompt / instructions of the Chat, Responses, Messages and
Native tabs: the Variables panel lists them with the message's, a missing value is named and
nothing is sent, and what is sent (and shown in the inspector) is the filled text. Driven through
the real app's wired handlers against the demo gateway on a real socket."""

from __future__ import annotations

from typing import Any

import pytest

from playground.demo_gateway.server import RunningGateway
from playground.settings import Settings
from playground.ui.app import build_app
from playground.ui.shared.connection import ServerDefaults
from playground.ui.shared.render import flatten_text
from tests.conftest import DEMO_KEY
from tests.ui.page_model import PageModel

SYSTEM_BOX = {"chat": "chat-system", "responses": "responses-instructions", "messages": "messages-system", "native": "native-system"}
BOX_LABEL = {"chat": "System prompt", "responses": "Instructions (system)", "messages": "System prompt", "native": "System instruction"}


def _variables_event(page: PageModel, tab: str) -> Any:
    """The panel's server event: it runs when the page's key of the placeholders changes (`draft_keys`)."""
    return page.dependency(page.component(f"{tab}-variables-key"), "change")


@pytest.mark.parametrize("tab", list(SYSTEM_BOX))
async def test_system_prompt_placeholders_are_named_then_filled_in_what_is_sent(tab: str, gateway: RunningGateway) -> None:
    page = PageModel(build_app(Settings(read_timeout=10), ServerDefaults(gateway.url, DEMO_KEY, demo=True)))
    system, draft, table = page.component(SYSTEM_BOX[tab]), page.component(f"{tab}-input"), page.component(f"{tab}-variables-table")
    page.set(system, "You are {{persona}}. Greet {{name}}.")
    page.set(draft, {"text": "Hi, I am {{name}}", "files": []})
    await page.run(_variables_event(page, tab))
    assert page.get(table) == [["name", ""], ["persona", ""]]  # one table for the message and the system prompt

    page.set(table, [["name", "Ada"], ["persona", ""]])
    await page.run(page.dependency(draft, "submit"))
    assert f"no value for {{{{persona}}}} in the “{BOX_LABEL[tab]}” box" in page.get(page.component(f"{tab}-error"))
    assert page.get(page.component(f"{tab}-chatbot")) == [] and not page.get(page.component(f"{tab}-inspector-request"))
    session = page.dependency(draft, "submit").inputs[1]
    assert page.get(session).typed == "Hi, I am {{name}}"  # refused, yet the last message typed (the page's Variables key counts on it)

    page.set(table, [["name", "Ada"], ["persona", "a pirate"]])
    await page.run(page.dependency(draft, "submit"))
    sent = page.get(page.component(f"{tab}-inspector-request"))
    assert "You are a pirate. Greet Ada." in sent and "{{" not in sent and "Hi, I am Ada" in sent
    history = page.get(page.component(f"{tab}-chatbot"))
    assert flatten_text(history[0]["content"]) == "Hi, I am Ada" and len(history) >= 2
    assert page.get(system) == "You are {{persona}}. Greet {{name}}."  # the template stays for the next turn


async def test_the_messages_token_count_counts_the_filled_system_prompt(gateway: RunningGateway) -> None:
    page = PageModel(build_app(Settings(read_timeout=10), ServerDefaults(gateway.url, DEMO_KEY, demo=True)))
    count = page.component("messages-token-count")
    event = next(fn for fn in page.app.fns.values() if count in fn.outputs)
    page.set(page.component("messages-system"), "You are {{persona}}.")
    page.set(page.component("messages-input"), {"text": "Hi", "files": []})
    page.set(page.component("messages-variables-table"), [["persona", ""]])
    await page.run(event)
    assert page.get(count).startswith("Token count: fill in the Variables panel")
    page.set(page.component("messages-variables-table"), [["persona", "a pirate"]])
    await page.run(event)
    short = page.get(count)
    page.set(page.component("messages-variables-table"), [["persona", "a pirate who sails the seven seas every single day"]])
    await page.run(event)
    assert "input tokens in the request Send would make now" in short and short != page.get(count)  # the filled text is counted
