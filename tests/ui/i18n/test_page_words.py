"""Both languages everywhere: the header's switch names every tab (the page's and the tabs inside
panels) in the language chosen, the tour names the tabs as the tabs do, the badge and the texts a
tab's server writes follow the switch, and the words that were left in English come from the
catalogue."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import gradio as gr
import pytest

from playground.client.batch.graders import GraderSpec
from playground.client.batch.plan import Plan, PlanError
from playground.client.batch.dataset import Dataset
from playground.client.results import TextResult
from playground.settings import Settings
from playground.ui.app import build_app
from playground.ui.i18n import CATALOGUE, EN, languages
from playground.ui.i18n.language import remembered_js, switch_js
from playground.ui.shared.connection import ServerDefaults
from playground.ui.shared.connection_panel import ConnectionEvents
from playground.ui.shared.guide import tab_label_words
from playground.ui.shared.metrics import metrics_text
from playground.ui.shared.render import result_messages
from playground.ui.i18n.client_words import word_list
from playground.ui.tabs.batch.columns import used_text
from playground.ui.tabs.batch.form import plan_from_form
from playground.ui.tabs.batch.handlers import BatchHandlers
from playground.ui.tabs.batch.views import pass_headings
from playground.ui.tabs.images.views import delivered_words
from playground.ui.tabs.registry import TABS
from tests.ui.i18n.test_i18n_views import both

ZH = CATALOGUE.texts["zh-CN"]
INNER_TABS = ("inspector.request_tab", "inspector.response_tab", "inspector.timeline_tab", "inspector.curl", "inspector.python_tab",
              "embeddings.similarity", "embeddings.map")


@pytest.fixture(scope="module")
def page() -> Iterator[Any]:
    yield build_app(Settings(), ServerDefaults("http://127.0.0.1:9", "sk-unused", demo=True))


def test_every_tab_has_its_own_name_in_chinese() -> None:
    for tab in TABS:
        assert ZH[tab.label_key] != EN[tab.label_key], f"{tab.id} keeps its English name in Chinese"
    assert len({ZH[tab.label_key] for tab in TABS}) == len(TABS)


@pytest.mark.parametrize("code", [locale.code for locale in languages()])
def test_the_tour_names_every_tab_as_the_tab_does(code: str) -> None:
    tour, texts = CATALOGUE.texts[code]["guide.tour"], CATALOGUE.texts[code]
    for tab in TABS:
        assert texts[tab.label_key] in tour, f"{code}: the tour does not name {texts[tab.label_key]!r}"
    listed = tour[tour.index(texts[TABS[0].label_key]):]
    order = [listed.index(texts[tab.label_key]) for tab in TABS]
    assert order == sorted(order), f"{code}: the tour lists the tabs in another order than the page"


def test_the_switch_carries_every_tab_label_on_the_page_in_every_language(page: Any) -> None:
    words = tab_label_words(page)
    assert set(words) == {locale.code for locale in languages()}
    for key in [tab.label_key for tab in TABS] + list(INNER_TABS):
        for code, texts in words.items():
            assert texts[key] == CATALOGUE.texts[code][key], (code, key)
    for script in (switch_js(words), remembered_js(languages(), words)):
        assert json.dumps(words, ensure_ascii=False) in script and ".tab-wrapper button" in script and "MutationObserver" in script


def test_the_switch_is_followed_by_the_badge_and_the_batch_tabs_own_words(page: Any) -> None:
    switch = next(block for block in page.blocks.values() if getattr(block, "elem_id", None) == "language-switch")
    event = next(fn for fn in page.fns.values() if (switch._id, "input") in fn.targets)
    assert event.fn is None and "changeLocale" in event.js, "the page changes language at once, in the browser"
    following = [fn for fn in page.fns.values() if fn.trigger_after == event._id]
    runs = {getattr(fn.fn, "__func__", fn.fn) for fn in following}
    assert ConnectionEvents.badge in runs and BatchHandlers.on_language in runs
    badge = next(fn for fn in following if getattr(fn.fn, "__func__", None) is ConnectionEvents.badge)
    assert [block.elem_id for block in badge.outputs] == ["gateway-badge"]
    batch = next(fn for fn in following if getattr(fn.fn, "__func__", None) is BatchHandlers.on_language)
    assert [block.elem_id for block in batch.outputs] == ["batch-columns-used", "batch-preview", "batch-grid", "batch-runs-list"]
    on_load = next(fn for fn in page.fns.values() if fn.targets[0][1] == "load" and getattr(fn.fn, "__func__", None) is BatchHandlers.on_page_load)
    assert [block.elem_id for block in on_load.outputs] == ["batch-columns-used", "batch-preview", "batch-grid", "batch-runs-list"], \
        "and on load, in the visitor's language (the layout writes no English of its own there)"
    assert not on_load.inputs, "the load reads nothing from the page (issue 41: each input keeps a loading status in the page)"
    state, *boxes = batch.inputs
    sent = [box.preprocess(box.postprocess(box.value)) for box in boxes]  # the form of a loaded page, as Gradio hands it to a handler
    assert on_load.fn() == batch.fn(state.value, *sent), "the load words the form a loaded page holds, as the switch does"
    assert "**Column 1** (gx-2.5-flash)" in on_load.fn()[0]


def test_the_conversations_are_named_in_the_catalogue(page: Any) -> None:
    for tab in ("chat", "responses", "messages", "native"):
        chatbot = next(block for block in page.blocks.values() if getattr(block, "elem_id", None) == f"{tab}-chatbot")
        draft = next(block for block in page.blocks.values() if getattr(block, "elem_id", None) == f"{tab}-input")
        assert isinstance(chatbot, gr.Chatbot) and chatbot.label.key == "conversation.chatbot" and chatbot.show_label is False
        assert draft.label.key == "conversation.message"


def test_thinking_tool_calls_and_finish_reasons_are_worded_in_the_visitors_language() -> None:
    result = TextResult(text="A piano.", reasoning="keys...", finish_reason="stop")
    english, chinese = both(lambda: json.dumps(result_messages(result, True), ensure_ascii=False))
    assert '"Thinking"' in english and ZH["answer.thinking"] in chinese and '"Thinking"' not in chinese
    english, chinese = both(lambda: metrics_text(result, None))
    assert "finish: stop (the answer is complete)" in english
    assert ZH["metrics.finish"].format(reason="stop") + f" ({ZH['finish.complete']})" in chinese


def test_a_columns_own_settings_refused_name_the_column_and_field_in_the_visitors_language() -> None:
    """A column's own temperature and max output tokens, refused as typed: the column and the field are named in
    Chinese as well as the problem (they were English inside Chinese sentences)."""
    def refused() -> str:
        with pytest.raises(PlanError) as problem:
            plan_from_form("", "{{q}}", Dataset(["q"], [{"q": "x"}]), ["chat", "gx-2.5-flash"], 1, 1, "hot", 0, True, False, [], 10, 4,
                           ["5", "1.5", "", ""])
        return word_list(problem.value.problems)

    english, chinese = both(refused)
    assert "column 1 temperature must be from 0 to 2 (got 5)" in english and "column 1 max output tokens: must be a whole number" in english
    assert "temperature must be a number from 0 to 2 or empty (got 'hot')" in english
    assert f"第 1 列的{ZH['bcols.temperature']} 必须在 0 到 2 之间（收到的是 5）" in chinese
    assert f"第 1 列的{ZH['bcols.max_tokens']}：必须是整数（收到的是 1.5）" in chinese
    assert f"{ZH['bcols.temperature']} 必须是 0 到 2 之间的数字" in chinese
    for english_word in ("column", "max output tokens", "must be"):
        assert english_word not in chinese, english_word


def test_the_batch_columns_line_graders_and_images_delivery_are_worded() -> None:
    english, chinese = both(lambda: used_text(["chat", "gx-2.5-flash"], ["0.2", "", ""], "", 0, True))
    assert "**What each column sends**" in english and "temperature 0.2 (its own)" in english and "stream on (all columns)" in english
    for word in ("What each column", "Column", "its own", "all columns", "not set", "stream", "max output tokens"):
        assert word not in chinese, word
    assert f"{ZH['bcols.temperature']} 0.2（本列自己的设置）" in chinese and "**第 1 列**（gx-2.5-flash）" in chinese
    plan = Plan("{{q}}", "", Dataset(["q"], [{"q": "x"}]), [("chat", "gx-2.5-flash")], 1,
                [GraderSpec("contains", "Paris"), GraderSpec("equals"), GraderSpec("json")])
    english_heads, chinese_heads = both(lambda: " | ".join(pass_headings(plan).values()))
    assert "contains 'Paris'" in english_heads
    kinds = CATALOGUE.client["zh-CN"]
    assert f"{kinds['graders.kind.contains']} 'Paris'" in chinese_heads and kinds["graders.kind.equals"] in chinese_heads
    assert "contains" not in chinese_heads and "valid JSON" not in chinese_heads
    english, chinese = both(lambda: delivered_words("b64_json") + " / " + delivered_words("url"))
    assert english == "inside the answer (b64_json) / as a link (url)" and chinese == "内嵌在回答中（b64_json） / 以链接提供（url）"
