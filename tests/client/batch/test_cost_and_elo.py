"""Cost arithmetic (cached input, the messages format's separate cache counts, unknown prices) and Elo."""

from __future__ import annotations

import pytest

from playground.client.batch.cost import Price, PriceError, cost, format_of_url, model_of, money, table_from_csv, table_from_rows
from playground.client.batch.elo import Vote, ratings, win_rates
from playground.client.results import Usage

TABLE = {"gpt-4.1": Price(input=2.0, output=8.0, cached_input=0.5), "cl-sonnet-4-5": Price(3.0, 15.0, 0.3)}


def test_cost_with_cached_tokens_inside_the_input_count() -> None:
    usage = Usage(input_tokens=1_000_000, output_tokens=500_000, cached_tokens=400_000)
    assert cost(TABLE, "gpt-4.1", usage) == pytest.approx(600_000 * 2 / 1e6 + 400_000 * 0.5 / 1e6 + 500_000 * 8 / 1e6)


def test_messages_format_counts_cache_reads_and_writes_apart() -> None:
    usage = Usage(input_tokens=100, output_tokens=10, cached_tokens=1000, cache_creation_tokens=200)
    # writes at 1.25x the input price (5-minute writes, the default lifetime)
    assert cost(TABLE, "cl-sonnet-4-5", usage, "messages") == pytest.approx((100 * 3 + 200 * 3 * 1.25 + 1000 * 0.3 + 10 * 15) / 1e6)


def test_unknown_price_or_usage_is_none_and_shown_as_a_dash_never_zero() -> None:
    assert cost(TABLE, "unpriced-model", Usage(10, 10)) is None
    assert cost(TABLE, "gpt-4.1", None) is None
    assert cost({}, "gpt-4.1", Usage(10, 10)) is None
    assert money(None) == "—" and money(0.0000042) == "$0.0000042" and money(12.5) == "$12.50"
    assert cost(TABLE, "gpt-4.1", Usage(input_tokens=0, output_tokens=0)) == 0


def test_price_table_from_rows_and_csv_with_errors() -> None:
    table = table_from_csv("model,input,output,cached input\ngpt-4.1,2,8,0.5\nx,$1,2,\n")
    assert table["gpt-4.1"] == Price(2.0, 8.0, 0.5) and table["x"].cached_input is None
    with pytest.raises(PriceError, match="row 1 \\(m\\) output: 'abc' is not a number"):
        table_from_rows([["m", 1, "abc", None]])
    with pytest.raises(PriceError, match="a number of 0 or more"):
        table_from_rows([["m", -1, 1, None]])
    with pytest.raises(PriceError, match="priced twice"):
        table_from_rows([["m", 1, 1, None], ["m", 1, 1, None]])
    with pytest.raises(PriceError, match="the header must name model, input and output"):
        table_from_csv("name,price\n")
    assert table_from_rows([["", None, None, None]]) == {}


def test_which_format_and_model_a_call_was() -> None:
    assert format_of_url("http://127.0.0.1:9/v1/messages") == "messages"
    assert format_of_url("http://h/v1beta/models/gx-2.5-flash:streamGenerateContent?alt=sse") == "native"
    assert format_of_url("http://h/v1/chat/completions") == "chat"
    assert model_of("http://h/v1beta/models/gx%2Fa:generateContent", {}) == "gx/a"
    assert model_of("http://h/v1/chat/completions", {"model": "m"}) == "m"


def test_elo_updates_and_win_rates() -> None:
    assert ratings([], 2) == [1000.0, 1000.0]
    after = ratings([Vote(0, 1, "a")], 2)
    assert after == [1016.0, 984.0]
    tied = ratings([Vote(0, 1, "a"), Vote(1, 0, "tie")], 2)
    assert tied[0] < 1016.0 and sum(tied) == pytest.approx(2000.0)
    assert win_rates([Vote(0, 1, "a"), Vote(1, 0, "tie"), Vote(2, 2, "a")], 3) == [0.75, 0.25, None]
