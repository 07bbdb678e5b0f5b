"""The Responses tab's own event and extra, called as the page runs them: the chain box and the
line after each turn say how the next turn is sent."""

from __future__ import annotations

from types import SimpleNamespace

from playground.ui.conversation.turns import Session
from playground.ui.i18n import say
from playground.ui.tabs.responses import handlers


def test_the_chain_line_says_how_the_next_turn_is_sent() -> None:
    assert handlers.chain_changed(False, Session()) == say("responses.chain_stateless")
    assert handlers.chain_changed(True, Session()) == say("responses.chain_new")
    assert handlers.chain_line(SimpleNamespace(session=Session(), done=False, result=None), None) == \
        (say("responses.chain_stateless"), {"__type__": "update"}), "the verdict line waits for the turn's end"
