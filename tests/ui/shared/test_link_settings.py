"""Links hold a tab's settings besides model, preset and text: Images' aspect ratio, Batch's
templates and columns, the Report's profile. Every value is read as data from a stranger: taken
only as its component allows (a choice, a list of choices, bounded plain text) and otherwise
named in the notice and ignored; a parameter of another tab is unknown here."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qsl, urlencode

import gradio as gr
import pytest

from playground.settings import Settings
from playground.ui.app import build_app
from playground.ui.shared.connection import ServerDefaults
from playground.ui.shared.links import MAX_LISTED, MAX_SETTING, MAX_TEXT, LinkOpener, show_link
from playground.ui.tabs.registry import TABS, links


@pytest.fixture(scope="module")
def page() -> Iterator[gr.Blocks]:
    yield build_app(Settings(), ServerDefaults("http://127.0.0.1:9", "sk-unused", demo=True))


@pytest.fixture(scope="module")
def opener(page: gr.Blocks) -> LinkOpener:
    tabs = next(block for block in page.blocks.values() if isinstance(block, gr.Tabs))
    return LinkOpener(page, tabs, links(), None, gr.Markdown(visible=False))


def opened(opener: LinkOpener, params: dict[str, str]) -> tuple[Any, str, dict[str, Any]]:
    """(tab selected, the notice's text, {elem_id: value} of what the link set)."""
    selected, notice, values = opener.values(params, None)
    shown = {component.elem_id: value for component, value in zip(opener.outputs, values)
             if not (isinstance(value, dict) and set(value) == {"__type__"})}
    return getattr(selected, "selected", None), notice.get("value", "") if notice.get("visible") else "", shown


def test_every_tab_has_copy_link_and_its_settings_are_on_the_page(page: gr.Blocks) -> None:
    ids = {getattr(block, "elem_id", None) for block in page.blocks.values()}
    for tab in TABS:
        assert tab.link is not None and f"{tab.id}-copy-link" in ids, tab.id
        assert all(elem_id in ids for _, elem_id in tab.link.settings), tab.id


def test_images_keeps_the_aspect_ratio(opener: LinkOpener) -> None:
    assert opened(opener, {"tab": "images", "ratio": "16:9", "q": "A fox"}) == ("images", "", {"images-ratio": "16:9", "images-prompt": "A fox"})
    _, notice, shown = opened(opener, {"tab": "images", "ratio": "7:5"})  # a ratio of the box's own (it takes any)
    assert shown == {"images-ratio": "7:5"} and not notice


def test_batch_opens_with_its_templates_and_columns(opener: LinkOpener) -> None:
    params = {"tab": "batch", "q": "Capital of {{country}}?", "system": "One word.", "format1": "chat", "model1": "gx-2.5-pro",
              "format2": "messages", "model2": "cl-sonnet-4-5-20250929", "format3": "responses", "model3": "gx-2.5-flash"}
    tab, notice, shown = opened(opener, params)
    assert tab == "batch" and not notice
    assert shown == {"batch-user": "Capital of {{country}}?", "batch-system": "One word.", "batch-format-0": "chat", "batch-model-0": "gx-2.5-pro",
                     "batch-format-1": "messages", "batch-model-1": "cl-sonnet-4-5-20250929", "batch-format-2": "responses",
                     "batch-model-2": "gx-2.5-flash"}


def test_batch_opens_with_each_columns_own_settings(opener: LinkOpener) -> None:
    params = {"tab": "batch", "temperature": "0.7", "temperature1": "0.2", "tokens2": "64", "stream1": "off"}
    tab, notice, shown = opened(opener, params)
    assert tab == "batch" and not notice
    assert shown == {"batch-temperature": "0.7", "batch-col-temperature-0": "0.2", "batch-col-max-tokens-1": "64", "batch-col-stream-0": "off"}
    _, notice, shown = opened(opener, {"tab": "batch", "stream1": "sometimes", "tokens1": "8"})
    assert "`stream1`" in notice and shown == {"batch-col-max-tokens-0": "8"}


def test_the_batch_data_set_and_graders_are_known_to_its_link_and_left_to_the_tab(opener: LinkOpener) -> None:
    """`data` and `graders` are the Batch tab's own to read (`tabs/batch/linked.py`): known there, set in no box by the
    opener, and unknown to another tab."""
    tab, notice, shown = opened(opener, {"tab": "batch", "q": "{{question}}", "data": "eNoLSS0u0Q", "graders": "x" * 5000})
    assert tab == "batch" and not notice and shown == {"batch-user": "{{question}}"}
    _, notice, shown = opened(opener, {"tab": "chat", "data": "eNoLSS0u0Q"})
    assert "`data`" in notice and shown == {}


def test_report_opens_with_its_profile(opener: LinkOpener) -> None:
    params = {"tab": "report", "depth": "thorough", "formats": "chat,messages", "checks": "plain,stream",
              "models": "chat completions · gx-2.5-flash"}
    tab, notice, shown = opened(opener, params)
    assert tab == "report" and not notice, notice
    assert shown == {"report-depth": "thorough", "report-formats": ["chat", "messages"], "report-checks": ["plain", "stream"],
                     "report-models": ["chat completions · gx-2.5-flash"]}


@pytest.mark.parametrize(("params", "named"), [
    ({"tab": "report", "depth": "forever"}, "depth"),
    ({"tab": "report", "formats": "chat,chat"}, "formats"),  # twice
    ({"tab": "report", "formats": "chat,smtp"}, "formats"),
    ({"tab": "report", "checks": ",".join(["plain"] * (MAX_LISTED + 1))}, "checks"),
    ({"tab": "batch", "format1": "gopher"}, "format1"),
    ({"tab": "batch", "model1": "x" * (MAX_SETTING + 1)}, "model1"),
    ({"tab": "batch", "model1": "gx\n2"}, "model1"),
    ({"tab": "batch", "system": "\x00"}, "system"),
    ({"tab": "batch", "system": "s" * (MAX_TEXT + 1)}, "system"),
    ({"tab": "images", "ratio": "16:9\u202e"}, "ratio"),
    ({"tab": "chat", "ratio": "16:9"}, "ratio"),  # Images' setting, not Chat's
    ({"tab": "report", "format1": "chat"}, "format1"),
])
def test_a_value_a_component_cannot_take_is_named_and_nothing_of_it_is_set(opener: LinkOpener, params: dict[str, str], named: str) -> None:
    tab, notice, shown = opened(opener, params)
    assert tab == params["tab"] and f"`{named}`" in notice and shown == {}, (notice, shown)


def test_the_copy_script_writes_each_setting_under_its_parameter(page: gr.Blocks, opener: LinkOpener) -> None:
    """What Copy link sends to the browser: the parameter of each input, in the inputs' order."""
    for tab in ("images", "batch", "report"):
        event = next(fn for fn in page.fns.values() if fn.fn is show_link and fn.outputs[0].elem_id == f"{tab}-link")
        names = json.loads(re.search(r"const names = (\[.*?\]);", event.js).group(1))
        fields = {**{"model": "model", "q": "text", "preset": "preset"}, **{name: name for name in opener.settings_of(tab)}}
        written = {name: f"{tab}-link-{name}" for name in next(t for t in TABS if t.id == tab).link.written}  # type: ignore[union-attr]
        assert [getattr(c, "elem_id", None) for c in event.inputs[1:-1]] == [written.get(name) or opener.fields[tab][fields[name]].elem_id
                                                                          for name in names], tab
        assert set(names) >= set(opener.settings_of(tab)) | set(written), tab
    link = urlencode({"tab": "report", "depth": "thorough", "formats": "chat,native"})
    assert opened(opener, dict(parse_qsl(link)))[2] == {"report-depth": "thorough", "report-formats": ["chat", "native"]}


RUN_SETTINGS = {"repeats": ("3", "batch-repeats", 3), "concurrency": ("3", "batch-concurrency", 3), "tokens": ("64", "batch-max-tokens", 64),
                "stream": ("false", "batch-stream", False), "cache": ("true", "batch-cache", True),
                "mocks": ('[{"name": "get_weather", "answer": "sunny"}]', "batch-mock-tools", '[{"name": "get_weather", "answer": "sunny"}]'),
                "tools2": ("true", "batch-col-tools-1", True), "prompt1": ("Explain like I'm five @ v2", "batch-col-prompt-0", "Explain like I'm five @ v2")}
"""Issue 40: every run-level box of the Batch form, a column's "offer the mocked tools" and its prompt library version (read against
the opener's library when Run is pressed) (parameter: text, elem_id, value set)."""


def test_batch_opens_with_every_run_setting(opener: LinkOpener) -> None:
    tab, notice, shown = opened(opener, {"tab": "batch", "temperature": "0.7", **{name: text for name, (text, _, _) in RUN_SETTINGS.items()}})
    assert tab == "batch" and not notice, notice
    assert shown == {"batch-temperature": "0.7", **{elem_id: value for _, elem_id, value in RUN_SETTINGS.values()}}
    assert opened(opener, {"tab": "batch", "stream": "true", "cache": "false", "tokens": "0", "repeats": "1.5"})[2] == {
        "batch-stream": True, "batch-cache": False, "batch-max-tokens": 0, "batch-repeats": 1.5}  # 1.5 repeats: Run refuses it by name, as typed


@pytest.mark.parametrize(("name", "text"), [
    ("repeats", "0"), ("repeats", "21"), ("repeats", "three"), ("repeats", "nan"), ("repeats", "inf"), ("repeats", "0x3"), ("repeats", " 3"),
    ("concurrency", "2.5"), ("concurrency", "0"), ("concurrency", "9999"),  # a slider's step, and its bounds (this server's at most 8)
    ("tokens", "1e400"), ("tokens", "1" * 30), ("tokens", ""),
    ("stream", "yes"), ("stream", "1"), ("cache", "True"), ("tools2", "on"),
    ("mocks", "[]\x00"), ("mocks", "x" * (MAX_TEXT + 1)), ("prompt1", "p @ v1\n"), ("prompt1", "p" * (MAX_SETTING + 1)),
])
def test_a_run_setting_the_box_cannot_take_is_named_and_the_rest_of_the_link_opens(opener: LinkOpener, name: str, text: str) -> None:
    tab, notice, shown = opened(opener, {"tab": "batch", name: text, "temperature": "0.7", "cache": "true"} if name != "cache" else
                                {"tab": "batch", name: text, "temperature": "0.7"})
    assert tab == "batch" and f"`{name}`" in notice, notice
    assert RUN_SETTINGS[name][1] not in shown and shown["batch-temperature"] == "0.7", shown
