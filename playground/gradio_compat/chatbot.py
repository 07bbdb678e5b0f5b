"""The chatbot the text tabs use (patch `chatbot_memo`): Gradio's `gr.Chatbot` whose per-message
postprocessing is remembered, so a streamed update costs the new text, not the whole history again.
Until `apply()` installs the patch (and on a Gradio version it was not written for) it is Gradio's
own chatbot: `postprocess` is `gr.Chatbot.postprocess`.

Gradio 6.31 post-processes every message of the history on every streamed update (pydantic models
per message and part: 7 ms for 800 messages, README's Benchmarks), then dumps the models to dicts
(twice), walks the dicts for file URLs (`add_root_url`) and diffs them against the last update.
A finished message does not change, so its processed form, the dicts Gradio sends, is kept under
a key made of its exact JSON bytes (`orjson`) and the chatbot's reasoning tags; a message with
anything but text parts (files, components), and the last message (the one a stream is growing),
are processed every time, as before. The cache is shared, bounded in bytes of memory (a message
costs its key plus about 0.6 KB of dicts, measured with tracemalloc; keeping Gradio's models too
cost 1.7 KB), and evicts the oldest first. In front of it sit the message objects already shown
(the chat keeps them from update to update and turn to turn): such a message is found by identity,
without serializing it or checking its format again, so an update of a long chat costs a lookup
per message (issue 25: 800 messages, 1.8 ms an update before).

Every value is returned already dumped, so Gradio does not dump it again; a history of text only
as `TextMessages` (a plain list to every reader), which `pass_text_through` lets skip Gradio's
file scans and root-URL walk (there are no files in it); the diff finds the remembered messages
identical at once.
"""

from __future__ import annotations

from collections import OrderedDict
from threading import Lock
from typing import Any

import gradio as gr
import orjson
from gradio import processing_utils
from gradio.components.chatbot import ChatbotDataMessages

from playground.gradio_compat.marks import mark, patch_of
from playground.gradio_compat.page import drawn_as_gradios_own

CACHE_BYTES = 16 * 1024 * 1024
LARGEST_CACHED = 256 * 1024
ENTRY_BYTES = 650  # a cached message's dumped dicts beyond its key's length


def _text_only(message: Any) -> bool:
    if not isinstance(message, dict) or set(message) - {"role", "content", "metadata", "options"}:
        return False
    content = message.get("content")
    if isinstance(content, str):
        return True
    return isinstance(content, list) and all(
        isinstance(part, str) or (isinstance(part, dict) and part.get("type") == "text" and isinstance(part.get("text"), str))
        for part in content)


class TextMessages(list):  # type: ignore[type-arg]  # a list of whatever Gradio's dumps hold
    """A text-only chatbot value, already in the form Gradio sends (dumped message dicts)."""


class _Entry:
    """One message's processed form: the dicts of Gradio's models (none: the message shows nothing)."""

    __slots__ = ("dumps",)

    def __init__(self, models: list[Any] | None) -> None:
        self.dumps = [model.model_dump() for model in models] if models is not None else []


def cost(key: bytes) -> int:
    """The memory a cached message holds: its key (about its JSON) and its processed form."""
    return len(key) + ENTRY_BYTES


class _Processed:
    """Processed messages by key, at most about `limit` bytes of memory."""

    def __init__(self, limit: int) -> None:
        self.limit, self.size = limit, 0
        self.items: OrderedDict[bytes, _Entry] = OrderedDict()
        self.lock = Lock()

    def get(self, key: bytes) -> _Entry | None:
        with self.lock:
            entry = self.items.get(key)
            if entry is not None:
                self.items.move_to_end(key)
            return entry

    def put(self, key: bytes, value: _Entry) -> None:
        with self.lock:
            if key in self.items:
                return
            self.items[key] = value
            self.size += cost(key)
            while self.size > self.limit and self.items:
                old, _ = self.items.popitem(last=False)
                self.size -= cost(old)


PROCESSED = _Processed(CACHE_BYTES)
KNOWN_BYTES = 4 * 1024 * 1024
KNOWN_COST = 400  # a known message's dict and the memo's entry, beyond its JSON


class _Known:
    """Processed forms of message objects by identity. It holds the messages it knows (an id is
    unique only while its object lives), at most about `limit` bytes of them by their JSON size: in
    two generations, the one seen least recently dropped whole. A known message is text only and
    has passed the format check; a shown message is never changed in place (the chat builds new
    ones)."""

    def __init__(self, limit: int) -> None:
        self.limit, self.size = limit, 0
        self.young: dict[int, tuple[Any, _Entry, int]] = {}
        self.old: dict[int, tuple[Any, _Entry, int]] = {}

    def get(self, message: Any) -> _Entry | None:
        known = self.young.get(id(message))
        if known is None:
            known = self.old.pop(id(message), None)
            if known is not None and known[0] is message:
                self._keep(known)
        return known[1] if known is not None and known[0] is message else None

    def put(self, message: Any, entry: _Entry, size: int) -> None:
        self._keep((message, entry, size + KNOWN_COST))

    def _keep(self, known: tuple[Any, _Entry, int]) -> None:
        if self.size + known[2] > self.limit // 2:
            self.old, self.young, self.size = self.young, {}, 0
        self.young[id(known[0])] = known
        self.size += known[2]


KNOWN: dict[bytes, _Known] = {}


@drawn_as_gradios_own
class Chatbot(gr.Chatbot):
    """`gr.Chatbot` with remembered per-message postprocessing (same output, see the module doc)."""

    @property
    def _known(self) -> _Known:
        """The known messages of chatbots with this one's reasoning tags (which shape the processed form)."""
        tags = orjson.dumps(self.reasoning_tags)
        known = KNOWN.get(tags)
        if known is None:
            known = KNOWN.setdefault(tags, _Known(KNOWN_BYTES))
        return known

    def _key(self, message: Any) -> bytes | None:
        return self._text_key(message) if _text_only(message) else None

    def _text_key(self, message: Any) -> bytes | None:
        try:
            body = orjson.dumps(message)
        except TypeError:
            return None
        if len(body) > LARGEST_CACHED:
            return None
        return orjson.dumps(self.reasoning_tags) + b"\0" + body

    def _entry(self, message: Any, key: bytes) -> _Entry:
        entry = PROCESSED.get(key)
        if entry is None:
            entry = _Entry(super()._postprocess(message))
            PROCESSED.put(key, entry)
        return entry

    def _finished(self, message: Any, memo: _Known) -> _Entry | None:
        """A finished text message's processed form, remembered; None if it is not text only."""
        key = self._key(message)
        if key is None:
            return None
        entry = self._entry(message, key)
        memo.put(message, entry, len(key))
        return entry

    def _processed(self, message: Any) -> list[Any]:
        return _Entry(super()._postprocess(message)).dumps

    def postprocess(self, value: Any) -> Any:
        if patch_of(Chatbot) is None:
            return super().postprocess(value)
        if value is None:
            return ChatbotDataMessages(root=[])
        memo = self._known
        finished, last = value[:-1], list(value[-1:])  # the last message is the one a stream is growing: each version is seen once
        known = [memo.get(message) for message in finished]
        fresh = [message for message, entry in zip(finished, known) if entry is None] + last
        self._check_format(fresh)
        shown = TextMessages() if all(_text_only(message) for message in fresh) else []  # with files: Gradio scans it for them
        for message, entry in zip(finished, known):
            entry = entry or self._finished(message, memo)
            shown.extend(entry.dumps if entry is not None else self._processed(message))
        for message in last:
            shown.extend(self._processed(message))
        return shown


def remember_messages() -> None:
    """Turn on the chatbot's remembered processing, and let its text-only values pass Gradio's file
    scan and root-URL walk (idempotent)."""
    pass_text_through()
    mark(Chatbot, "chatbot_memo")


def pass_text_through() -> None:
    """Gradio's file scan and root-URL walk return a `TextMessages` value unchanged without walking
    it (there are no files in it); every other value is handled as before. Idempotent."""
    scan, add_root_url = processing_utils.async_move_files_to_cache, processing_utils.add_root_url
    if patch_of(scan) is not None:
        return

    async def move_files_to_cache(data: Any, block: Any, postprocess: bool = False, **options: Any) -> Any:
        if isinstance(data, TextMessages):
            return data
        return await scan(data, block, postprocess, **options)

    def add_root_url_except_text(data: Any, root_url: str, previous_root_url: str | None) -> Any:
        if not (isinstance(data, list) and any(isinstance(item, TextMessages) for item in data)):
            return add_root_url(data, root_url, previous_root_url)
        walked = add_root_url([None if isinstance(item, TextMessages) else item for item in data], root_url, previous_root_url)
        return [item if isinstance(item, TextMessages) else new for item, new in zip(data, walked, strict=True)]

    processing_utils.async_move_files_to_cache = mark(move_files_to_cache, "chatbot_memo", scan)  # type: ignore[assignment]  # the patch itself
    processing_utils.add_root_url = mark(add_root_url_except_text, "chatbot_memo", add_root_url)  # type: ignore[assignment]  # the patch itself
