"""`first_paint_locale` (`gradio_compat/first_paint.py`): what the page's first-paint script relies on is still in
Gradio's bundle and page template, the page is served with the script once, before Gradio's app, and nothing is
installed while the patches are off. (That the page then starts in Chinese for `zh-SG`, `zh-Hans` and `zh` is
shown in Chromium: tests/e2e/test_first_paint_language_browser.py.)"""

from __future__ import annotations

from collections.abc import Iterator

import gradio as gr
import gradio.routes
import httpx
import pytest

from playground import gradio_compat
from playground.gradio_compat import first_paint
from playground.gradio_compat.marks import patch_of
from playground.ui.i18n import languages
from playground.ui.i18n.language import chosen_js

PORT = 7981


def test_gradios_locale_pick_and_page_are_as_the_script_expects() -> None:
    assert first_paint.moved_in_frontend() == []
    own = first_paint.gradio_locales()
    assert {"en", "zh-CN", "zh-TW"} <= set(own) and "zh" not in own and "zh-SG" not in own, own


@pytest.fixture(scope="module")
def page_url() -> Iterator[str]:
    with gr.Blocks() as blocks:
        gr.Markdown("hello")
    blocks.launch(server_name="127.0.0.1", server_port=PORT, prevent_thread_lock=True, quiet=True)
    try:
        yield f"http://127.0.0.1:{PORT}/"
    finally:
        blocks.close()


def test_the_page_is_served_with_the_script_once_before_gradios_app(page_url: str) -> None:
    assert gradio_compat.apply()
    gradio_compat.first_paint_in_language(chosen_js(languages()))
    gradio_compat.first_paint_in_language(chosen_js(languages()))  # a second build replaces the script, never adds one
    assert patch_of(gradio.routes.templates.TemplateResponse) == first_paint.PATCH
    page = httpx.get(page_url, timeout=30).text
    script = first_paint.first_paint_script(chosen_js(languages()), first_paint.gradio_locales())
    assert page.count(script) == 1 and page.index(script) < page.index(first_paint.MODULE_SCRIPT.decode())
    assert '"zh-sg": "zh-CN"' in script and "Object.defineProperty(navigator, \"language\"" in script
    assert int(httpx.head(page_url, timeout=30).headers["content-length"]) == len(page.encode()), "the length counts the script"


def test_nothing_is_installed_while_the_patches_are_off(monkeypatch: pytest.MonkeyPatch) -> None:
    installed: list[str] = []
    monkeypatch.setattr(first_paint, "install", installed.append)
    monkeypatch.setattr(gradio_compat, "_state", {"active": False, "refusal_logged": True})
    gradio_compat.first_paint_in_language("() => 'zh-CN'")
    assert installed == []
