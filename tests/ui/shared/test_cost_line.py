"""The metrics line's cost (every tab, Compare) for real demo replies: a messages reply whose
request asks only 1-hour cache breakpoints bills its writes at 2x the input price, a 5-minute one at
1.25x; a model missing from the price table shows "cost —"."""

from __future__ import annotations

import pytest

from playground.client.batch.cost import Price, money
from playground.client.gateway import GatewayClient
from playground.client.messages import MessagesRequest
from playground.client.transport import Connection
from playground.ui.shared.prices import cost_text

MODEL = "cl-sonnet-4-5-20250929"
TABLE = {MODEL: Price(3.0, 15.0, 0.3)}


def _request(kind: str, nonce: str) -> MessagesRequest:
    text = " ".join(f"Fact {i} of note {nonce}: the cache keeps item {i}." for i in range(300))
    return MessagesRequest.build(model=MODEL, max_tokens=64, messages=[{"role": "user", "content": "Which fact is 7?"}],
                                 system=[{"type": "text", "text": text, "cache_control": {"type": kind}}])


@pytest.mark.parametrize(("kind", "premium"), [("persistent", 2.0), ("ephemeral", 1.25)])
async def test_cache_writes_on_the_metrics_line(client: GatewayClient, conn: Connection, kind: str, premium: float) -> None:
    result, exchange = await client.messages.create(conn, _request(kind, f"cost-line-{kind}"))
    usage = result.usage
    assert usage is not None and usage.cache_creation_tokens and usage.input_tokens is not None and usage.output_tokens is not None
    expected = (usage.input_tokens * 3 + usage.cache_creation_tokens * 3 * premium + usage.output_tokens * 15) / 1e6
    assert cost_text(result, exchange, TABLE) == f"cost {money(expected)}"


async def test_an_unpriced_model_shows_a_dash(client: GatewayClient, conn: Connection) -> None:
    result, exchange = await client.messages.create(conn, _request("ephemeral", "cost-line-unpriced"))
    assert cost_text(result, exchange, {"cl-sonnet-4-5": Price(3.0, 15.0)}) == "cost —"
