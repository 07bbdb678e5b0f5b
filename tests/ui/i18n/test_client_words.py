"""Every text the client writes has words in every language but English (`locales/client.zh-CN.json`
for Chinese, read by `playground.ui.i18n.client_words`), with the same values in it, and a Chinese
visitor reads the client's problems, hints and notes in Chinese while a gateway's own words stay as
they arrived."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

import pytest
from pydantic import BaseModel, ConfigDict, Field

from playground.client.batch.dataset import Dataset
from playground.client.batch.plan import Plan, PlanError
from playground.client.batch.store import RunFile
from playground.client.batch.report import FILTERS
from playground.client.chat import ChatRequest
from playground.client.errors import APIStatusError, RequestValidationError
from playground.client.intent import Intent, to_request
from playground.client.report.model import FAIL, CheckResult, Report, Scope
from playground.client.results import Usage
from playground.client.texts import TEMPLATES
from playground.client.validation import validate
from playground.client.video_catalog import Mode
from playground.ui import i18n
from playground.ui.tabs.report import views as report_views
from playground.ui.tabs.batch.handlers import leaderboard_heading
from playground.ui.tabs.batch.form import plan_from_form
from playground.ui.i18n.client_words import NOT_IN_SOURCE, NOT_SHOWN, split_template, translated_text, word, word_list
from playground.ui.tabs.batch.layout import PRESETS as BATCH_PRESETS
from playground.ui.tabs.batch.views import grid, sort_choices
from playground.ui.tabs.embeddings.views import vector_headers
from playground.ui.tabs.compare.handlers import PRESETS as COMPARE_PRESETS, ColumnRun, mapping_table
from playground.ui.i18n import CATALOGUE, CHOICE_KEYS, Catalogue, choices, say
from playground.ui.tabs.messages.handlers import cache_report
from playground.ui.shared.presets import save_preset
from playground.ui.shared.render import error_text
from playground.ui.tabs.responses.handlers import TOOL_FORMATS
from playground.ui.tabs.video.form import model_notes
from tests.ui.client_texts import client_templates
from tests.ui.i18n.test_i18n_views import assert_language, both, chinese

CJK = re.compile(r"[\u4e00-\u9fff]")
CHINESE = CATALOGUE.locales[1]
ZH_CLIENT = CATALOGUE.client["zh-CN"]
FROM_SOURCE = {english: chinese for english, chinese in ZH_CLIENT.items() if english not in NOT_IN_SOURCE and english not in TEMPLATES}
"""The Chinese of the client's texts that are still f-strings, by the f-string's body (messages are by id)."""


def chinese_text(text: str) -> str | None:
    return translated_text(text, CHINESE)


def values_of(template: str) -> set[str]:
    return {text for kind, text in split_template(template) if kind == "value"}


def test_every_text_of_the_client_has_words_in_every_language_or_is_never_shown() -> None:
    written = client_templates()
    needed = {text for _, _, text in written} - NOT_SHOWN | NOT_IN_SOURCE
    for locale in CATALOGUE.locales[1:]:
        own = CATALOGUE.client.get(locale.code, {})
        missing = [f"{file}:{line} {text!r}" for file, line, text in written if text not in own and text not in NOT_SHOWN]
        assert not missing, f"texts of playground/client without words in playground/ui/i18n/locales/client.{locale.code}.json:\n" + "\n".join(missing)
        assert own.keys() - TEMPLATES.keys() <= needed, f"client.{locale.code}.json words texts nobody writes: {sorted(own.keys() - needed)[:10]}"


def test_no_chinese_is_kept_for_a_text_the_client_no_longer_writes() -> None:
    current = {text for _, _, text in client_templates()}
    stale = sorted((FROM_SOURCE.keys() | NOT_SHOWN) - current)
    assert not stale, f"no longer in playground/client (reword or remove): {stale}"


def test_each_chinese_text_is_chinese_and_carries_the_same_values() -> None:
    wrong = [(english, chinese) for english, chinese in FROM_SOURCE.items() if not CJK.search(chinese) or values_of(english) != values_of(chinese)]
    assert not wrong, wrong
    assert not (ZH_CLIENT.keys() & NOT_SHOWN) and ZH_CLIENT.keys() >= NOT_IN_SOURCE


def test_a_text_is_matched_to_its_template_with_its_values_and_the_most_specific_template_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    made_up = Catalogue(CATALOGUE.locales, CATALOGUE.texts, {"zh-CN": {
        "{name} must be from {low} to {high}": "{name} 必须在 {low} 到 {high} 之间",
        "{label}: {problem}": "{label}：{problem}",
        "grader {index}: {error}": "评分器 {index}：{error}",
        "a literal {{brace}} stays": "字面的 {{brace}} 保留",
        "the request has no messages": "请求里没有消息",
    }})
    monkeypatch.setattr(i18n, "CATALOGUE", made_up)
    assert chinese_text("top_p must be from 0 to 1") == "top_p 必须在 0 到 1 之间"
    assert chinese_text("Model: the request has no messages") == "Model：请求里没有消息"
    assert chinese_text("grader 2: top_p must be from 0 to 1") == "评分器 2：top_p 必须在 0 到 1 之间"
    assert chinese_text("a literal {brace} stays") == "字面的 {brace} 保留"
    assert chinese_text("temperature is too high") is None
    with chinese():
        assert word("the request has no messages; top_p must be from 0 to 1") == "请求里没有消息；top_p 必须在 0 到 1 之间"
        assert word("a gateway's own words") == "a gateway's own words"
    assert word("the request has no messages") == "the request has no messages"


def test_pydantic_problems_are_worded_with_the_value_that_was_refused() -> None:
    class Probe(BaseModel):
        model_config = ConfigDict(extra="forbid")
        low: float = Field(0, ge=0, le=2)
        count: int = Field(1, gt=0, lt=10)
        name: str = Field("a", min_length=1, max_length=3)
        items: list[int] = Field([1], min_length=1, max_length=2)
        level: Literal["low", "high"] = "low"
        flag: bool = False
        table: dict[str, int] = {}
        whole: int = 0

    bad = [{"low": 5}, {"low": -1}, {"low": "x"}, {"count": 0}, {"count": 10}, {"name": ""}, {"name": "abcd"}, {"items": []}, {"items": [1, 2, 3]},
           {"level": "x"}, {"flag": "maybe"}, {"table": 1}, {"whole": 1.5}, {"whole": "x"}, {"items": 1}, {"name": 1}, {"other": 1}]
    problems = []
    for values in bad:
        with pytest.raises(RequestValidationError) as caught:
            validate(Probe, values)
        problems += caught.value.problems
    assert len(problems) == len(bad)
    for problem in problems:
        worded = chinese_text(problem)
        assert worded is not None and CJK.search(worded) and "should" not in worded and "Input" not in worded, (problem, worded)
    assert chinese_text("low: Input should be less than or equal to 2 (got 5)") == "low：应小于或等于 2（收到 5）"
    assert chinese_text("row 5: 3 cells, but the header has 2") == "第 5 行：3 个单元格，但表头只有 2 个", "a wrapper with no words of its own"


def test_a_chinese_visitor_reads_the_clients_problems_in_the_error_banner_and_english_stays_outside() -> None:
    def banner() -> str:
        with pytest.raises(RequestValidationError) as caught:
            ChatRequest.build(model="gx-2.5-flash", messages=[{"role": "user", "content": "hi"}], temperature=5, top_p="x")
        return error_text(caught.value)

    assert_language(both(banner), ["Please check the request", "Invalid request: temperature: Input should be less than or equal to 2 (got 5)",
                                   "Fix what is named above"],
                    ["请检查请求", "temperature：应小于或等于 2（收到 5）", "top_p："])
    gateway = APIStatusError(400, "temperature is way too hot", "invalid_request_error")
    shown_en, shown_zh = both(lambda: error_text(gateway))
    assert "temperature is way too hot" in shown_en and "temperature is way too hot" in shown_zh, "a gateway's words stay as they arrived"
    assert CJK.search(shown_zh)


def test_the_views_word_the_clients_texts() -> None:
    result = CheckResult("chat", "m", "stream", FAIL, "the stream ended before its end marker", expected="the format's end marker", arrived="3 events, no end")
    assert_language(both(lambda: report_views.cell_verdict(result)), ["the stream ended before its end marker", "*Expected:* the format's end marker"],
                    ["流在结束标记出现之前就结束了", "*预期：*"])
    assert_language(both(lambda: report_views.markdown_report(_report_with(result))), ["the stream ended before its end marker"], ["流在结束标记出现之前就结束了"])
    run = ColumnRun("messages", "cl-sonnet-4-5-20250929", mapped=to_request(Intent("hi", temperature=1.5), "messages", "cl-sonnet-4-5-20250929"), done=True)
    assert_language(both(lambda: mapping_table([run])), ["not sent: the messages format allows 0 to 1 (asked 1.5)"], ["未发送：messages 格式只允许 0 到 1"])
    assert_language(both(lambda: model_notes("vidA-2")), ["the result is fetched through the download endpoint"], ["结果通过下载接口取回"])
    assert_language(both(lambda: cache_report("cl-sonnet-4-5-20250929", [Usage(input_tokens=10, output_tokens=2)])),
                    ["| uncached input |", "Nothing was cached"], ["| 未缓存的输入 |"])
    assert_language(both(lambda: save_preset({}, "chat", "", {})[1]), ["Type a name for the preset first."], ["请先给预设起个名字。"])


def _report_with(result: CheckResult) -> Report:
    report = Report("http://gateway", Scope({"chat": ["m"]}, ("stream",)))
    report.results.append(result)
    return report


def test_batch_problems_are_worded_one_by_one() -> None:
    def refused() -> str:
        with pytest.raises(PlanError) as caught:
            plan_from_form("", "", None, [], 1.5, 1, "", 0, False, False, [], 10, 4)
        return word_list(caught.value.problems)

    english, chinese_line = both(refused)
    assert "repeat each row N times: must be a whole number (got 1.5)" in english
    assert CJK.search(chinese_line) and "must be a whole number" not in chinese_line and "1.5" in chinese_line


def test_the_batch_leaderboard_headings_follow_the_visitors_language() -> None:
    names = ["column", "cells", "errors", "pass: contains 'Paris'", "mean score", "TTFT p50 ms", "tokens/s", "cost", "repeats differ", "win rate"]
    english, chinese_words = both(lambda: " | ".join(leaderboard_heading(name) for name in names))
    assert english == " | ".join(names), "English is the client's own headings"
    assert chinese_words == "列 | 格数 | 出错 | 通过：contains 'Paris' | 平均分 | 首个 token 用时 p50（毫秒） | tokens/秒 | 费用 | 重复结果不同 | 胜率"


def test_choice_words_the_code_reads_back_get_labels_and_keep_their_values() -> None:
    pairs = choices(["first + last frame", "16:9", 8])
    assert isinstance(pairs[0], tuple) and pairs[0][1] == "first + last frame" and pairs[0][0].key == "choice.mode.first_last"
    assert pairs[1:] == ["16:9", 8], "values without a word stay as they are"
    with chinese():
        assert choices(["only errors"], say) == [("只看出错的", "only errors")]
    assert choices(["only errors"], say) == [("only errors", "only errors")]
    read_back = [*(mode.value for mode in Mode), *FILTERS, *TOOL_FORMATS, *COMPARE_PRESETS, *BATCH_PRESETS]
    assert not [value for value in read_back if value not in CHOICE_KEYS], "each such value has a word in both languages"


def test_table_headings_and_orders_are_worded_and_sort_by_the_same_values() -> None:
    plan = Plan("Say {{q}}", "", Dataset(["q"], [{"q": "hi"}]), [("chat", "m")])
    run = RunFile(Path("unused.jsonl"), {})
    english, chinese_grid = both(lambda: grid(plan, run, {})[0]["headers"])
    assert english == ["row", "repeat", "q", "C1 chat completions · m", "C1 TTFT ms", "C1 tokens", "C1 cost"]
    assert chinese_grid[:2] == ["行", "第几次"] and chinese_grid[4] == "C1 首个 token（毫秒）"
    with chinese():
        orders = sort_choices(plan)
    assert [value for _, value in orders] == ["row", "C1 ttft", "C1 tokens", "C1 passes"] and orders[1][0] == "C1 首个 token 用时"
    assert both(vector_headers) == (["#", "text", "dimension", "length", "first values"], ["#", "文本", "维度", "长度（L2 范数）", "前几个值"])
