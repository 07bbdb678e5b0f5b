"""Links that open a state, made hostile (issue 35): a 100 KB `?q=` gave a blank 400 page, text
that was not valid UTF-8 arrived as U+FFFD without a word, and thousands of unknown parameters
were said in one endless line (or, past 64 KB, not at all). The page route of the real app in
hosted mode over HTTP, and the link reader's notice in both languages."""

from __future__ import annotations

import http.client
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import gradio as gr
import httpx
import pytest

from playground.ui.web.long_links import CUT_PARAMETER, MAX_LINK_BYTES
from tests.security.page_events import build_page
from tests.security.page_session import LaunchedApp, launched
from tests.ui.i18n.test_i18n_views import both


@pytest.fixture(scope="module")
def hosted_app() -> Iterator[LaunchedApp]:
    with launched(hosted=True) as app:
        yield app


@pytest.fixture(scope="module")
def open_link() -> Any:
    """The page's link reader (its load event), called with a link's query parameters."""
    blocks = build_page()
    reader = next(f.fn for f in blocks.fns.values() if getattr(f.fn, "__module__", "") == "playground.ui.shared.links" and f.fn.__name__ == "on_load")

    def opened(params: dict[str, str]) -> tuple[Any, str, list[Any]]:
        request = type("Request", (), {"query_params": params})()
        tab, notice, *values = reader(None, request)
        return tab, (notice.get("value") or "") if notice.get("visible") else "", values

    return opened


def _get(app: LaunchedApp, target: str) -> http.client.HTTPResponse:
    """A GET as a browser sends it, of any length (httpx refuses URLs over 64 KB itself)."""
    address = urlsplit(app.url)
    connection = http.client.HTTPConnection(address.hostname or "", address.port, timeout=30)
    connection.request("GET", target)
    response = connection.getresponse()
    response.read()
    connection.close()
    return response


def test_a_100_kb_link_opens_the_page_cut_and_says_so(hosted_app: LaunchedApp, open_link: Any) -> None:
    long = _get(hosted_app, "/?tab=images&q=" + "x" * 100_000)
    assert long.status == 303
    params = parse_qs(urlsplit(long.headers["location"]).query)
    assert params == {"tab": ["images"], CUT_PARAMETER: ["100013"]}
    with httpx.Client(timeout=30) as client:
        page = client.get(f"{hosted_app.url}/" + long.headers["location"])
        assert page.status_code == 200 and "gradio_config" in page.text
    assert _get(hosted_app, "/?q=" + "x" * (MAX_LINK_BYTES - 2)).status == 200  # a link within the bound opens as it is
    tab, _notice, values = open_link({"tab": "images", CUT_PARAMETER: "100013"})
    assert tab.selected == "images" and all(value == gr.skip() for value in values)
    english, chinese = both(lambda: open_link({"tab": "images", CUT_PARAMETER: "100013"})[1])
    assert "100 KB long" in english and "40 KB" in english
    assert "长 100 KB" in chinese and "40 KB" in chinese


def test_text_that_was_not_utf8_is_said_to_be_damaged(open_link: Any) -> None:
    _, _notice, values = open_link({"q": "\ufffd\ufffd\ufffd"})  # what the page sends for ?q=%ED%A0%80
    assert any(value == {"text": "\ufffd\ufffd\ufffd", "files": []} for value in values)  # shown, so it can be fixed
    english, chinese = both(lambda: open_link({"q": "caf\ufffd"})[1])
    assert "not valid UTF-8" in english and "q" in english and "不是有效的 UTF-8" in chinese
    assert open_link({"q": "café"})[1] == ""  # valid text: nothing to say


def test_thousands_of_unknown_parameters_are_named_up_to_ten_then_counted(open_link: Any) -> None:
    params = {f"p{n}": "1" for n in range(3000)} | {"q": "hello"}
    _, notice, values = open_link(params)
    assert "`p0`" in notice and "`p9`" in notice and "`p10`" not in notice and "and 2,990 more" in notice
    assert len(notice) < 2_000 and any(value == {"text": "hello", "files": []} for value in values)
    chinese = both(lambda: open_link(params)[1])[1]
    assert "另外 2,990 个" in chinese
