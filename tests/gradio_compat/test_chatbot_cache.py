"""The text tabs' chatbot remembers processed messages: the page gets exactly what Gradio's own
chatbot sends, and a streamed update re-processes only the messages that changed (issue 25)."""

from __future__ import annotations

import gc
import tracemalloc
from pathlib import Path

import gradio as gr
import pytest
from PIL import Image

from playground import gradio_compat
from playground.gradio_compat.chatbot import Chatbot, TextMessages, _Entry, _Processed
from playground.gradio_compat.marks import patch_of


@pytest.fixture(autouse=True)
def patched() -> None:
    """The chatbot remembers only with the patches on (off, it is Gradio's own)."""
    gradio_compat.apply()


def dumped(processed: object) -> list:
    """What Gradio sends of a postprocessed value (a text-only history is already dumped)."""
    return processed.model_dump() if hasattr(processed, "model_dump") else list(processed)  # type: ignore[call-overload]


def history(reply: str) -> list[dict]:
    return [
        {"role": "user", "content": "  Hello\n   there"},
        {"role": "assistant", "content": "Thinking it over", "metadata": {"title": "Reasoning", "status": "done"}},
        {"role": "assistant", "content": [{"type": "text", "text": "first part"}, {"type": "text", "text": "second"}]},
        {"role": "user", "content": "again"},
        {"role": "assistant", "content": reply},
    ]


def test_the_page_gets_what_gradios_chatbot_sends(tmp_path: Path) -> None:
    picture = tmp_path / "dot.png"
    Image.new("RGB", (2, 2), "red").save(picture)
    value = [*history("Hi <think>hmm</think> there"), {"role": "assistant", "content": [{"path": str(picture)}]}]
    for tags in (None, [("<think>", "</think>")]):
        ours, gradios = Chatbot(reasoning_tags=tags, render=False), gr.Chatbot(reasoning_tags=tags, render=False)
        for shown in (value, value[:-1]):  # with a file, and text only
            for _ in range(2):  # the second time from the cache
                assert dumped(ours.postprocess(shown)) == gradios.postprocess(shown).model_dump()
    assert isinstance(Chatbot(render=False).postprocess(value[:-1]), TextMessages), "a text-only history is dumped once, here"


def test_a_streamed_update_processes_only_the_changed_message(monkeypatch) -> None:
    processed: list[object] = []
    original = gr.Chatbot._postprocess

    def counting(self, message):
        processed.append(message["content"])
        return original(self, message)

    monkeypatch.setattr(gr.Chatbot, "_postprocess", counting)
    chatbot = Chatbot(render=False)
    chatbot.postprocess(history("The reply so"))
    processed.clear()
    shown = chatbot.postprocess(history("The reply so far, longer"))
    assert processed == ["The reply so far, longer"]
    processed.clear()
    chatbot.postprocess([*history("The reply so far, longer"), {"role": "user", "content": "next"}])
    assert processed == ["The reply so far, longer", "next"], "a finished reply is processed once more, then remembered"
    assert dumped(shown)[-1]["content"][0]["text"] == "The reply so far, longer"


def test_messages_with_files_are_processed_every_time(tmp_path: Path, monkeypatch) -> None:
    picture = tmp_path / "dot.png"
    Image.new("RGB", (2, 2), "blue").save(picture)
    processed: list[object] = []
    original = gr.Chatbot._postprocess
    monkeypatch.setattr(gr.Chatbot, "_postprocess", lambda self, message: processed.append(message) or original(self, message))
    chatbot = Chatbot(render=False)
    value = [{"role": "user", "content": [{"path": str(picture)}]}]
    chatbot.postprocess(value)
    chatbot.postprocess(value)
    assert len(processed) == 2


async def test_gradios_file_scan_gives_the_same_value_with_and_without_files(tmp_path: Path) -> None:
    from gradio import processing_utils

    picture = tmp_path / "dot.png"
    Image.new("RGB", (2, 2), "green").save(picture)
    chatbot = Chatbot(render=False)
    original = processing_utils.async_move_files_to_cache
    gradio_compat.apply()
    patched = processing_utils.async_move_files_to_cache
    text = chatbot.postprocess(history("a reply"))
    assert await patched(text, chatbot, postprocess=True) is text
    assert processing_utils.add_root_url([text, {"url": "/f"}], "http://h", None) == [text, {"url": "/f"}]
    with_file = chatbot.postprocess([*history("a reply"), {"role": "assistant", "content": [{"path": str(picture)}]}])
    scanned = await patched(with_file, chatbot, postprocess=True)
    assert scanned[-1]["content"][0]["file"]["url"], "a file part was not moved to Gradio's cache"
    if patch_of(original) is None:
        assert scanned == await original(with_file, chatbot, postprocess=True)


def test_the_root_url_walk_passes_text_through_and_still_reaches_files(tmp_path: Path) -> None:
    from gradio import processing_utils

    gradio_compat.apply()
    text = Chatbot(render=False).postprocess(history("a reply"))
    file_part = {"path": "x.png", "url": "/gradio_api/file=x.png", "meta": {"_type": "gradio.FileData"}}
    walked = processing_utils.add_root_url([text, [{"content": [{"file": dict(file_part)}]}]], "http://h", None)
    assert walked[0] is text, "a text-only history was walked"
    assert walked[1][0]["content"][0]["file"]["url"] == "http://h/gradio_api/file=x.png"


def test_the_cache_holds_about_its_limit_in_memory_not_in_key_bytes() -> None:
    """A short message's key is ~100 bytes but its processed form ~1.9 KB: a bound counting keys
    alone held 19x its limit (160 MB at the old 8 MB limit with short chat messages)."""
    limit = 1_000_000
    cache = _Processed(limit)
    bot = Chatbot(render=False)
    messages = [{"role": "user" if i % 2 else "assistant", "content": [{"type": "text", "text": f"word {i} " * 8}]} for i in range(3000)]
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for message in messages:
            key = bot._text_key(message)
            cache.put(key, _Entry(gr.Chatbot._postprocess(bot, message)))
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert 0 < len(cache.items) < len(messages), "the cache did not evict"
    assert held < 1.5 * limit, f"a cache limited to {limit / 1e6:.1f} MB holds {held / 1e6:.1f} MB"


def test_a_message_shown_before_is_found_without_serializing_it_again(monkeypatch) -> None:
    """The chat keeps its message objects from update to update: an update of a long chat costs a
    lookup per finished message, not its JSON and its format check (issue 25)."""
    chatbot = Chatbot(render=False)
    shown = [{"role": "user" if i % 2 == 0 else "assistant", "content": f"message {i}"} for i in range(200)]
    first = list(chatbot.postprocess([*shown, {"role": "assistant", "content": "A reply"}]))
    serialized: list[object] = []
    checked: list[int] = []
    key, check = Chatbot._text_key, gr.Chatbot._check_format
    monkeypatch.setattr(Chatbot, "_text_key", lambda self, message: serialized.append(message["content"]) or key(self, message))
    monkeypatch.setattr(Chatbot, "_check_format", staticmethod(lambda messages: checked.append(len(messages)) or check(messages)))
    reply = {"role": "assistant", "content": "A reply, finished"}
    again = chatbot.postprocess([*shown, reply, {"role": "user", "content": "next"}])
    assert serialized == ["A reply, finished"], "messages shown before were serialized again"
    assert checked == [2], "the format of messages shown before was checked again"
    assert list(again)[:200] == first[:200]
    equal_but_new = [dict(message) for message in shown]
    assert list(chatbot.postprocess([*equal_but_new, reply])) == list(again)[:201], "an equal message that is a new object"
    assert len(serialized) == 201, "a new object is found by its content, not by identity"


def test_the_known_messages_hold_about_their_limit() -> None:
    from playground.gradio_compat.chatbot import _Known

    known = _Known(100_000)
    entry = _Entry(None)
    messages = [{"role": "user", "content": "x" * 100} for _ in range(2000)]
    for message in messages:
        known.put(message, entry, 120)
    held = sum(size for _, _, size in [*known.young.values(), *known.old.values()])
    assert held <= 100_000, f"{held} bytes held"
    assert known.get(messages[-1]) is entry and known.get(messages[0]) is None
    assert known.get({"role": "user", "content": "x" * 100}) is None, "an equal message that is another object is not known"
