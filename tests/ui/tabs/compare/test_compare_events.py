"""The Compare tab's events, called as the page runs them (`handlers.begin` and
`handlers.CompareHandlers`): Send checked and begun, every column streamed, what the run ends
with, the word diff re-picked, and Stop before and after a run."""

from __future__ import annotations

from typing import Any

from playground.client.gateway import GatewayClient
from playground.ui.i18n import say
from playground.ui.shared.connection import ServerDefaults
from playground.ui.shared.prices import SessionPrices
from playground.ui.tabs.compare import handlers
from playground.ui.tabs.compare.handlers import PRESETS, CompareState

COLUMNS = [value for pair in PRESETS["One model family through all four formats"] for value in pair]
"""The picker's values as the page sends them: format and model of each column, interleaved."""
SHARED = ("Be brief.", "why is the sky blue?", None, 0.3, 0, False, 2048, True)
"""system, message, image, temperature, max tokens, thinking, budget, stream."""


def skipped(value: Any) -> bool:
    return isinstance(value, dict) and value.get("__type__") == "update" and len(value) == 1


async def test_send_streams_every_column_and_ends_with_metrics_diff_and_exports(client: GatewayClient, defaults: ServerDefaults) -> None:
    wired, state = handlers.CompareHandlers(client, defaults, SessionPrices()), CompareState()
    assert all(skipped(v) for v in await wired.stopped(state, 1, 2, *COLUMNS)) and len(await wired.ended(state, 1, 2, *COLUMNS)) == handlers.ENDS
    assert (await handlers.begin(state, *SHARED, *COLUMNS))["visible"] is False and state.ready and state.intent is not None
    chats = [update async for update in wired.stream(state, "", "", *COLUMNS)]
    assert chats and len(chats[-1]) == 4 and all(chat for chat in chats[-1]) and not state.ready
    assert [update async for update in wired.stream(state, "", "", *COLUMNS)] == [], "a Send runs once"
    ends = await wired.ended(state, 1, 2, *COLUMNS)
    assert len(ends) == handlers.ENDS and all("ms" in line for line in ends[:4]) and "★" in ends[4]
    assert ends[-3] == handlers.word_diff(state.runs[0].result.text, state.runs[1].result.text)
    assert wired.diff_picked(state, 1, 3, *COLUMNS) == handlers.word_diff(state.runs[0].result.text, state.runs[2].result.text)
    blank = [*COLUMNS[:4], "", "", *COLUMNS[6:]]
    assert wired.diff_picked(state, 1, 3, *blank) == say("cmp.pick_two")
    stopped = await wired.stopped(state, 1, 2, *COLUMNS)
    assert len(stopped) == handlers.ENDS and stopped[:5] == ends[:5] and not state.ready


async def test_a_refused_send_says_why_and_runs_nothing(client: GatewayClient, defaults: ServerDefaults) -> None:
    state = CompareState()
    banner = await handlers.begin(state, "", "   ", None, 0.7, 0, False, 2048, True, *COLUMNS)
    assert banner["visible"] is True and "type a message first" in banner["value"] and not state.ready
    banner = await handlers.begin(state, "", "hi", None, 0.7, 0, False, 2048, True, *([""] * 8))
    assert banner["visible"] is True and not state.ready
    assert [u async for u in handlers.CompareHandlers(client, defaults, SessionPrices()).stream(state, "", "", *COLUMNS)] == []
