"""The page is built from `TABS`: every entry is a tab of the page, in order, named in every
language, and the fields its links and examples name are on the page; a link to any tab opens it."""

from __future__ import annotations

import gradio as gr
import pytest

from playground.settings import Settings
from playground.ui.app import build_app
from playground.ui.i18n import CATALOGUE
from playground.ui.shared.connection import ServerDefaults
from playground.ui.shared.links import LinkOpener
from playground.ui.tabs.registry import TABS, links


@pytest.fixture(scope="module")
def page() -> gr.Blocks:
    return build_app(Settings(), ServerDefaults("http://127.0.0.1:9", "k", demo=True))


def _by_elem_id(page: gr.Blocks) -> dict[str, object]:
    return {block.elem_id: block for block in page.blocks.values() if getattr(block, "elem_id", None)}


def test_every_tab_is_on_the_page_in_the_registrys_order(page: gr.Blocks) -> None:
    tabs = [block for block in page.blocks.values() if isinstance(block, gr.Tab) and block.elem_id and block.elem_id.startswith("tab-")]
    assert [tab.elem_id for tab in tabs] == [tab.elem_id for tab in TABS]
    assert len({tab.id for tab in TABS}) == len(TABS)


def test_every_tab_is_named_in_every_language() -> None:
    for texts in CATALOGUE.texts.values():
        assert all(texts.get(tab.label_key) for tab in TABS)


def test_the_fields_links_and_examples_name_are_on_the_page(page: gr.Blocks) -> None:
    present = _by_elem_id(page)
    for tab in TABS:
        named = [tab.example_box] + ([tab.link.model, tab.link.text, tab.link.preset, *(elem_id for _, elem_id in tab.link.settings)] if tab.link else [])
        missing = [elem_id for elem_id in named if elem_id is not None and elem_id not in present]
        assert not missing, f"{tab.id}: {missing}"


@pytest.mark.parametrize("tab", [tab.id for tab in TABS])
def test_a_link_to_any_tab_opens_it(page: gr.Blocks, tab: str) -> None:
    tabs = next(block for block in page.blocks.values() if isinstance(block, gr.Tabs))
    opener = LinkOpener(page, tabs, links(), None, gr.Markdown(visible=False))
    selected, notice, _ = opener.values({"tab": tab}, None)
    assert getattr(selected, "selected", None) == tab and not notice.get("visible")
