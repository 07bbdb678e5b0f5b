"""Texts the page is built with that hold values (a model's notes, the ratio preview, the price table's
headings) or that a person edits (Compare's message, Batch's template) follow the visitor's language
(issue 40): on the page's load the tab's server writes the texts that hold values (reading nothing from
the page, and leaving to a link what it writes itself) and a script in the page the editable defaults
(only while the box holds the first locale's text); after the header's switch, a default only while untouched. The
choices and names that were English (Native's key choices, the embeddings formats' names in the views)
are the catalogue's words, with the values the handlers read unchanged."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import gradio as gr
import pytest
from gradio.context import LocalContext
from gradio.i18n import I18nData

from playground.client.gateway import GatewayClient
from playground.settings import Settings
from playground.ui.app import build_app
from playground.ui.i18n import CATALOGUE, EN
from playground.ui.i18n.language import LANGUAGE_COOKIE
from playground.ui.shared.connection import ServerDefaults
from playground.ui.shared.prices import PriceEditor
from playground.ui.tabs.batch.handlers import reworded_template
from playground.ui.tabs.compare.handlers import reworded_message
from playground.ui.tabs.embeddings.handlers import LIST_FORMAT, NATIVE_FORMAT, EmbeddingsForm, embed_texts
from playground.ui.tabs.images.handlers import first_preview
from playground.ui.tabs.images.views import ratio_preview_html
from playground.ui.tabs.native.handlers import AUTH_CHOICES
from playground.ui.tabs.video.board import VideoBoard
from playground.ui.tabs.video.handlers import first_notes, reworded

ZH = CATALOGUE.texts["zh-CN"]
ZH_CLIENT = CATALOGUE.client["zh-CN"]


class LinkRequest:
    """An event's request as the handlers read it: headers (the language) and the page's query (its link)."""

    def __init__(self, language: str, query: dict[str, str] | None = None) -> None:
        self.headers = {"cookie": f"{LANGUAGE_COOKIE}={language}", "accept-language": "en-US"}
        self.query_params = dict(query or {})


@contextmanager
def event(language: str, query: dict[str, str] | None = None) -> Iterator[LinkRequest]:
    request = LinkRequest(language, query)
    token = LocalContext.request.set(request)  # type: ignore[arg-type]  # the lookups read only .headers and .query_params
    try:
        yield request
    finally:
        LocalContext.request.reset(token)


def skipped(value: Any) -> bool:
    return isinstance(value, dict) and value.get("__type__") == "update" and len(value) == 1


@pytest.mark.parametrize(("reword", "key"), [(reworded_message, "compare.default_message"), (reworded_template, "batch.default_template")])
def test_after_the_switch_a_default_follows_only_while_untouched(reword: Any, key: str) -> None:
    with event("zh-CN"):
        assert reword(EN[key]) == ZH[key]
        assert skipped(reword(EN[key] + " Please."))  # typed: kept as it is
        assert skipped(reword(""))
    with event("en"):
        assert reword(ZH[key]) == EN[key]


def test_the_chinese_defaults_keep_what_the_tab_reads() -> None:
    assert "{{question}}" in ZH["batch.default_template"], "the template's variable is the data set's column"
    assert "天空" in ZH["compare.default_message"] and "蓝" in ZH["compare.default_message"]  # the demo gateway's fact answers it


def test_the_ratio_preview_is_worded_on_load_for_the_form_a_link_opens() -> None:
    with event("zh-CN") as request:
        shown = first_preview(request)
        assert "在 1K 档约为 1024×1024 像素" in shown and "about" not in shown
    with event("zh-CN", {"tab": "images", "ratio": "16:9"}) as request:  # the link's ratio, as the picker's change words it too
        assert first_preview(request) == ratio_preview_html("16:9", "1K")
        assert "16:9" in first_preview(request)
    with event("zh-CN", {"tab": "images", "ratio": "x" * 300}) as request:  # refused by the link opener: the built ratio stays
        assert first_preview(request) == ratio_preview_html("1:1", "1K")
    with event("zh-CN", {"tab": "images", "preset": "mine"}) as request:  # a preset's change events write it
        assert skipped(first_preview(request))
    assert "about 1024×1024 px at 1K" in ratio_preview_html("1:1", "1K"), "outside an event: English"


def test_the_video_notes_are_worded_on_load_and_the_board_and_notes_after_the_switch() -> None:
    note = ZH_CLIENT["video.note.vida_2"]
    with event("zh-CN") as request:
        shown = first_notes(request)
        assert note in shown and "Portrait" not in shown
        assert ZH["choice.mode.text"] in shown, "the modes in the visitor's words"
    with event("zh-CN", {"tab": "video", "model": "no-such-model"}) as request:  # refused by the link opener
        assert note in first_notes(request)
    with event("zh-CN", {"tab": "video", "preset": "mine"}) as request:
        assert skipped(first_notes(request))
    with event("zh-CN"):
        board, notes = reworded(VideoBoard(), "vidA-2")
    assert "“按任务 ID 继续查看”" in board and note in notes
    assert f"“{ZH['video.resume_a_task_by']}”" in ZH["vboard.empty"] and f"“{EN['video.resume_a_task_by']}”" in EN["vboard.empty"], \
        "the empty board names the box by its label, in both languages"
    assert f"“{ZH['video.resume_a_task_by']}”" in ZH["vboard.polling_stopped"]


def test_the_price_tables_headings_are_the_visitors_and_its_rows_are_kept() -> None:
    editor = PriceEditor.__new__(PriceEditor)
    rows = [["gx-2.5-flash", 0.3, 2.5, None]]
    with event("zh-CN"):
        shown = editor.reworded(rows)
    assert shown == {"data": rows, "headers": ["模型", "输入 $/1M", "输出 $/1M", "缓存的输入 $/1M"]}
    assert editor.reworded([])["headers"][0] == "model"


async def test_the_embeddings_views_name_each_format_in_the_visitors_words(client: GatewayClient, defaults: ServerDefaults) -> None:
    form = EmbeddingsForm(texts="Bake the bread.\nThe train leaves at nine.", query="How do I bake bread?", formats=[LIST_FORMAT, NATIVE_FORMAT])
    english = await embed_texts(client, defaults, "", "", form)
    with event("zh-CN"):
        shown = await embed_texts(client, defaults, "", "", form)
    for text in (shown.heatmap, shown.search):
        assert ZH["embeddings.choice.list"] in text and ZH["embeddings.choice.native"] in text
        assert LIST_FORMAT not in text and NATIVE_FORMAT not in text
    assert LIST_FORMAT in english.heatmap and NATIVE_FORMAT in english.search


@pytest.fixture(scope="module")
def page() -> Iterator[gr.Blocks]:
    yield build_app(Settings(), ServerDefaults("http://127.0.0.1:9", "k", demo=True))


def component(page: gr.Blocks, elem_id: str) -> Any:
    return next(block for block in page.blocks.values() if getattr(block, "elem_id", None) == elem_id)


def test_the_layout_words_its_choices_and_notes_through_the_catalogue(page: gr.Blocks) -> None:
    for elem_id in ("native-auth", "embeddings-auth"):
        choices = component(page, elem_id).choices
        assert [value for _, value in choices] == list(AUTH_CHOICES), "the values the handlers read are unchanged"
        keys = {label.key for label, _ in choices if isinstance(label, I18nData)}
        assert keys == {"choice.auth.header", "choice.auth.query"}, elem_id
    report = component(page, "messages-cache-report").value  # a Markdown keeps the key as the marked text the page translates
    assert str(report) == str(I18nData("messages.say.send_message_cache_breakpoint_then"))


def test_the_page_words_its_built_texts_on_load_and_after_the_switch(page: gr.Blocks) -> None:
    """Each writer runs after the page's load reading nothing from the page (issue 41), and after the switch."""
    def runs(fn: Any) -> Any:
        return getattr(fn, "__func__", fn)

    loads = {fn._id for fn in page.fns.values() if any(trigger == "load" for _, trigger in fn.targets)}
    after_load = [fn for fn in page.fns.values() if fn.trigger_after is not None]
    written_on_load = {runs(fn.fn): fn for fn in after_load if runs(fn.fn) in (first_preview, first_notes)}
    assert set(written_on_load) == {first_preview, first_notes}
    in_the_page = {fn.outputs[0].elem_id: fn for fn in after_load if fn.fn is None and fn.js and "words[language]" in fn.js}
    assert set(in_the_page) == {"compare-message", "batch-user"}, "the editable defaults are worded by a script in the page"
    for elem_id, fn in in_the_page.items():
        assert [block.elem_id for block in fn.inputs] == [elem_id], "it reads the box as it is at that moment"
        assert page.fns[fn.trigger_after]._id in loads, f"{elem_id}: worded right after the page's load"
    for fn in written_on_load.values():
        assert not fn.inputs, f"{fn.fn.__name__} reads nothing from the page"
        parent = page.fns[fn.trigger_after]
        while parent._id not in loads and parent.trigger_after is not None:
            parent = page.fns[parent.trigger_after]
        assert parent._id in loads, f"{fn.fn.__name__} runs after the page's load"
    switch = component(page, "language-switch")
    switched = next(fn for fn in page.fns.values() if (switch._id, "input") in fn.targets)
    following = {runs(fn.fn): [block.elem_id for block in fn.outputs] for fn in page.fns.values() if fn.trigger_after == switched._id}
    assert following[reworded_message] == ["compare-message"] and following[reworded_template] == ["batch-user"]
    assert following[ratio_preview_html] == ["images-ratio-preview"] and following[reworded] == ["video-board", "video-model-notes"]
    assert following[PriceEditor.reworded] == ["batch-prices-table"]
