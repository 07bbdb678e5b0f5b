"""Hole 1 of issue 20: reading the server's files through a value handed to a file component.

A session file is data from a stranger: every way it can name a file (a path in a message, a
file part, a dict, `..`, a symbolic link, URL forms) is refused as a whole, with our message,
and nothing on screen changes. Only files the app created (`ui/web/shown_files.py`) are ever
handed to a Gradio file component, whatever the browser or the gateway sends."""

from __future__ import annotations

import base64
import io
import os
from collections.abc import Iterator
from pathlib import Path

import gradio as gr
import pytest
from PIL import Image

from playground.client.images import GeneratedImage, ImagesResult
from playground.client.results import TextResult
from playground.ui.tabs.images.state import Generation
from playground.ui.conversation.turns import Session
from playground.ui.tabs.images.views import gallery_items, history_items
from playground.ui.shared.render import result_messages
from playground.ui.web.shown_files import media_root, new_file, shown_history, shown_path
from playground.ui.tabs.video.board import VideoBoard, VideoJob, gallery_items as video_items
from tests.security.page_events import build_page, event, load_session, session_file, untouched

SECRET = Path.cwd() / "README.md"  # a non-hidden file under the working directory: what the hole served


@pytest.fixture(scope="module")
def page() -> Iterator[gr.Blocks]:
    blocks = build_page()
    yield blocks


def png(colour: str = "teal") -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (5, 3), colour).save(buffer, format="PNG")
    return buffer.getvalue()


def link_to_secret(folder: Path) -> str:
    link = folder / "innocent.png"
    link.symlink_to(SECRET)
    return str(link)


PATH_FORMS = [
    pytest.param(lambda tmp: {"path": str(SECRET)}, id="dict-content"),
    pytest.param(lambda tmp: [{"type": "text", "text": "see"}, {"path": str(SECRET)}], id="path-part"),
    pytest.param(lambda tmp: [{"type": "file", "file": {"path": str(SECRET), "mime_type": "text/plain"}}], id="gradio-file-part"),
    pytest.param(lambda tmp: [{"type": "file", "file": {"path": f"{media_root()}/../../../{SECRET}"}}], id="dot-dot"),
    pytest.param(lambda tmp: [{"path": link_to_secret(tmp)}], id="symlink"),
    pytest.param(lambda tmp: [{"path": f"file://{SECRET}"}], id="file-url"),
    pytest.param(lambda tmp: [{"path": f"/gradio_api/file={SECRET}"}], id="gradio-file-url"),
    pytest.param(lambda tmp: [{"type": "file", "file": {"url": f"http://127.0.0.1:7860/gradio_api/file={SECRET}"}}], id="url-part"),
    pytest.param(lambda tmp: [{"type": "component", "component": "image", "value": {"path": str(SECRET)}}], id="component-part"),
]


@pytest.mark.parametrize("content", PATH_FORMS)
@pytest.mark.parametrize("tab", ["chat", "responses", "messages", "native"])
def test_a_session_file_naming_a_file_is_refused_and_changes_nothing(page: gr.Blocks, tmp_path: Path, tab: str, content: object) -> None:
    document = session_file(tab, {}, [{"role": "user", "content": content(tmp_path)}], [])  # type: ignore[operator]
    status, outputs, _ = load_session(page, tab, document, tmp_path)
    assert "refers to a file on the server by path" in status or "references to files or URLs are never followed" in status, status
    assert "Something went wrong" not in status and str(SECRET.read_text()[:40]) not in status
    assert all(untouched(value) for name, value in outputs.items() if name != f"{tab}-session-status")


@pytest.mark.parametrize(("where", "document"), [
    ("sent", session_file("chat", {}, [], [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "x"}, "path": str(SECRET)}]}])),
    ("form", session_file("images", {"prompt": {"path": str(SECRET)}})),
    ("top level", {**session_file("chat"), "path": str(SECRET)}),
])
def test_a_path_anywhere_in_the_file_is_refused(page: gr.Blocks, tmp_path: Path, where: str, document: dict) -> None:  # type: ignore[type-arg]
    tab = document["tab"]
    status, outputs, _ = load_session(page, tab, document, tmp_path)
    assert "by path" in status or "must be text" in status, status
    assert all(untouched(value) for name, value in outputs.items() if name != f"{tab}-session-status")


def test_a_version_1_file_loads_without_its_attachments_and_says_so(page: gr.Blocks, tmp_path: Path) -> None:
    shown = [{"role": "user", "content": [{"type": "text", "text": "look"}, {"path": str(SECRET)}]}, {"role": "assistant", "content": "ok"}]
    status, outputs, _ = load_session(page, "chat", session_file("chat", {"system": "v1"}, shown, [{"role": "user", "content": "look"}], 1), tmp_path)
    assert "1 attachment(s) were not loaded: version 1 files refer to files by path" in status
    history = outputs["chat-chatbot"]
    assert history[0]["content"][1] == {"type": "text", "text": "[attachment README.md not loaded: version 1 session files refer to files by path, which are never opened]"}
    assert "'path'" not in str(history) and outputs["chat-system"] == "v1"


def test_attachments_travel_as_data_and_become_files_the_app_made(page: gr.Blocks, tmp_path: Path) -> None:
    data = base64.b64encode(png()).decode()
    shown = [{"role": "user", "content": [{"type": "text", "text": "a square"}, {"type": "file", "name": "sq.png", "mime_type": "image/png", "data": data}]}]
    status, outputs, _ = load_session(page, "chat", session_file("chat", {}, shown, [{"role": "user", "content": "a square"}]), tmp_path)
    assert status.startswith("Loaded"), status
    made = outputs["chat-chatbot"][0]["content"][1]["path"]
    assert shown_path(made) == made and Path(made).read_bytes() == png()


@pytest.mark.parametrize(("part", "words"), [
    ({"type": "file", "name": "x.png", "mime_type": "image/png", "data": base64.b64encode(b"not a picture").decode()}, "not a readable PNG"),
    ({"type": "file", "name": "x.png", "mime_type": "image/png", "data": "%%%not base64%%%"}, "not valid base64"),
    ({"type": "file", "name": "x.pdf", "mime_type": "application/pdf", "data": base64.b64encode(b"#!/bin/sh").decode()}, "not a PDF"),
    ({"type": "file", "name": "x.png", "mime_type": "image/png", "data": "QUFB" * (20 * 1024 * 1024)}, "larger than"),
    ({"type": "file", "name": "x.png", "mime_type": "image/png"}, "conversation.shown"),
])
def test_attachment_data_is_checked_like_an_upload(page: gr.Blocks, tmp_path: Path, part: dict, words: str) -> None:  # type: ignore[type-arg]
    status, outputs, _ = load_session(page, "chat", session_file("chat", {}, [{"role": "user", "content": [part]}]), tmp_path)
    assert words in status, status[:300]
    assert untouched(outputs["chat-chatbot"])


def test_saving_embeds_the_attachment_and_a_fresh_page_gets_a_new_file(page: gr.Blocks, tmp_path: Path) -> None:
    save = event(page, "on_save", input_with="chat-chatbot")
    attachment = new_file("uploads", "mine.png", png("navy"))
    history = [{"role": "user", "content": [{"type": "text", "text": "mine"}, {"type": "file", "file": {"path": attachment}}]}]
    values = [history, Session(messages=[{"role": "user", "content": "mine"}]), *save.current_values(skip=2)]
    download, _ = save.fn(*values)
    saved = Path(download["value"])
    assert shown_path(str(saved)) and str(attachment) not in saved.read_text() and '"path"' not in saved.read_text()
    status, outputs, _ = load_session(page, "chat", saved.read_bytes(), tmp_path)
    made = outputs["chat-chatbot"][0]["content"][1]["path"]
    assert status.startswith("Loaded") and made != attachment and Path(made).read_bytes() == png("navy")


@pytest.mark.parametrize("value", [str(SECRET), f"{media_root()}/../../../{SECRET}", "/etc/hostname", "", None, 5, "\x00", f"{media_root()}"])
def test_shown_path_takes_only_files_under_the_media_root(value: object) -> None:
    assert shown_path(value) is None


def test_a_link_inside_the_media_root_to_a_file_outside_is_not_shown() -> None:
    folder = Path(new_file("tests", "placeholder.txt", "x")).parent
    link = folder / "looks-fine.png"
    link.symlink_to(SECRET)
    assert shown_path(str(link)) is None
    assert shown_history([{"role": "assistant", "content": [{"path": str(link)}]}])[0]["content"][0]["type"] == "text"


def test_the_video_gallery_pick_plays_only_files_the_app_made(page: gr.Blocks) -> None:
    handlers = [f for f in page.fns.values() if f.name == "pick_video" and not f.inputs]  # the path comes in the event data
    assert len(handlers) == 1
    made = new_file("videos", "clip.mp4", b"\x00\x00\x00\x18ftypmp42")
    for path in (str(SECRET), f"{media_root()}/../../{SECRET}", "/etc/passwd"):
        assert untouched(handlers[0].fn(gr.SelectData(None, {"index": 0, "value": {"video": {"path": path}}})))
    assert handlers[0].fn(gr.SelectData(None, {"index": 0, "value": {"video": {"path": made}}})) == os.path.realpath(made)


def test_results_from_a_gateway_reach_components_only_as_app_files() -> None:
    outside = GeneratedImage(SECRET, "PNG", 1, 1, 1)
    generation = Generation(1, "text", "p", {}, {}, None, ImagesResult([outside]))
    assert gallery_items(generation) == [] and history_items([generation]) == []
    result = TextResult()
    result.files = [str(SECRET)]
    assert all("path" not in str(m["content"]) for m in result_messages(result, True))
    board = VideoBoard()
    board.jobs["t"] = VideoJob("t", "vidA-2", "p", 0.0, state="succeeded", video_path=SECRET)
    assert video_items(board) == []


def test_a_history_without_files_keeps_its_message_objects(tmp_path: Path) -> None:
    """The chat keeps what it showed as the same objects (the chatbot finds them by identity); a
    message with a file part is a new, checked message."""
    text = {"role": "user", "content": "hello"}
    parts = {"role": "assistant", "content": [{"type": "text", "text": "hi"}]}
    outside = {"role": "user", "content": [{"path": str(tmp_path / "secret.txt")}]}
    checked = shown_history([text, parts, outside])
    assert checked[0] is text and checked[1] is parts
    assert checked[2] is not outside and checked[2]["content"][0]["type"] == "text"
