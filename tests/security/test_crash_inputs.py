"""Inputs a visitor can give that used to crash (issue 20): each gets our message, changes
nothing it should not and loses nothing typed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import gradio as gr
import pytest
from gradio.data_classes import FileData
from gradio.state_holder import SessionState

from playground.client.errors import RequestValidationError
from playground.client.video_catalog import VIDEO_MODELS
from playground.demo_gateway.server import RunningGateway
from playground.ui.tabs.chat.handlers import ChatAdapter, ChatForm
from playground.ui.shared.connection import ServerDefaults, checked_base_url, resolve_connection
from playground.ui.conversation.turns import Session, begin_send, begin_tool_result
from playground.ui.tabs.messages.handlers import MessagesAdapter, MessagesForm
from playground.ui.tabs.native.handlers import NativeAdapter, NativeForm
from playground.ui.tabs.responses.handlers import ResponsesAdapter, ResponsesForm
from playground.ui.shared.uploaded_image import UploadedImage, uploaded_image
from playground.ui.tabs.video.board import VideoBoard
from playground.ui.tabs.video.form import FIELD_NAMES, VideoForm
from playground.ui.tabs.video.handlers import submit_job
from tests.conftest import DEMO_KEY
from tests.security.page_events import build_page, compare_begin

LONE = "half a pair \ud800 here"
KEPT = [{"role": "user", "content": "kept"}, {"role": "assistant", "content": "still here"}]
ADAPTERS = {
    "chat": lambda: ChatAdapter(None, ChatForm(model="gx-2.5-flash")),  # type: ignore[arg-type]
    "responses": lambda: ResponsesAdapter(None, ResponsesForm(model="gx-2.5-flash")),  # type: ignore[arg-type]
    "messages": lambda: MessagesAdapter(None, MessagesForm(model="cl-haiku-4-5-20251001")),  # type: ignore[arg-type]
    "native": lambda: NativeAdapter(None, NativeForm(model="gx-2.5-flash")),  # type: ignore[arg-type]
}


@pytest.fixture(scope="module")
def page() -> Iterator[gr.Blocks]:
    yield build_page()


def sendable(value: Any) -> bool:
    """What Gradio can send to the page (orjson refuses lone surrogates)."""
    import orjson

    try:
        orjson.dumps(value, default=str)
    except TypeError:
        return False
    return True


@pytest.mark.parametrize("tab", list(ADAPTERS))
@pytest.mark.parametrize("draft", [LONE, {"text": LONE, "files": []}, "\udfff", "ok \ud83d"])
def test_a_lone_surrogate_in_a_prompt_is_refused_before_the_chat_changes(tab: str, draft: object) -> None:
    view = begin_send(ADAPTERS[tab](), draft, list(KEPT), Session(messages=list(KEPT)))  # type: ignore[arg-type]
    assert "broken character" in view.error and "Something went wrong" not in view.error
    assert view.history == KEPT and view.session.messages == KEPT and not view.clear_draft and not view.session.ready
    assert sendable(view.history) and sendable(view.error)


def test_a_lone_surrogate_in_a_tool_result_is_refused() -> None:
    adapter = ADAPTERS["chat"]()
    session = Session(messages=[*KEPT])
    from playground.client.results import ToolCall

    session.pending = [ToolCall("call-1", "get_weather", "{}")]
    view = begin_tool_result(adapter, LONE, list(KEPT), session)
    assert "broken character" in view.error and view.history == KEPT and session.pending and not view.clear_draft


async def test_a_lone_surrogate_in_the_compare_prompt_is_refused(page: gr.Blocks) -> None:
    for field in ("compare-message", "compare-system"):
        banner = await compare_begin(page, {"compare-message": "hello", field: LONE})
        assert "broken character" in banner["value"] and sendable(banner)


def fake_png(folder: Path) -> str:
    path = folder / "holiday.png"
    path.write_text("this is a text file with a .png name\n" * 10)
    return str(path)


def test_the_image_inputs_do_not_decode_uploads_themselves(tmp_path: Path) -> None:
    """Gradio's gr.Image opens the file with Pillow before the handler: a fake PNG failed there."""
    path = fake_png(tmp_path)
    assert uploaded_image().preprocess(FileData(path=path, orig_name="holiday.png")) == path
    assert uploaded_image().preprocess(None) is None
    with pytest.raises(gr.Error, match="Upload the image as a file"):
        uploaded_image().preprocess(FileData(path=path, url="data:image/png;base64,AAAA"))


def test_the_app_uses_the_checked_image_input_for_every_image_upload(page: gr.Blocks) -> None:
    images = [block for block in page.blocks.values() if isinstance(block, gr.Image) and block.interactive is not False]
    assert {image.elem_id for image in images} == {"compare-image", "video-first-frame", "video-last-frame"}
    assert all(isinstance(image, UploadedImage) for image in images)
    config = page.get_config_file()
    drawn = {c["props"].get("elem_id"): c["type"] for c in config["components"] if c.get("props", {}).get("elem_id") in
             {"compare-image", "video-first-frame", "video-last-frame"}}
    assert drawn == dict.fromkeys(("compare-image", "video-first-frame", "video-last-frame"), "image"), "drawn as Gradio's own image"


async def test_an_image_input_an_event_has_updated_still_hands_over_the_path(tmp_path: Path) -> None:
    """An event that updates an input (the Video tab shows its frame inputs per mode) leaves the
    session with its own copy of it, built from its class: that copy checks uploads the same way."""
    path = fake_png(tmp_path)
    with gr.Blocks() as blocks:
        image, shown = uploaded_image(visible=False), gr.Textbox()
        gr.Button().click(lambda: gr.update(visible=True), None, image)
        gr.Button().click(lambda value: value, image, shown)
    show, read = blocks.fns.values()
    session = SessionState(blocks)
    await blocks.postprocess_data(show, gr.update(visible=True), session)
    assert type(session[image._id]) is UploadedImage and session[image._id] is not image
    handed = await blocks.preprocess_data(read, [FileData(path=path, orig_name="holiday.png").model_dump()], session, explicit_call=True)
    assert handed[0].endswith("holiday.png"), "the fake PNG was opened before the handler's check"


async def test_a_fake_png_on_the_compare_image_is_explained(page: gr.Blocks, tmp_path: Path) -> None:
    banner = await compare_begin(page, {"compare-message": "what is this?", "compare-image": fake_png(tmp_path)})
    assert "holiday.png is not a readable PNG, JPEG, WebP or GIF image" in banner["value"]


async def test_a_fake_png_as_the_video_first_frame_is_explained(gateway: RunningGateway, client: Any, tmp_path: Path) -> None:
    model = next(m for m in VIDEO_MODELS if any(mode.needs_first_frame for mode in m.modes))
    mode = next(mode for mode in model.modes if mode.needs_first_frame)
    values: dict[str, Any] = {name: None for name in FIELD_NAMES}
    values.update(model=model.id, mode=mode.value, prompt="a kite", duration=model.durations[0], first_frame=fake_png(tmp_path))
    outcome = await submit_job(client, ServerDefaults(gateway.url, DEMO_KEY, demo=True), VideoBoard(), "", "", VideoForm(**values))
    assert "first frame" in outcome.error and "not a readable PNG" in outcome.error


@pytest.mark.parametrize(("url", "words"), [
    ("http://0177.0.0.1:7600", "ambiguous form"),
    ("http://0x7f.0.0.1:7600", "ambiguous form"),
    ("http://127.1:7600", "ambiguous form"),
    ("http://2130706433:7600", "ambiguous form"),
    ("http://①②⑦.0.0.1:7600", "special digits"),
    ("http://１２７.0.0.1:7600", "special digits"),
    ("http://xn--abc:7600", "cannot be used"),
])
def test_base_urls_httpx_cannot_use_are_refused_with_the_reason(url: str, words: str) -> None:
    with pytest.raises(RequestValidationError, match=words):
        checked_base_url(url)
    with pytest.raises(RequestValidationError, match=words):
        resolve_connection(ServerDefaults("http://127.0.0.1:9", "k"), url, "")


@pytest.mark.parametrize("url", ["http://127.0.0.1:7600", "https://api.example.com", "http://[::1]:8000", "https://münchen.example"])
def test_ordinary_base_urls_still_pass(url: str) -> None:
    assert checked_base_url(url) == url


async def test_compare_with_every_model_blank_says_what_is_missing(page: gr.Blocks) -> None:
    blanks = {f"compare-model-{index}": "" for index in range(4)}
    page_ids = {getattr(block, "elem_id", None) for block in page.blocks.values()}
    banner = await compare_begin(page, {"compare-message": "hello", **{k: v for k, v in blanks.items() if k in page_ids}})
    assert "every column's model is empty" in banner["value"]
