"""The demo gateway's per-request pace (`x-demo-pace`, `demo_gateway/pacing.py`): read as seconds
between streamed pieces, bounded, for the request that asks only."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import httpx
import pytest

from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.pacing import MAX_PACE_S, PACE_HEADER, parse_pace
from playground.demo_gateway.server import RunningGateway, start_in_thread

KEY = "k-pace"
PACE_S = 0.05


@pytest.fixture(scope="module")
def unpaced() -> Iterator[RunningGateway]:
    """A demo gateway that streams with no delay of its own."""
    running = start_in_thread(DemoConfig(api_key=KEY, token_delay=0.0))
    yield running
    running.stop()


def test_a_pace_is_seconds_bounded_and_anything_else_is_ignored() -> None:
    assert parse_pace("0.25") == 0.25
    assert parse_pace(" 0 ") == 0.0
    assert parse_pace("30") == MAX_PACE_S
    assert parse_pace("1e300") == MAX_PACE_S
    for unreadable in (None, "", "slow", "-0.1", "nan", "inf", "0x10", "0." + "1" * 40):
        assert parse_pace(unreadable) is None, unreadable


def _streamed_pieces(gateway: RunningGateway, headers: dict[str, str]) -> tuple[int, float]:
    """(content and reasoning pieces streamed, seconds from sending to the last byte) for one chat stream."""
    body = {"model": "gx-2.5-flash", "stream": True, "messages": [{"role": "user", "content": "Tell me about the sea in three sentences."}]}
    started = time.monotonic()
    with httpx.Client(base_url=gateway.url, headers={"Authorization": f"Bearer {KEY}", **headers}, timeout=30) as http:
        text = http.post("/v1/chat/completions", json=body).text
    elapsed = time.monotonic() - started
    pieces = 0
    for frame in text.split("\n\n"):
        if frame.startswith("data: {"):
            choices = json.loads(frame[6:]).get("choices") or [{}]
            delta = choices[0].get("delta") or {}
            pieces += bool(delta.get("content") or delta.get("reasoning_content"))
    return pieces, elapsed


def test_a_stream_asked_for_a_pace_waits_that_long_between_pieces(unpaced: RunningGateway) -> None:
    pieces, elapsed = _streamed_pieces(unpaced, {PACE_HEADER: f"{PACE_S}"})
    assert pieces >= 5
    assert elapsed >= pieces * PACE_S  # each piece waited at least the pace; the gateway's own delay is 0


def test_an_unreadable_pace_leaves_the_gateways_own(unpaced: RunningGateway) -> None:
    unpaced.config.token_delay = PACE_S
    try:
        pieces, elapsed = _streamed_pieces(unpaced, {PACE_HEADER: "slow"})
    finally:
        unpaced.config.token_delay = 0.0
    assert pieces >= 5
    assert elapsed >= pieces * PACE_S
