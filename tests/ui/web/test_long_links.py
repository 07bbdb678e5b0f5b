"""A link too long to open is cut to its tab and its size, and keeps its language when it is one of
ours (`lang`), so the page and its note about the cut come in the language the sender meant."""

from __future__ import annotations

from urllib.parse import parse_qs

import pytest

from playground.ui.web.long_links import CUT_PARAMETER, cut_query


@pytest.mark.parametrize(("query", "kept"), [
    (b"tab=batch&q=" + b"x" * 50_000 + b"&lang=zh-CN", {"tab": ["batch"], "lang": ["zh-CN"]}),
    (b"lang=zh-Hans&tab=images&q=" + b"x" * 50_000, {"tab": ["images"], "lang": ["zh-CN"]}),  # an alias: the locale's code
    (b"lang=fr&tab=chat&q=" + b"x" * 50_000, {"tab": ["chat"]}),
    (b"tab=chat&lang=" + b"zh-CN" * 10_000, {"tab": ["chat"]}),
    (b"lang=%E4%B8%AD&lang=zh-CN&q=" + b"x" * 50_000, {"lang": ["zh-CN"]}),
    (b"tab=chat&lang=en&lang=zh-CN", {"tab": ["chat"], "lang": ["zh-CN"]}),  # the last, as the page and its handlers read it
    (b"tab=chat&lang=zh-CN&lang=fr", {"tab": ["chat"]}),
])
def test_a_cut_link_keeps_its_tab_and_a_known_language(query: bytes, kept: dict[str, list[str]]) -> None:
    assert parse_qs(cut_query(query)) == {**kept, CUT_PARAMETER: [str(len(query))]}
