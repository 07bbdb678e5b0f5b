"""Saved sessions: a round trip keeps form and conversation; broken or foreign files change nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from playground.client.errors import RequestValidationError
from playground.ui.conversation import Session
from playground.ui.session_file import VERSION, read_session_document, session_document

FIELDS = ["model", "system", "temperature", "stream"]


def saved(tmp_path: Path) -> dict:  # type: ignore[type-arg]
    image = tmp_path / "cat.png"
    image.write_bytes(b"png")
    history = [{"role": "user", "content": [{"type": "text", "text": "look"}, {"path": str(image)}]},
               {"role": "assistant", "content": "A cat."}]
    session = Session(messages=[{"role": "user", "content": "look"}, {"role": "assistant", "content": "A cat."}])
    form = {"model": "gx-2.5-pro", "system": "Be brief.", "temperature": 0.3, "stream": True, "upload": {"path": "/x"}}
    return session_document("chat", form, history, session)


def test_round_trip_keeps_form_and_conversation(tmp_path: Path) -> None:
    document = saved(tmp_path)
    assert "upload" not in document["form"] and document["version"] == VERSION
    form, history, session = read_session_document(json.dumps(document).encode(), "chat", FIELDS)
    assert form == {"model": "gx-2.5-pro", "system": "Be brief.", "temperature": 0.3, "stream": True}
    assert history == document["conversation"]["shown"] and session.messages == document["conversation"]["sent"]


def test_attachments_that_are_gone_are_named(tmp_path: Path) -> None:
    document = saved(tmp_path)
    (tmp_path / "cat.png").unlink()
    _, history, _ = read_session_document(json.dumps(document).encode(), "chat", FIELDS)
    assert history[0]["content"][1] == {"type": "text", "text": "[attachment cat.png is not on this server any more]"}


@pytest.mark.parametrize(("change", "words"), [
    (lambda d: "{not json", "not JSON"),
    (lambda d: {**d, "format": "something-else"}, "not a saved session of this playground"),
    (lambda d: {**d, "version": VERSION + 1}, "saved by a newer playground"),
    (lambda d: {**d, "version": 0}, "version 0 session"),
    (lambda d: {**d, "tab": "messages"}, "open it in that tab"),
    (lambda d: {**d, "form": {"model": "m", "api_key": "x"}}, "does not have: api_key"),
    (lambda d: {**d, "conversation": {"shown": "x", "sent": []}}, "not a list of messages"),
])
def test_broken_or_foreign_files_are_refused(tmp_path: Path, change: object, words: str) -> None:
    document = change(saved(tmp_path))  # type: ignore[operator]
    raw = document.encode() if isinstance(document, str) else json.dumps(document).encode()
    with pytest.raises(RequestValidationError) as caught:
        read_session_document(raw, "chat", FIELDS)
    assert words in str(caught.value)
