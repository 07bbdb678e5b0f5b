"""The Batch numbers issue 38 found wrong, each with the issue's figures: native thinking tokens
billed (and counted in the leaderboard's and grid's tokens), a model missing from the price table
has no price (never a neighbour's), messages cache writes at 1.25x (5 minutes) and 2x (1 hour)
the input price, and one nearest-rank percentile for any n."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from playground.client.batch.cost import Price, cache_writes, cost, money, one_hour_only, price_for
from playground.client.batch.dataset import Dataset
from playground.client.batch.plan import Plan
from playground.client.batch.report import cell_tokens, leaderboard, leaderboard_rows
from playground.client.batch.store import CellRecord, RunFile
from playground.client.messages import result_from_message
from playground.client.report.latency import percentile as report_percentile
from playground.client.results import Usage
from playground.client.stats import percentile

TABLE = {"gx-2.5-flash": Price(input=0.30, output=2.50), "gpt-4o": Price(2.50, 10.0, 1.25), "cl-sonnet-4-5-20250929": Price(3.0, 15.0, 0.3)}


def test_native_thinking_tokens_are_billed_as_output() -> None:
    usage = Usage(10, 20, reasoning_tokens=300)
    assert cost(TABLE, "gx-2.5-flash", usage, "native") == pytest.approx(0.000803)
    assert money(cost(TABLE, "gx-2.5-flash", usage, "native")) == "$0.000803"
    # chat, responses and messages count reasoning inside the output already: not billed twice
    assert cost(TABLE, "gx-2.5-flash", Usage(10, 320, reasoning_tokens=300), "chat") == pytest.approx(0.000803)


def test_the_leaderboard_and_the_grid_count_native_thinking_tokens(tmp_path: Path) -> None:
    plan = Plan("{{q}}", dataset=Dataset(["q"], [{"q": "a"}]), columns=[("native", "gx-2.5-flash"), ("chat", "gx-2.5-flash")])
    run = RunFile.create(tmp_path, plan.to_dict())
    run.add_cell(CellRecord(0, 0, 0, answer="x", usage={"input": 10, "output": 20, "reasoning": 300}), {})
    run.add_cell(CellRecord(0, 0, 1, answer="x", usage={"input": 10, "output": 320, "reasoning": 300}), {})
    stats = leaderboard(plan, run, TABLE)
    assert [s.tokens for s in stats] == [330, 330]
    assert [s.cost for s in stats] == [pytest.approx(0.000803), pytest.approx(0.000803)]
    assert cell_tokens(plan, run.cells["0.0.0"]) == 330
    headers, rows = leaderboard_rows(plan, stats)
    assert rows[0][headers.index("tokens")] == "330"


def test_a_model_missing_from_the_table_has_no_price() -> None:
    assert price_for(TABLE, "gpt-4o-mini") is None  # was gpt-4o's price, about 16x too high
    assert cost(TABLE, "gpt-4o-mini", Usage(1000, 1000)) is None
    assert money(cost(TABLE, "gpt-4o-mini", Usage(1000, 1000))) == "—"
    assert cost(TABLE, "cl-sonnet-4-5", Usage(1, 1), "messages") is None  # nor is an alias priced as its snapshot
    assert cost(TABLE, "gpt-4o", Usage(1000, 1000)) == pytest.approx(0.0125)


def test_messages_cache_writes_cost_a_premium_by_lifetime() -> None:
    written = Usage(input_tokens=100, output_tokens=10, cached_tokens=1000, cache_creation_tokens=2000)
    five = (100 * 3 + 2000 * 3 * 1.25 + 1000 * 0.3 + 10 * 15) / 1e6
    hour = (100 * 3 + 2000 * 3 * 2.0 + 1000 * 0.3 + 10 * 15) / 1e6
    assert cost(TABLE, "cl-sonnet-4-5-20250929", written, "messages") == pytest.approx(five)
    assert cost(TABLE, "cl-sonnet-4-5-20250929", written, "messages", one_hour=True) == pytest.approx(hour)
    split = Usage(100, 10, cached_tokens=1000, cache_creation_tokens=2000, cache_creation_1h_tokens=500)
    assert cache_writes(split) == (1500, 500) and cache_writes(split, one_hour=True) == (1500, 500)  # the gateway's split wins
    assert cost(TABLE, "cl-sonnet-4-5-20250929", split, "messages") == pytest.approx(
        (100 * 3 + 1500 * 3 * 1.25 + 500 * 3 * 2 + 1000 * 0.3 + 10 * 15) / 1e6)


def test_which_writes_are_one_hour_writes() -> None:
    persistent, ephemeral = {"cache_control": {"type": "persistent"}}, {"cache_control": {"type": "ephemeral"}}
    assert one_hour_only({"system": [{"type": "text", "text": "s", **persistent}], "messages": []})
    assert not one_hour_only({"system": [{"type": "text", "text": "s", **persistent}], "messages": [{"content": [{"text": "t", **ephemeral}]}]})
    assert not one_hour_only({"system": [{"type": "text", "text": "s", "cache_control": {}}]})  # no type: the 5-minute default
    assert not one_hour_only({"messages": []}) and not one_hour_only(None)


def test_the_providers_split_of_cache_writes_is_read() -> None:
    result = result_from_message({"content": [{"type": "text", "text": "hi"}], "usage": {
        "input_tokens": 5, "output_tokens": 2, "cache_creation_input_tokens": 3000, "cache_read_input_tokens": 0,
        "cache_creation": {"ephemeral_5m_input_tokens": 1000, "ephemeral_1h_input_tokens": 2000}}})
    assert result.usage is not None and result.usage.cache_creation_1h_tokens == 2000 and result.usage.cache_creation_tokens == 3000


def test_percentile_is_nearest_rank_for_any_n() -> None:
    twenty = [float(v) for v in range(1, 21)]
    assert percentile(twenty, 0.95) == 19.0  # was 20, the maximum
    assert percentile(twenty, 0.5) == 10.0 and percentile(twenty[:19], 0.5) == 10.0
    for n in range(1, 60):
        values = [float(v) for v in range(n, 0, -1)]
        for share in (0.05, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99):
            assert percentile(values, share) == math.ceil(round(share * n, 9)), (n, share)
    assert percentile([], 0.5) is None and percentile([None, 2.0], 0.5) == 2.0
    assert report_percentile is percentile  # the Report's latency uses the same one


def test_the_leaderboard_p95_is_not_the_slowest(tmp_path: Path) -> None:
    plan = Plan("{{q}}", dataset=Dataset(["q"], [{"q": str(i)} for i in range(20)]), columns=[("chat", "gpt-4o")])
    run = RunFile.create(tmp_path, plan.to_dict())
    for row in range(20):
        run.add_cell(CellRecord(row, 0, 0, answer="x", ttft=(row + 1) / 10), {})
    stats = leaderboard(plan, run, {})[0]
    assert stats.ttft_p95 == pytest.approx(1.9) and stats.ttft_p50 == pytest.approx(1.0)
