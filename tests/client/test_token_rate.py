"""Tokens a second: measured over the answer's text as it streamed, and none for an answer whose
text came in one piece (its few microseconds to the end would read as thousands a second: the
Batch leaderboard once showed a terse model at about 4,000 tokens/s beside 40 for the others)."""

from __future__ import annotations

import pytest

from playground.client.results import ReasoningDelta, TextDelta, TextResult, Usage


def streamed(pieces: list[tuple[str, float]], output_tokens: int, finished_at: float, reasoning_at: float | None = None) -> TextResult:
    result = TextResult()
    if reasoning_at is not None:
        result.apply(ReasoningDelta("thinking"), reasoning_at)
    for text, at in pieces:
        result.apply(TextDelta(text), at)
    result.usage, result.finished_at = Usage(output_tokens=output_tokens), finished_at
    return result


def test_an_answer_sent_in_one_piece_has_no_rate() -> None:
    assert streamed([("Paris.", 0.300)], output_tokens=2, finished_at=0.3002).tokens_per_second() is None


def test_an_answer_in_pieces_is_rated_over_its_first_piece_to_the_end() -> None:
    rate = streamed([("Par", 0.300), ("is", 0.320), (".", 0.340)], output_tokens=3, finished_at=0.350).tokens_per_second()
    assert rate == pytest.approx(3 / 0.050)


def test_thinking_before_a_one_piece_answer_is_part_of_the_span() -> None:
    """The first token is the first thought: the reasoning streamed over time, so there is a rate."""
    rate = streamed([("Paris.", 0.500)], output_tokens=40, finished_at=0.501, reasoning_at=0.100).tokens_per_second()
    assert rate == pytest.approx(40 / 0.401)
