"""Values are sent as typed or refused with the field named (issue 20): nothing is rounded,
replaced or reset on the way, whether typed in a number box, written in a JSON editor or
loaded from a session file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import gradio as gr
import pytest

from playground.client.errors import RequestValidationError
from playground.client.video_catalog import Mode
from playground.ui.tabs.chat.handlers import ChatForm
from playground.ui.tabs.embeddings.handlers import EmbeddingsForm, check_form
from playground.ui.shared.forms import optional_positive, whole
from playground.ui.tabs.messages.handlers import MessagesForm
from playground.ui.tabs.native.handlers import NativeForm
from playground.ui.tabs.responses.handlers import ResponsesForm
from playground.ui.tabs.video.form import FIELD_NAMES, VideoForm
from tests.security.page_events import build_page, compare_begin, load_session, session_file, untouched

USER = [{"role": "user", "content": "hi"}]
NATIVE_USER = [{"role": "user", "parts": [{"text": "hi"}]}]


@pytest.fixture(scope="module")
def page() -> Iterator[gr.Blocks]:
    yield build_page()


def component(blocks: gr.Blocks, elem_id: str) -> Any:
    return next(block for block in blocks.blocks.values() if getattr(block, "elem_id", None) == elem_id)


def test_no_number_box_rounds_what_is_typed(page: gr.Blocks) -> None:
    numbers = [block for block in page.blocks.values() if isinstance(block, gr.Number)]
    assert numbers and all(number.precision is None for number in numbers), [n.elem_id for n in numbers if n.precision is not None]
    for elem_id in ("chat-max-tokens", "responses-max-tokens", "messages-max-tokens", "native-max-tokens", "compare-max-tokens",
                    "embeddings-dimensions", "video-seed"):
        assert component(page, elem_id).preprocess(1.5) == 1.5


def test_embeddings_dimensions_minus_five_reaches_our_message(page: gr.Blocks) -> None:
    assert component(page, "embeddings-dimensions").preprocess(-5) == -5  # no Gradio "less than minimum" toast
    with pytest.raises(RequestValidationError, match="dimensions"):
        check_form(EmbeddingsForm(texts="a", dimensions=-5))


BUILDERS = {
    "chat": (lambda tokens: ChatForm(model="gx-2.5-flash", max_tokens=tokens).request(USER).to_body(), "max_tokens"),
    "responses": (lambda tokens: ResponsesForm(model="gx-2.5-flash", max_output_tokens=tokens).request(USER).to_body(), "max_output_tokens"),
    "messages": (lambda tokens: MessagesForm(model="cl-haiku-4-5-20251001", max_tokens=tokens).request(USER).to_body(), "max_tokens"),
    "native": (lambda tokens: NativeForm(model="gx-2.5-flash", max_output_tokens=tokens).request(NATIVE_USER).to_body(), "maxOutputTokens"),
}


@pytest.mark.parametrize("tab", list(BUILDERS))
def test_max_tokens_one_and_a_half_is_refused_in_every_text_tab(tab: str) -> None:
    build, name = BUILDERS[tab]
    with pytest.raises(RequestValidationError) as caught:
        build(1.5)
    assert name in str(caught.value) and "1.5" in str(caught.value)
    body = build(2.0)  # a whole number typed as 2 arrives as 2.0 from the page: sent as the integer 2
    found = body.get(name, body.get("generationConfig", {}).get(name))
    assert found == 2 and isinstance(found, int)


async def test_compare_max_tokens_one_and_a_half_is_refused(page: gr.Blocks) -> None:
    banner = await compare_begin(page, {"compare-message": "hello", "compare-max-tokens": 1.5})
    assert "max output tokens" in banner["value"] and "1.5" in banner["value"]


@pytest.mark.parametrize(("value", "words"), [(2.5, "whole number"), ("two", "not a number"), (True, "not a number"), (float("nan"), "whole number")])
def test_whole_refuses_what_is_not_a_whole_number(value: object, words: str) -> None:
    with pytest.raises(RequestValidationError, match=words):
        whole("seed", value)
    assert whole("seed", 2.0) == 2 and whole("seed", None) is None and optional_positive(0) is None


def test_embeddings_dimensions_two_and_a_half_is_refused() -> None:
    with pytest.raises(RequestValidationError, match="Dimensions: must be a whole number"):
        check_form(EmbeddingsForm(texts="a", dimensions=2.5))


def test_video_seed_two_and_a_half_is_refused() -> None:
    values: dict[str, Any] = {name: None for name in FIELD_NAMES}
    values.update(model="vidB-3.0-fast-generate-001", mode=Mode.TEXT.value, prompt="a kite", duration=8, seed=2.5)
    with pytest.raises(RequestValidationError, match="seed: must be a whole number"):
        VideoForm(**values).to_input()


@pytest.mark.parametrize("tools", ['[{"type": "function", "function": {"name": "f", "parameters": {"maximum": NaN}}}]',
                                   '[{"type": "function", "function": {"name": "f", "parameters": {"maximum": Infinity}}}]'])
def test_a_nan_in_tools_json_is_refused_not_sent_as_null(tools: str) -> None:
    with pytest.raises(RequestValidationError, match="Tools: not valid JSON"):
        ChatForm(model="gx-2.5-flash", tools_json=tools).request(USER)


@pytest.mark.parametrize(("form", "field"), [
    ({"model": "vidA-2", "duration": 7}, "duration"),
    ({"model": "vidA-2", "count": -4}, "count"),
    ({"model": "vidA-2", "frames": "many"}, "frames"),
    ({"model": "vidD-1-0-pro-250528", "resolution": "9000p"}, "resolution"),
])
def test_a_video_session_file_is_never_changed_on_the_way_in(page: gr.Blocks, tmp_path: Path, form: dict, field: str) -> None:  # type: ignore[type-arg]
    status, outputs, _ = load_session(page, "video", session_file("video", form), tmp_path)
    assert field in status and not status.startswith("Loaded"), status
    assert all(untouched(value) for name, value in outputs.items() if name != "video-session-status")
