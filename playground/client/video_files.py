"""Saving finished videos to disk without holding the video in memory.

`JSONObjectStream` reads the vidA download result (a flat JSON object whose `base64` value is
the whole video) chunk by chunk and hands the big string values to sinks as they arrive;
`Base64ToFile` decodes such a value straight into a file with a size cap; `CappedFile` does the
same for raw bytes fetched from a URL. `check_mp4` looks for the `ftyp` box every MP4 starts with; `capped_video_file` puts them together.
"""

from __future__ import annotations

from playground.client.texts import Text

import binascii
import json
import os
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, BinaryIO

from playground.client.errors import CorruptDownloadError, DownloadTooLargeError

Sink = Callable[[bytes], None]
MAX_VIDEO_BYTES = 200 * 1024 * 1024
_SPECIAL = re.compile(rb'["\\]')
_ESCAPES = {ord('"'): b'"', ord("\\"): b"\\", ord("/"): b"/", ord("b"): b"\b", ord("f"): b"\f",
            ord("n"): b"\n", ord("r"): b"\r", ord("t"): b"\t"}
_WHITESPACE = b" \t\r\n"


def discard(_: bytes) -> None:
    """A sink for values that are not needed (the `data_url` copy of the video)."""


class JSONObjectStream:
    """Incremental parser for one JSON object fed in chunks.

    String values of the keys in `streamed` go to their sink piece by piece (unescaped); other
    values are kept, up to `keep_limit` bytes each, and parsed into `values` when complete.
    """

    def __init__(self, streamed: dict[str, Sink], keep_limit: int = 64 * 1024) -> None:
        self._streamed = streamed
        self._keep_limit = keep_limit
        self._state = "start"
        self._pending = b""
        self._token = bytearray()
        self._key = ""
        self._depth = 0
        self._in_string = False
        self._escaped = False
        self.values: dict[str, Any] = {}

    def feed(self, chunk: bytes) -> None:
        data = self._pending + chunk if self._pending else chunk
        self._pending = b""
        i, end = 0, len(data)
        while i < end:
            state = self._state
            if state == "stream":
                i = self._stream_string(data, i)
                if i < 0:
                    return
                continue
            byte = data[i]
            if state in ("key", "kept"):
                i = self._token_byte(byte, i)
                continue
            i += 1
            if byte in _WHITESPACE:
                continue
            if state == "start" and byte == ord("{"):
                self._state = "key_or_end"
            elif state == "key_or_end" and byte == ord('"'):
                self._token = bytearray(b'"')
                self._in_string, self._escaped, self._state = True, False, "key"
            elif state in ("key_or_end", "after_value") and byte == ord("}"):
                self._state = "done"
            elif state == "colon" and byte == ord(":"):
                self._state = "value"
            elif state == "value":
                if self._key in self._streamed and byte == ord('"'):
                    self._state = "stream"
                else:
                    self._token = bytearray()
                    self._depth, self._in_string, self._escaped, self._state = 0, False, False, "kept"
                    i -= 1
            elif state == "after_value" and byte == ord(","):
                self._state = "key_or_end"
            else:
                raise CorruptDownloadError(Text("video.download_not_json_object", character=repr(chr(byte))))

    def _token_byte(self, byte: int, i: int) -> int:
        """One byte of a key or of a kept value; strings, escapes and nesting are tracked."""
        if self._state == "kept" and not self._in_string and self._depth == 0 and byte in (ord(","), ord("}")):
            self._finish_kept()
            return i
        self._token.append(byte)
        if len(self._token) > self._keep_limit:
            raise CorruptDownloadError(Text("video.download_field_too_large", field=repr(self._key)))
        if self._in_string:
            if self._escaped:
                self._escaped = False
            elif byte == ord("\\"):
                self._escaped = True
            elif byte == ord('"'):
                self._in_string = False
                if self._state == "key":
                    self._key = json.loads(bytes(self._token))
                    self._state = "colon"
        elif byte == ord('"'):
            self._in_string = True
        elif byte in (ord("{"), ord("[")):
            self._depth += 1
        elif byte in (ord("}"), ord("]")):
            self._depth -= 1
        return i + 1

    def _finish_kept(self) -> None:
        try:
            self.values[self._key] = json.loads(bytes(self._token))
        except ValueError:
            raise CorruptDownloadError(Text("video.download_field_not_json", field=repr(self._key))) from None
        self._state = "after_value"

    def _stream_string(self, data: bytes, i: int) -> int:
        """Pass string content to the sink up to the closing quote; -1 when more data is needed."""
        sink = self._streamed[self._key]
        while True:
            match = _SPECIAL.search(data, i)
            stop = match.start() if match else len(data)
            if stop > i:
                sink(data[i:stop])
            if match is None:
                return len(data)
            if data[stop] == ord('"'):
                self._state = "after_value"
                return stop + 1
            if stop + 1 >= len(data) or (data[stop + 1] == ord("u") and stop + 6 > len(data)):
                self._pending = data[stop:]
                return -1
            escape = data[stop + 1]
            if escape == ord("u"):
                sink(chr(int(data[stop + 2 : stop + 6], 16)).encode())
                i = stop + 6
            elif escape in _ESCAPES:
                sink(_ESCAPES[escape])
                i = stop + 2
            else:
                raise CorruptDownloadError(Text("video.download_bad_escape"))

    def finish(self) -> dict[str, Any]:
        if self._state != "done":
            raise CorruptDownloadError(Text("video.download_json_incomplete"))
        return self.values


class CappedFile:
    """Writes bytes to a file, refusing to go past `max_bytes`."""

    def __init__(self, file: BinaryIO, max_bytes: int) -> None:
        self._file = file
        self.max_bytes = max_bytes
        self.written = 0

    def write(self, data: bytes) -> None:
        self.written += len(data)
        if self.written > self.max_bytes:
            raise DownloadTooLargeError(Text("video.larger_than_cap", limit=self.max_bytes / 1e6))
        self._file.write(data)


class Base64ToFile:
    """A sink that decodes base64 as it arrives (strictly: no stray characters) into a `CappedFile`."""

    def __init__(self, target: CappedFile) -> None:
        self._target = target
        self._carry = b""
        self.characters = 0

    def __call__(self, chunk: bytes) -> None:
        self.characters += len(chunk)
        data = self._carry + chunk if self._carry else chunk
        usable = len(data) - len(data) % 4
        self._carry = data[usable:]
        if usable:
            self._decode(data[:usable])

    def _decode(self, data: bytes) -> None:
        try:
            self._target.write(binascii.a2b_base64(data, strict_mode=True))
        except binascii.Error as exc:
            raise CorruptDownloadError(Text("video.base64_corrupt", error=str(exc))) from None

    def close(self) -> None:
        if self._carry:
            raise CorruptDownloadError(Text("video.base64_truncated"))
        if not self.characters:
            raise CorruptDownloadError(Text("video.download_without_base64"))


def check_mp4(path: Path) -> None:
    """Raise unless the file starts with an MP4 `ftyp` box."""
    with path.open("rb") as file:
        head = file.read(12)
    if len(head) < 12 or head[4:8] != b"ftyp":
        raise CorruptDownloadError(Text("video.download_not_mp4"))


@contextmanager
def capped_video_file(target: Path, max_bytes: int) -> Iterator[CappedFile]:
    """Write to `<target>.part` under a cap; when the block succeeds, check that it is an MP4 and
    move it to `target`. On any failure no file is left behind."""
    partial = target.with_suffix(".part")
    try:
        with partial.open("wb") as file:
            yield CappedFile(file, max_bytes)
        check_mp4(partial)
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
