"""Saved sessions: a round trip keeps form and conversation; broken or foreign files change nothing."""

from __future__ import annotations

import base64
import io
import json
from pathlib import Path

import pytest
from PIL import Image

from playground.client.errors import RequestValidationError
from playground.ui.conversation.turns import Session
from playground.ui.session_files.document import read_session
from playground.ui.session_files.panel import VERSION, read_session_document, session_document
from playground.ui.web.shown_files import new_file, shown_path

FIELDS = ["model", "system", "temperature", "stream"]


def png_bytes() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (6, 4), "orange").save(buffer, format="PNG")
    return buffer.getvalue()


def saved(tmp_path: Path) -> dict:  # type: ignore[type-arg]
    image = new_file("tests", "cat.png", png_bytes())  # an attachment the app made (an upload's copy)
    history = [{"role": "user", "content": [{"type": "text", "text": "look"}, {"path": image}]},
               {"role": "assistant", "content": "A cat."}]
    session = Session(messages=[{"role": "user", "content": "look"}, {"role": "assistant", "content": "A cat."}])
    form = {"model": "gx-2.5-pro", "system": "Be brief.", "temperature": 0.3, "stream": True, "upload": {"path": "/x"}}
    return session_document("chat", form, history, session)


def test_round_trip_keeps_form_and_conversation_with_attachments_as_data(tmp_path: Path) -> None:
    document = saved(tmp_path)
    assert "upload" not in document["form"] and document["version"] == VERSION == 2
    attachment = document["conversation"]["shown"][0]["content"][1]
    assert attachment["type"] == "file" and attachment["mime_type"] == "image/png" and base64.b64decode(attachment["data"]) == png_bytes()
    assert "path" not in json.dumps(document)
    form, history, session = read_session_document(json.dumps(document).encode(), "chat", FIELDS)
    assert form == {"model": "gx-2.5-pro", "system": "Be brief.", "temperature": 0.3, "stream": True}
    shown = history[0]["content"][1]["path"]
    assert shown_path(shown) == shown and Path(shown).read_bytes() == png_bytes()  # a new file the app created from the data
    assert history[1] == {"role": "assistant", "content": "A cat."} and session.messages == document["conversation"]["sent"]


def test_a_version_1_file_loads_without_its_attachments_and_says_so(tmp_path: Path) -> None:
    document = {**saved(tmp_path), "version": 1}
    document["conversation"]["shown"][0]["content"][1] = {"path": str(Path.cwd() / "README.md")}
    loaded = read_session(json.dumps(document).encode(), "chat", FIELDS)
    assert loaded.history[0]["content"][1]["text"].startswith("[attachment README.md not loaded: version 1")
    assert loaded.notes == ["1 attachment(s) were not loaded: version 1 files refer to files by path, which are never opened"]


@pytest.mark.parametrize(("change", "words"), [
    (lambda d: "{not json", "not valid JSON"),
    (lambda d: {**d, "format": "something-else"}, "not a saved session of this playground"),
    (lambda d: {**d, "version": VERSION + 1}, "saved by a newer playground"),
    (lambda d: {**d, "version": 0}, "version 0 session"),
    (lambda d: {**d, "tab": "messages"}, "open it in that tab"),
    (lambda d: {**d, "form": {"model": "m", "api_key": "x"}}, "does not have: api_key"),
    (lambda d: {**d, "conversation": {"shown": "x", "sent": []}}, "conversation.shown: Input should be a valid list"),
])
def test_broken_or_foreign_files_are_refused(tmp_path: Path, change: object, words: str) -> None:
    document = change(saved(tmp_path))  # type: ignore[operator]
    raw = document.encode() if isinstance(document, str) else json.dumps(document).encode()
    with pytest.raises(RequestValidationError) as caught:
        read_session_document(raw, "chat", FIELDS)
    assert words in str(caught.value)
