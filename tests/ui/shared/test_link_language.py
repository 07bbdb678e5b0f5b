"""A link carries the page's language (`?lang=zh-CN`): the link reader passes over it without a word
(a known parameter of every tab, whatever its value), the tab's other parameters are read as before,
and the handlers of a page opened by such a link speak its language, ahead of the cookie; a value
no language answers to (a stranger's) is ignored, bounded before it is looked up."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import gradio as gr
import pytest
from gradio.context import LocalContext
from starlette.datastructures import QueryParams

from playground.ui.i18n import CATALOGUE, languages, say, visitor_language
from playground.ui.i18n.language import LANGUAGE_COOKIE, LANGUAGE_PARAMETER, MAX_LINK_TAG, link_locale
from playground.ui.shared.links import KNOWN_PARAMETERS, LinkOpener, TabLink, unknown_parameters

ZH = CATALOGUE.texts["zh-CN"]
EN = CATALOGUE.texts["en"]


@pytest.fixture(scope="module")
def opener() -> LinkOpener:
    with gr.Blocks() as blocks:
        with gr.Tabs() as tabs, gr.Tab("Images", id="images"):
            gr.Textbox(elem_id="images-prompt")
            gr.Dropdown(["1:1", "16:9"], value="1:1", elem_id="images-ratio")
        link = TabLink(None, "images-prompt", False, None, settings=(("ratio", "images-ratio"),))
        return LinkOpener(blocks, tabs, {"images": link}, None, LinkOpener.notice_box())


def opened(opener: LinkOpener, params: dict[str, str]) -> tuple[Any, str, dict[str, Any]]:
    """(tab selected, the notice's text, {elem_id: value} of what the link set)."""
    selected, notice, values = opener.values(params, None)
    shown = {component.elem_id: value for component, value in zip(opener.outputs, values)
             if not (isinstance(value, dict) and set(value) == {"__type__"})}
    return getattr(selected, "selected", None), notice.get("value", "") if notice.get("visible") else "", shown


@pytest.mark.parametrize("value", ["zh-CN", "zh-cn", "en", "fr", "__proto__", "", "zh-CN,en", "x" * 100_000])
def test_lang_is_known_to_every_tab_and_never_named_whatever_its_value(opener: LinkOpener, value: str) -> None:
    tab, notice, shown = opened(opener, {"tab": "images", "q": "A lighthouse", "ratio": "16:9", LANGUAGE_PARAMETER: value})
    assert tab == "images" and notice == ""
    assert shown == {"images-prompt": "A lighthouse", "images-ratio": "16:9"}, "the tab's other parameters are read as before"
    assert LANGUAGE_PARAMETER in KNOWN_PARAMETERS and unknown_parameters({LANGUAGE_PARAMETER: value}) == []


def test_a_link_with_only_lang_opens_no_tab_and_says_nothing(opener: LinkOpener) -> None:
    assert opened(opener, {LANGUAGE_PARAMETER: "zh-CN"}) == (None, "", {})
    _, notice, _ = opened(opener, {LANGUAGE_PARAMETER: "zh-CN", "tab": "images", "colour": "red"})
    assert "colour" in notice and LANGUAGE_PARAMETER + "=" not in notice and "`lang`" not in notice


@pytest.mark.parametrize(("value", "code"), [
    ("zh-CN", "zh-CN"), ("ZH-cn", "zh-CN"), ("zh", "zh-CN"), ("zh-Hans", "zh-CN"), ("zh-SG", "zh-CN"), ("en", "en"),
    ("zh-TW", None), ("fr", None), ("zh-CN,en;q=0.5", None), (" zh-CN", None), ("__proto__", None), ("constructor", None),
    ("", None), (None, None), ("zh" + " " * MAX_LINK_TAG, None),
])
def test_a_links_language_is_one_of_the_known_tags_exactly(value: str | None, code: str | None) -> None:
    locale = link_locale(value, languages())
    assert (locale.code if locale else None) == code


@contextmanager
def event(query: dict[str, str], cookie: str = "", accept_language: str = "en-US") -> Iterator[None]:
    """Inside an event of a page whose address has `query`, from a browser with `cookie`."""
    request = gr.Request(headers={"cookie": cookie, "accept-language": accept_language}, query_params=query)
    token = LocalContext.request.set(request)
    try:
        yield
    finally:
        LocalContext.request.reset(token)


def test_the_handlers_of_a_linked_page_speak_its_language_ahead_of_the_cookie() -> None:
    with event({"tab": "chat", LANGUAGE_PARAMETER: "zh-CN"}, cookie=f"{LANGUAGE_COOKIE}=en"):
        assert visitor_language() == "zh-CN" and say("note.nothing_to_retry") == ZH["note.nothing_to_retry"]
    with event({"tab": "chat", LANGUAGE_PARAMETER: "en"}, cookie=f"{LANGUAGE_COOKIE}=zh-CN", accept_language="zh-CN"):
        assert visitor_language() == "en"
    with event({"tab": "chat"}, cookie=f"{LANGUAGE_COOKIE}=zh-CN"):  # the switch took `lang` off the address: the cookie
        assert visitor_language() == "zh-CN"


@pytest.mark.parametrize("value", ["fr", "zh-TW", "x" * 10_000, "__proto__"])
def test_an_unknown_lang_leaves_the_cookie_and_the_browser_to_decide(value: str) -> None:
    with event({LANGUAGE_PARAMETER: value}):
        assert visitor_language() == "en" and say("note.nothing_to_retry") == EN["note.nothing_to_retry"]
    with event({LANGUAGE_PARAMETER: value}, cookie=f"{LANGUAGE_COOKIE}=zh-CN"):
        assert visitor_language() == "zh-CN"


def test_a_repeated_lang_is_read_as_its_last_value_as_the_page_reads_it() -> None:
    """Starlette's query (what a handler's request holds) answers a repeated parameter's last value;
    the page's load script and a cut link (`long_links.cut_query`) read the last one too."""
    request = gr.Request(headers={"accept-language": "en-US"}, query_params=QueryParams("tab=chat&lang=en&lang=zh-CN"))
    token = LocalContext.request.set(request)
    try:
        assert visitor_language() == "zh-CN"
    finally:
        LocalContext.request.reset(token)
