"""The SSE frame decoder: line endings, chunk boundaries anywhere, multi-line data, comments."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from playground.client.sse import iter_frames

STREAM = (
    b": a comment\n\n"
    b"data: {\"a\": 1}\n\n"
    b"event: message_start\ndata: {\"type\": \"message_start\"}\n\n"
    b"event: ping\ndata:\n\n"
    b"data: line one\ndata: line two\n\n"
    b"id: 7\nretry: 100\ndata:no-space\n\n"
    b"event: message\ndata: [DONE]\n\n"
    b"data: {\"last\": true}"
)
EXPECTED = [
    (None, '{"a": 1}'),
    ("message_start", '{"type": "message_start"}'),
    ("ping", ""),
    (None, "line one\nline two"),
    (None, "no-space"),
    (None, "[DONE]"),
    (None, '{"last": true}'),
]


class Chunked:
    def __init__(self, data: bytes, size: int) -> None:
        self._chunks = [data[i : i + size] for i in range(0, len(data), size)]

    async def aiter_bytes(self) -> AsyncIterator[bytes]:
        for chunk in self._chunks:
            yield chunk


@pytest.mark.parametrize("ending", [b"\n", b"\r\n", b"\r"], ids=["LF", "CRLF", "CR"])
@pytest.mark.parametrize("size", [1, 2, 3, 7, 64, 10_000])
async def test_frames_are_the_same_for_every_ending_and_chunking(ending: bytes, size: int) -> None:
    data = STREAM.replace(b"\n", ending)
    frames = [frame async for frame in iter_frames(Chunked(data, size))]  # type: ignore[arg-type]
    assert frames == EXPECTED


async def test_non_ascii_split_inside_a_character() -> None:
    data = "data: {\"t\": \"héllo ✓\"}\n\n".encode()
    frames = [frame async for frame in iter_frames(Chunked(data, 1))]  # type: ignore[arg-type]
    assert frames == [(None, '{"t": "héllo ✓"}')]
