"""The Messages tab's own events and extras, called as the page runs them: the live token count
(`MessagesHandlers.count_tokens`, placeholders filled from the Variables panel first), the cache
report after a turn, and a form imported from curl."""

from __future__ import annotations

import json
from dataclasses import astuple, fields
from types import SimpleNamespace

from playground.client.curl_import import parse_curl
from playground.client.gateway import GatewayClient
from playground.demo_gateway.server import RunningGateway
from playground.ui.conversation.turns import Session
from playground.ui.shared.connection import ServerDefaults
from playground.ui.tabs.messages import handlers
from playground.ui.tabs.messages.handlers import MessagesForm
from tests.conftest import DEMO_KEY

MODEL = "cl-sonnet-4-5-20250929"
SYSTEM_AT = [item.name for item in fields(MessagesForm)].index("system")


async def test_the_count_fills_the_placeholders_first(client: GatewayClient, gateway: RunningGateway) -> None:
    counting = handlers.MessagesHandlers(client, ServerDefaults(gateway.url, DEMO_KEY, demo=True), SYSTEM_AT)
    form = astuple(MessagesForm(model=MODEL, system="be brief"))
    counted = await counting.count_tokens({"text": "one two three", "files": []}, Session(), None, "", "", *form)
    assert "**5** input tokens" in counted
    unfilled = await counting.count_tokens({"text": "hello {{name}}", "files": []}, Session(), None, "", "", *form)
    assert "fill in the Variables panel" in unfilled


def test_the_cache_report_follows_the_turns() -> None:
    assert handlers.lab_report(SimpleNamespace(done=False, history=[]), None) == (handlers.cache_report("", []),)
    kept = handlers.lab_report(SimpleNamespace(done=False, history=[{"role": "user", "content": "hi"}]), None)
    assert len(kept) == 1 and kept[0] == {"__type__": "update"}


def test_a_curl_command_fills_the_form_and_the_conversation() -> None:
    turns = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}, {"role": "user", "content": "again"}]
    body = json.dumps({"model": MODEL, "max_tokens": 64, "messages": turns})
    values = handlers.form_from_curl(parse_curl(f"curl https://gw/v1/messages -H 'x-api-key: k' -d '{body}'"))
    *form, draft, history, session, metrics = values
    assert metrics == ""  # the last reply's figures are not this conversation's
    assert MessagesForm(*form).model == MODEL and draft["text"] == "again" and len(history) == 2 and len(session.messages) == 2
