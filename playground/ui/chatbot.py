"""The chatbot the text tabs use: Gradio's `gr.Chatbot` whose per-message postprocessing is
remembered, so a streamed update costs the new text, not the whole history again.

Gradio 6.31 post-processes every message of the history on every streamed update (pydantic models
per message and part: 7 ms for 800 messages, README's Benchmarks). A finished message does not
change, so its processed form is kept under a key made of its exact JSON bytes (`orjson`) and the
chatbot's reasoning tags; a message with anything but text parts (files, components), and the last
message (the one a stream is growing), are processed every time, as before. The cache is shared, bounded in bytes, and evicts the oldest first.

Gradio then walks the processed value twice per update looking for files to move to its cache
(`async_move_files_to_cache`, an `await` per node: 7.5 ms each for 800 messages);
`skip_file_scan_for_text` lets a value of this chatbot made only of text parts through as it is.
"""

from __future__ import annotations

from collections import OrderedDict
from threading import Lock
from typing import Any

import gradio as gr
import orjson
from gradio import processing_utils
from gradio.components.chatbot import ChatbotDataMessages

CACHE_BYTES = 8 * 1024 * 1024
LARGEST_CACHED = 256 * 1024


def _text_only(message: Any) -> bool:
    if not isinstance(message, dict) or set(message) - {"role", "content", "metadata", "options"}:
        return False
    content = message.get("content")
    if isinstance(content, str):
        return True
    return isinstance(content, list) and all(
        isinstance(part, str) or (isinstance(part, dict) and part.get("type") == "text" and isinstance(part.get("text"), str))
        for part in content)


class _Processed:
    """Processed messages by key, at most `limit` bytes of keys."""

    def __init__(self, limit: int) -> None:
        self.limit, self.size = limit, 0
        self.items: OrderedDict[bytes, list[Any] | None] = OrderedDict()
        self.lock = Lock()

    def get(self, key: bytes) -> tuple[bool, list[Any] | None]:
        with self.lock:
            if key not in self.items:
                return False, None
            self.items.move_to_end(key)
            return True, self.items[key]

    def put(self, key: bytes, value: list[Any] | None) -> None:
        with self.lock:
            if key in self.items:
                return
            self.items[key] = value
            self.size += len(key)
            while self.size > self.limit and self.items:
                old, _ = self.items.popitem(last=False)
                self.size -= len(old)


PROCESSED = _Processed(CACHE_BYTES)


class Chatbot(gr.Chatbot):
    """`gr.Chatbot` with remembered per-message postprocessing (same output, see the module doc)."""

    is_template = True  # the page renders it as Gradio's own chatbot

    def _key(self, message: Any) -> bytes | None:
        if not _text_only(message):
            return None
        try:
            body = orjson.dumps(message)
        except TypeError:
            return None
        if len(body) > LARGEST_CACHED:
            return None
        return orjson.dumps(self.reasoning_tags) + b"\0" + body

    def _postprocess(self, message: Any) -> Any:
        key = self._key(message)
        if key is None:
            return super()._postprocess(message)
        found, processed = PROCESSED.get(key)
        if not found:
            processed = super()._postprocess(message)
            PROCESSED.put(key, processed)
        return list(processed) if processed is not None else None

    def postprocess(self, value: Any) -> ChatbotDataMessages:
        if value is None:
            return ChatbotDataMessages(root=[])
        self._check_format(value)
        processed = []
        for index, message in enumerate(value):
            # the last message is the one a stream is growing: each of its versions is seen once
            messages = self._postprocess(message) if index < len(value) - 1 else super()._postprocess(message)
            if messages is not None:
                processed.extend(messages)
        return ChatbotDataMessages.model_construct(root=processed)


def _all_text(value: Any) -> bool:
    return isinstance(value, list) and all(
        isinstance(message, dict) and isinstance(message.get("content"), list)
        and all(isinstance(part, dict) and part.get("type") == "text" for part in message["content"])
        for message in value)


def skip_file_scan_for_text() -> None:
    """Gradio's file scan returns a value of the app's `Chatbot` holding only text parts unchanged
    without walking it (idempotent); every other value is scanned as before."""
    scan = processing_utils.async_move_files_to_cache
    if getattr(scan, "_playground_text_skip", False):
        return

    async def move_files_to_cache(data: Any, block: Any, postprocess: bool = False, **options: Any) -> Any:
        if postprocess and isinstance(block, Chatbot) and not options:
            dumped = data.model_dump() if isinstance(data, ChatbotDataMessages) else data
            if _all_text(dumped):
                return dumped
            data = dumped
        return await scan(data, block, postprocess, **options)

    move_files_to_cache._playground_text_skip = True  # type: ignore[attr-defined]
    processing_utils.async_move_files_to_cache = move_files_to_cache  # type: ignore[assignment]
