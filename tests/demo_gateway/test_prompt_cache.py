"""Prompt caching on the demo gateway: creation, hit, expiry, exact-prefix match, minimums.

The gateway runs with a fake clock so lifetimes (5 minutes, 1 hour) pass instantly.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from playground.client.gateway import GatewayClient
from playground.client.messages import MessagesRequest
from playground.client.responses import ResponsesRequest
from playground.client.results import Usage
from playground.client.transport import Connection, Transport
from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.server import RunningGateway, start_in_thread
from tests.fakes import FakeClock

SONNET, HAIKU = "cl-sonnet-4-5-20250929", "cl-haiku-4-5-20251001"


@pytest.fixture(scope="module")
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(scope="module")
def cache_gateway(clock: FakeClock) -> Iterator[RunningGateway]:
    running = start_in_thread(DemoConfig(api_key="k", clock=clock))
    yield running
    running.stop()


@pytest.fixture
async def send(cache_gateway: RunningGateway) -> AsyncIterator[Any]:
    client = GatewayClient(Transport())
    conn = Connection(cache_gateway.url, "k")

    async def send_one(system_words: int, *, model: str = SONNET, ttl: str = "ephemeral", question: str = "q", top_level: bool = False, salt: str = "") -> Usage:
        system = salt + " ".join(f"word{i}" for i in range(system_words))
        fields: dict[str, Any] = {"model": model, "max_tokens": 50, "messages": [{"role": "user", "content": question}]}
        if top_level:
            fields |= {"system": system, "cache_control": {"type": ttl}}
        else:
            fields["system"] = [{"type": "text", "text": system, "cache_control": {"type": ttl}}]
        result, _ = await client.messages.create(conn, MessagesRequest.build(**fields))
        return result.usage

    yield send_one
    await client.aclose()


async def test_first_request_creates_then_identical_prefix_reads(send: Any) -> None:
    first = await send(1500, salt="a")
    assert first.cache_creation_tokens == 1500 and first.cached_tokens == 0 and first.input_tokens == 1
    second = await send(1500, salt="a", question="a different question")
    assert second.cached_tokens == 1500 and second.cache_creation_tokens == 0 and second.input_tokens == 3


async def test_any_change_in_the_prefix_misses(send: Any) -> None:
    await send(1500, salt="b")
    changed = await send(1501, salt="b")
    assert changed.cached_tokens == 0 and changed.cache_creation_tokens == 1501


async def test_below_minimum_nothing_is_cached(send: Any) -> None:
    small = await send(1000, salt="c")
    again = await send(1000, salt="c")
    assert small.cache_creation_tokens == 0 and again.cached_tokens == 0 and again.input_tokens == 1001
    haiku = await send(1500, salt="c", model=HAIKU)
    assert haiku.cache_creation_tokens == 0, "the small model needs 2048 tokens"
    big_haiku = await send(2100, salt="c", model=HAIKU)
    assert big_haiku.cache_creation_tokens == 2100


async def test_ephemeral_expires_after_five_minutes_and_hits_refresh(send: Any, clock: FakeClock) -> None:
    await send(1500, salt="d")
    clock.now += 299
    assert (await send(1500, salt="d")).cached_tokens == 1500
    clock.now += 299
    assert (await send(1500, salt="d")).cached_tokens == 1500, "a hit refreshes the lifetime"
    clock.now += 301
    expired = await send(1500, salt="d")
    assert expired.cached_tokens == 0 and expired.cache_creation_tokens == 1500


async def test_persistent_lasts_an_hour(send: Any, clock: FakeClock) -> None:
    await send(1500, salt="e", ttl="persistent")
    clock.now += 3000
    assert (await send(1500, salt="e", ttl="persistent")).cached_tokens == 1500
    clock.now += 3601
    assert (await send(1500, salt="e", ttl="persistent")).cached_tokens == 0


async def test_top_level_cache_control_caches_the_whole_prompt(send: Any) -> None:
    first = await send(1500, salt="f", top_level=True)
    assert first.cache_creation_tokens == 1501 and first.input_tokens == 0
    assert (await send(1500, salt="f", top_level=True)).cached_tokens == 1501


async def test_responses_caches_a_repeated_long_input_inside_its_input_tokens(cache_gateway: RunningGateway, clock: FakeClock) -> None:
    """The responses format has no cache_control: the demo caches a repeated input of at least 1024
    tokens by itself and reports it in input_tokens_details.cached_tokens, inside input_tokens."""
    client = GatewayClient(Transport())
    conn = Connection(cache_gateway.url, "k")

    async def send_input(words: int, salt: str, then: str = "Which word is third?") -> Usage:
        items = [{"role": "user", "content": salt + " ".join(f"word{i}" for i in range(words))}, {"role": "user", "content": then}]
        result, _ = await client.responses.create(conn, ResponsesRequest.build(model="gpt-4o-mini", input=items))
        assert result.usage is not None
        return result.usage

    try:
        first = await send_input(1500, "r")
        assert first.cached_tokens == 0 and first.input_tokens and first.input_tokens > 1500
        second = await send_input(1500, "r")
        assert second.input_tokens == first.input_tokens and second.cached_tokens == first.input_tokens
        longer = await send_input(1500, "r", then="And the fourth?")
        assert longer.cached_tokens == 1500, "the long first item is a prefix already seen; the new question is not"
        short = [await send_input(300, "s") for _ in range(2)]
        assert short[1].cached_tokens == 0, "below the 1024-token minimum nothing is cached"
        clock.advance(301)
        assert (await send_input(1500, "r", then="And the fourth?")).cached_tokens == 0, "5 minutes later it has expired"
    finally:
        await client.aclose()
