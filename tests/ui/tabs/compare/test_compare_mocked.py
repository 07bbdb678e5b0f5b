"""Mocked tools on the Compare tab, as the page runs them (`handlers.begin`, `mocked.offer_mocks`,
`CompareHandlers`): columns that offer the example mock get the model's call answered by it in each
format and show the call, the answer and the final answer that uses it; a column that does not
offer them sends no tools; a Send whose columns offer mocks that are not there is stopped."""

from __future__ import annotations

import json

from playground.client.gateway import GatewayClient
from playground.ui.shared.connection import ServerDefaults
from playground.ui.shared.prices import SessionPrices
from playground.ui.tabs.compare import handlers, mocked
from playground.ui.tabs.compare.handlers import PRESETS, CompareState

COLUMNS = [value for pair in PRESETS["One model family through all four formats"] for value in pair]
SHARED = ("", "What is the weather in Paris?", None, 0.3, 0, False, 2048, True)


async def test_the_columns_offering_the_mock_get_their_calls_answered(client: GatewayClient, defaults: ServerDefaults) -> None:
    wired, state = handlers.CompareHandlers(client, defaults, SessionPrices()), CompareState()
    await handlers.begin(state, *SHARED, *COLUMNS)
    assert mocked.offer_mocks(state, mocked.example_tools(), True, True, True, False)["__type__"] == "update" and state.ready
    chats = [update async for update in wired.stream(state, "", "", *COLUMNS)]
    for index in range(3):
        shown = json.dumps(chats[-1][index], ensure_ascii=False)
        assert "Tool result of `get_weather`" in shown and '\\"city\\": \\"Paris\\"' in shown, (index, shown)
        assert "18 °C" in chats[-1][index][-1]["content"], (index, chats[-1][index][-1])
        assert state.runs[index].exchange is not None and "get_weather" in json.dumps(state.runs[index].exchange.request_body)
    assert "tools" not in state.runs[3].exchange.request_body and "Tool result" not in json.dumps(chats[-1][3])
    ends = await wired.ended(state, 1, 2, *COLUMNS)
    assert all("ms" in line for line in ends[:4])


async def test_offering_mocks_that_are_not_declared_stops_the_send(client: GatewayClient, defaults: ServerDefaults) -> None:
    state = CompareState()
    await handlers.begin(state, *SHARED, *COLUMNS)
    banner = mocked.offer_mocks(state, "", True, False, False, False)
    assert banner["visible"] is True and "none are declared" in banner["value"] and not state.ready
    await handlers.begin(state, *SHARED, *COLUMNS)
    banner = mocked.offer_mocks(state, '[{"name": "x"}]', False, False, False, False)
    assert "tool 1: mock.kind" in banner["value"] and not state.ready
    assert [u async for u in handlers.CompareHandlers(client, defaults, SessionPrices()).stream(state, "", "", *COLUMNS)] == []
