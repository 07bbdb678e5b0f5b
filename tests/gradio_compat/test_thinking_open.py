"""`keep_thinking_open` (`gradio_compat/thinking.py`): what the page script relies on is still in
Gradio's page bundle, and off a supported version the script does nothing."""

from __future__ import annotations

import gradio
import pytest

from playground import gradio_compat
from playground.gradio_compat import thinking


def test_the_thought_component_is_drawn_as_the_script_expects() -> None:
    assert thinking.moved_in_frontend() == []


def test_the_script_opens_and_pins_titles_on_a_supported_version_only(monkeypatch: pytest.MonkeyPatch) -> None:
    script = gradio_compat.keep_thinking_open_js()
    assert thinking.TITLE_SELECTOR in script and thinking.PINNED_ATTRIBUTE in script
    monkeypatch.setattr(gradio, "__version__", "99.0.0")
    assert gradio_compat.keep_thinking_open_js() == "(root) => {}"
