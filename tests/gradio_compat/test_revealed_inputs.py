"""`keep_typed_on_reveal` (`gradio_compat/revealed.py`): what the page script relies on is still in
Gradio's page bundle, and the page gets the script only with the patches on. What it does in the
page: tests/e2e/test_revealed_inputs_browser.py and test_chinese_browser.py."""

from __future__ import annotations

import gradio as gr
import pytest

from playground import gradio_compat
from playground.gradio_compat import revealed


def test_the_reveal_is_drawn_as_the_script_expects() -> None:
    assert revealed.moved_in_frontend() == []


def page_scripts(active: bool, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    monkeypatch.setitem(gradio_compat._state, "active", active)
    with gr.Blocks() as blocks:
        gr.Number(0)
        gradio_compat.keep_typed_on_reveal(blocks)
    return [fn.js for fn in blocks.fns.values() if fn.js]


def test_the_page_gets_the_script_with_the_patches_on_only(monkeypatch: pytest.MonkeyPatch) -> None:
    scripts = page_scripts(True, monkeypatch)
    assert len(scripts) == 1 and revealed.MARK in scripts[0] and "render_previously_invisible_children" in scripts[0]
    assert all(f'"{key}"' in scripts[0] for key in revealed.LIVE_KEYS)
    assert page_scripts(False, monkeypatch) == []
