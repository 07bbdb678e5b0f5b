"""Data from outside reaches the screen only whole and checked (issue 20): a pasted curl command
is validated against the same request models a send uses, and a session file as a whole, before
any output changes. A refusal names the field; every form output is left as it was."""

from __future__ import annotations

import json
import shlex
import time
from collections.abc import Iterator
from pathlib import Path

import gradio as gr
import pytest

from playground.ui.conversation.turns import Session
from tests.security.page_events import TABS, Event, build_page, import_command, load_session, session_file, untouched

GW = "https://gw.example"


@pytest.fixture(scope="module")
def page() -> Iterator[gr.Blocks]:
    yield build_page()


def curl(path: str, body: object) -> str:
    return f"curl {GW}{path} -H 'Authorization: Bearer sk-import-4711' -d {shlex.quote(json.dumps(body))}"


def assert_refused(status: str, outputs: list[object], *words: str) -> None:
    status = status.replace("\\", "")  # the message is Markdown: its brackets arrive escaped
    for word in words:
        assert word in status, status
    assert "Opened the" not in status and "Something went wrong" not in status
    assert untouched(outputs[0]) and untouched(outputs[1])  # the tab stays, the pasted command stays (to fix)
    assert all(untouched(value) for value in outputs[3:]), "a refused import changed the URL, the key or a form field"
    assert "sk-import-4711" not in status


CHAT = {"model": "gx-2.5-pro", "messages": [{"role": "user", "content": "hi"}]}


@pytest.mark.parametrize(("command", "words"), [
    (curl("/v1/chat/completions", {**CHAT, "max_tokens": "many"}), ("max_tokens", "'many'")),
    (curl("/v1/chat/completions", {**CHAT, "max_tokens": 1.5}), ("max_tokens", "fractional")),
    (curl("/v1/chat/completions", {**CHAT, "temperature": [1]}), ("temperature",)),
    (curl("/v1/chat/completions", {"model": "gx-2.5-pro", "messages": [{"role": "wizard", "content": 5}]}), ("messages[0].role", "wizard")),
    (curl("/v1/chat/completions", {**CHAT, "messages": "hi"}), ("messages",)),
    (curl("/v1/chat/completions", {**CHAT, "stream": "yes please"}), ("stream",)),
    (curl("/v1/messages", {"model": "cl-haiku-4-5-20251001", "max_tokens": "lots", "messages": [{"role": "user", "content": "hi"}]}), ("max_tokens",)),
    (curl("/v1/messages", {"model": "cl-haiku-4-5-20251001", "max_tokens": 9, "top_k": 2.5, "messages": [{"role": "user", "content": "hi"}]}), ("top_k",)),
    (curl("/v1beta/models/gx-2.5-flash:generateContent", {"contents": [{"role": "user", "parts": [{"text": "hi"}]}], "generationConfig": [1]}), ("generationConfig",)),
    (curl("/v1beta/models/gx-2.5-flash:generateContent", {"contents": "hi"}), ("contents",)),
    (curl("/v1beta/models/gx-2.5-flash:generateContent", {"contents": [{"role": "user", "parts": "hi"}]}), ("parts",)),
    (curl("/v1/responses", {"model": "gx-2.5-pro", "input": "hi", "reasoning": [1]}), ("reasoning",)),
    (curl("/v1/responses", {"model": "gx-2.5-pro", "input": 5}), ("input",)),
    (curl("/v1/embeddings", {"model": "text-embedding-3-small", "input": ["a"], "dimensions": "wide"}), ("dimensions", "'wide'")),
    (curl("/v1/embeddings", {"model": "text-embedding-3-small", "input": ["a"], "dimensions": -5}), ("dimensions",)),
    (curl("/v1/images/generations", {"model": "gx-2.5-flash-image", "prompt": 5}), ("prompt",)),
    (curl("/v1/images/generations", {"model": "gx-2.5-flash-image", "prompt": "a kite", "n": "two"}), ("n", "'two'")),
    (curl("/v1/images/generations", {"model": "gx-2.5-flash-image", "prompt": "a kite", "size": 7}), ("size",)),
    (curl("/v1/images/generations", {"model": "gx-2.5-flash-image", "prompt": "a kite", "image_size": "9K"}), ("image_size",)),
    (curl("/v1/images/generations", {"model": "gx-2.5-flash-image", "prompt": "a kite", "n": 2.5}), ("n",)),
    (curl("/v1/video/generations", {"model": "vidZ-9", "prompt": "a kite"}), ("model", "vidZ-9")),
    (curl("/v1/video/generations", {"model": "vidA-2", "prompt": "a kite", "seconds": "7"}), ()),
    (f"curl {GW}/v1/chat/completions -d '[1, 2]'", ("JSON object",)),
    (f"curl {GW}/v1/chat/completions -d '{{\"model\": \"m\", \"max_tokens\": NaN, \"messages\": []}}'", ("NaN",)),
    (f"curl {GW}/v1/chat/completions -d '{'[' * 100_000}{']' * 100_000}'", ("nested more than",)),
    (f"curl {GW}/v1/chat/completions -d '{{\"model\": \"m\", \"messages\": [{{\"role\": \"user\", \"content\": \"\\ud800\"}}]}}'", ("broken character",)),
    ("curl $'\\x00\\xff\\u12'", ("escape",)),
    ("curl $'https://gw.example/v1/chat/completions' -d $'{\\x00}'", ("not valid JSON",)),
])
def test_a_curl_import_of_the_wrong_shape_is_refused_whole_with_the_field_named(page: gr.Blocks, command: str, words: tuple[str, ...]) -> None:
    status, outputs = import_command(page, command)
    assert_refused(status, outputs, *words)


def test_a_deep_body_is_refused_quickly(page: gr.Blocks) -> None:
    started = time.perf_counter()
    body = '{"a":' * 100_000 + "1" + "}" * 100_000
    status, outputs = import_command(page, f"curl {GW}/v1/chat/completions -d '{body}'")
    assert_refused(status, outputs, "nested more than")
    assert time.perf_counter() - started < 5


def test_a_good_import_still_opens_its_tab(page: gr.Blocks) -> None:
    status, _outputs = import_command(page, curl("/v1/chat/completions", {**CHAT, "max_tokens": 300, "enable_thinking": True}))
    assert "Opened the **Chat** tab" in status, status


# --- session files ---------------------------------------------------------------------------

@pytest.mark.parametrize(("tab", "form", "words"), [
    ("chat", {"max_tokens": "lots"}, ("max_tokens", "'lots'", "is not a number")),
    ("chat", {"max_tokens": 1.5}, ("max_tokens", "whole number")),
    ("chat", {"stream": "yes"}, ("stream", "true or false")),
    ("chat", {"system": 5}, ("system", "must be text")),
    ("chat", {"temperature": 9}, ("temperature", "outside")),
    ("chat", {"reasoning_effort": "extreme"}, ("reasoning_effort", "'extreme'")),
    ("chat", {"model": ""}, ("model",)),
    ("responses", {"max_output_tokens": "lots"}, ("max_output_tokens",)),
    ("messages", {"max_tokens": "lots"}, ("max_tokens",)),
    ("messages", {"model": "gx-2.5-pro"}, ("cl-",)),
    ("native", {"max_output_tokens": "lots"}, ("max_output_tokens",)),
    ("native", {"thinking": "telepathy"}, ("thinking",)),
    ("embeddings", {"dimensions": "wide"}, ("dimensions", "'wide'")),
    ("embeddings", {"dimensions": -5}, ("dimensions",)),
    ("embeddings", {"formats": "list"}, ("formats",)),
    ("images", {"tier": "9K"}, ("tier", "'9K'")),
    ("images", {"n": 99}, ("n",)),
    ("video", {"model": "vidZ-9"}, ("model", "vidZ-9")),
    ("video", {"model": "vidA-2", "duration": 7}, ("duration", "7", "would become")),
    ("video", {"model": "vidA-2", "count": -4}, ("count", "-4")),
    ("video", {"model": "vidA-2", "frames": "many"}, ("frames", "'many'")),
    ("video", {"model": "vidB-3.0-fast-generate-001", "seed": 2.5}, ("seed", "whole number")),
])
def test_a_session_file_with_a_wrong_value_is_refused_whole(page: gr.Blocks, tmp_path: Path, tab: str, form: dict, words: tuple[str, ...]) -> None:  # type: ignore[type-arg]
    status, outputs, _ = load_session(page, tab, session_file(tab, form), tmp_path)
    for word in words:
        assert word in status.replace("\\", ""), status
    assert not status.startswith("Loaded") and "Something went wrong" not in status
    assert all(untouched(value) for name, value in outputs.items() if name != f"{tab}-session-status")


@pytest.mark.parametrize(("shown", "sent", "words"), [
    ([{"role": "wizard", "content": 5}], [], ("conversation.shown[0].role",)),
    ([], [{"role": "wizard", "content": 5}], ("messages[0].role", "wizard")),
    ([{"role": "user", "content": "x", "script": "alert(1)"}], [], ("script",)),
    ("not a list", [], ("conversation.shown",)),
    ([{"role": "user", "content": "\ud800"}], [], ("broken character",)),
])
def test_a_session_file_with_a_wrong_conversation_is_refused_whole(page: gr.Blocks, tmp_path: Path, shown: object, sent: object,
                                                                   words: tuple[str, ...]) -> None:
    document = session_file("chat", {}, [], [])
    document["conversation"] = {"shown": shown, "sent": sent}
    raw = json.dumps(document)
    status, outputs, _ = load_session(page, "chat", raw, tmp_path)
    for word in words:
        assert word in status.replace("\\", ""), status
    assert all(untouched(value) for name, value in outputs.items() if name != "chat-session-status")


@pytest.mark.parametrize("tab", TABS)
def test_a_saved_session_of_every_tab_loads_back(page: gr.Blocks, tmp_path: Path, tab: str) -> None:
    """The checks refuse what cannot be sent, not what the tab itself saved."""
    save = saver(page, tab)
    with_conversation = tab in TABS[:4]
    said = [{"role": "user", "content": "hello"}] if tab == "chat" else []
    values = ([said, Session(messages=list(said))] if with_conversation else [])
    download, _ = save.fn(*values, *save.current_values(skip=2 if with_conversation else 0))
    status, outputs, _ = load_session(page, tab, Path(download["value"]).read_bytes(), tmp_path)
    assert status.startswith("Loaded"), status
    if with_conversation:
        assert outputs[f"{tab}-chatbot"] == said


def saver(page: gr.Blocks, tab: str) -> Event:
    for block_fn in page.fns.values():
        if block_fn.name == "on_save" and f"{tab}-session-download" in [getattr(c, "elem_id", None) for c in block_fn.outputs]:
            return Event(block_fn.fn, list(block_fn.inputs), list(block_fn.outputs))
    raise LookupError(tab)
