"""An example sets every field it depends on and resets the others to the tab's defaults, so
nothing an earlier example, curl import or preset left behind changes what it shows (issue 21)."""

from __future__ import annotations

from typing import Any

import gradio as gr
import pytest

from playground.settings import Settings
from playground.ui.app import build_app
from playground.ui.shared.connection import ServerDefaults
from playground.ui.i18n import CATALOGUE
from playground.ui.shared.examples import initial_value
from tests.ui.page_model import browser_fill

CONVERSATION_TABS = ("chat", "responses", "messages", "native")
KEPT = {"native": {"native-auth"}}


@pytest.fixture(scope="module")
def app() -> gr.Blocks:
    return build_app(Settings(), ServerDefaults("http://127.0.0.1:9", "k", demo=True))


def _by_id(app: gr.Blocks) -> dict[str, Any]:
    return {block.elem_id: block for block in app.blocks.values() if getattr(block, "elem_id", None)}


def _trigger(app: gr.Blocks, component: Any, event: str) -> Any:
    return next(fn for fn in app.fns.values() if (component._id, event) in fn.targets)


def example_fill(app: gr.Blocks, tab: str, index: int) -> dict[str, Any]:
    """{elem_id: value} a click on example `index` of `tab` puts in the page."""
    dependency = _trigger(app, _by_id(app)[f"{tab}-example-{index}"], "click")
    values = browser_fill(dependency)  # the browser fills the fields itself (issue 26)
    values = values if len(dependency.outputs) > 1 else [values]
    return {component.elem_id: value for component, value in zip(dependency.outputs, values, strict=True)}


def form_of(app: gr.Blocks, tab: str) -> list[Any]:
    """The components a send reads (the form and the message box), from the send event itself."""
    ids = _by_id(app)
    send = _trigger(app, ids[f"{tab}-input"], "submit")
    return [c for c in send.inputs if c.elem_id not in (f"{tab}-chatbot", None) and not c.elem_id.startswith("connection-")]


@pytest.mark.parametrize("tab", CONVERSATION_TABS)
def test_every_example_sets_or_resets_every_field_a_send_reads(app: gr.Blocks, tab: str) -> None:
    derived = {f"{tab}-variables-table"}  # rebuilt from the message box by the page (`draft_keys`) and its key's change event
    form = [c for c in form_of(app, tab) if c.elem_id not in KEPT.get(tab, set()) | derived]
    assert len(form) > 5
    index = 0
    while f"{tab}-example-{index}" in _by_id(app):
        filled = example_fill(app, tab, index)
        missing = [c.elem_id for c in form if c.elem_id not in filled]
        assert not missing, f"{tab} example {index} leaves {missing} as an earlier click left them"
        assert filled[f"{tab}-input"]["text"]
        index += 1
    assert index >= 2


def test_examples_reset_what_they_do_not_name_to_the_defaults(app: gr.Blocks) -> None:
    ids = _by_id(app)
    riddle, weather = example_fill(app, "chat", 0), example_fill(app, "chat", 1)
    assert weather["chat-tools"].startswith("[") and riddle["chat-tools"] == "" and riddle["chat-schema"] == ""
    assert riddle["chat-temperature"] == initial_value(ids["chat-temperature"]) == 0.7 and riddle["chat-stream"] is True
    chain = example_fill(app, "responses", 1)
    assert chain["responses-chain"] is True and chain["responses-model"] == "gpt-4.1"
    assert chain["responses-summary"] == "", "a model without reasoning gets no reasoning summary (it would warn)"
    thinking = example_fill(app, "messages", 0)
    assert thinking["messages-model"] == initial_value(ids["messages-model"]) and thinking["messages-stream"] is True
    assert thinking["messages-temperature"] == 1.0 and thinking["messages-system"] == "" and thinking["messages-thinking"] is True


def test_compare_examples_set_the_columns_of_the_preset_they_name(app: gr.Blocks) -> None:
    filled = example_fill(app, "compare", 0)
    assert [filled[f"compare-format-{i}"] for i in range(4)] == ["chat", "responses", "messages", "native"]
    assert filled["compare-model-2"].startswith("cl-") and filled["compare-thinking"] is False


def _inside(block: Any, elem_id: str) -> bool:
    parent = getattr(block, "parent", None)
    while parent is not None:
        if getattr(parent, "elem_id", None) == elem_id:
            return True
        parent = getattr(parent, "parent", None)
    return False


def test_batchs_prompt_library_example_is_a_card_in_the_tabs_example_row(app: gr.Blocks) -> None:
    ids = _by_id(app)
    for button in ("batch-example-0", "batch-prompt-example"):
        assert _inside(ids[button], "batch-examples"), f"{button} is outside Batch's example row"
    assert _trigger(app, ids["batch-prompt-example"], "click") is not None  # still wired by the tab


def test_compares_examples_ask_in_the_pages_language(app: gr.Blocks) -> None:
    """Issue 40: in Chinese, Compare's examples filled English questions."""
    zh = CATALOGUE.texts["zh-CN"]
    for index, key in enumerate(("compare.example.riddle_message", "compare.example.thinking_message")):
        dependency = _trigger(app, _by_id(app)[f"compare-example-{index}"], "click")
        asked = {language: dict(zip((c.elem_id for c in dependency.outputs), browser_fill(dependency, language), strict=True))["compare-message"]
                 for language in ("en", "zh-CN")}
        assert asked == {"en": CATALOGUE.texts["en"][key], "zh-CN": zh[key]}
        assert "link_language" not in dependency.js and "gateway-playground-language" in dependency.js, "the page's language, read at the click"


WORD_BOXES = {
    "chat": ("chat-input",), "responses": ("responses-input",), "messages": ("messages-input",), "native": ("native-input",),
    "compare": ("compare-message",), "images": ("images-prompt", "images-refine-instruction"), "video": ("video-prompt",),
    "embeddings": ("embeddings-texts", "embeddings-query"),
}
"""Each tab's boxes an example fills with words a person reads (a question, a prompt, texts to embed)."""


def _words(value: Any) -> str:
    return value["text"] if isinstance(value, dict) else value


@pytest.mark.parametrize("tab", sorted(WORD_BOXES))
def test_every_examples_words_are_asked_in_the_pages_language(app: gr.Blocks, tab: str) -> None:
    """Issue 40: the examples of every tab filled English questions and prompts on a Chinese page. Each box of words an
    example fills holds the catalogue's words of the page's language: English on an English page, Chinese on a Chinese one."""
    texts = {language: set(CATALOGUE.texts[language].values()) for language in ("en", "zh-CN")}
    index, filled_any = 0, False
    while f"{tab}-example-{index}" in _by_id(app):
        dependency = _trigger(app, _by_id(app)[f"{tab}-example-{index}"], "click")
        ids = [c.elem_id for c in dependency.outputs]
        by_language = {language: dict(zip(ids, browser_fill(dependency, language) if len(ids) > 1 else [browser_fill(dependency, language)],
                                          strict=True)) for language in ("en", "zh-CN")}
        for box in WORD_BOXES[tab]:
            english, chinese = (_words(by_language[language].get(box, "")) for language in ("en", "zh-CN"))
            if not english:
                continue  # the example leaves this box empty
            filled_any = True
            assert english in texts["en"], f"{tab} example {index} fills {box} with words outside the catalogue: {english!r}"
            assert chinese in texts["zh-CN"] and chinese != english, f"{tab} example {index} fills {box} with English on a Chinese page"
        index += 1
    assert index and filled_any
