"""The streaming pieces of the vidA download: JSON read in chunks, base64 decoded as it arrives."""

from __future__ import annotations

import base64
import io
import json
from pathlib import Path

import pytest

from playground.client.errors import CorruptDownloadError, DownloadTooLargeError
from playground.client.video_files import (
    Base64ToFile,
    CappedFile,
    JSONObjectStream,
    check_mp4,
    discard,
)

VIDEO = Path(__file__).resolve().parents[2] / "assets" / "video" / "demo-16x9.mp4"


def parse_in_chunks(raw: bytes, size: int, max_bytes: int = 10**8) -> tuple[dict, bytes]:
    out = io.BytesIO()
    decoder = Base64ToFile(CappedFile(out, max_bytes))
    parser = JSONObjectStream({"base64": decoder, "data_url": discard})
    for start in range(0, len(raw), size):
        parser.feed(raw[start : start + size])
    values = parser.finish()
    decoder.close()
    return values, out.getvalue()


def download_json(video: bytes, *, escape_slashes: bool = False, extra: dict | None = None) -> bytes:
    encoded = base64.b64encode(video).decode()
    fields = {"success": True, "generation_id": "video_1", "task_id": "video_1", "format": "mp4", "size": len(video),
              "base64": encoded, "data_url": f"data:video/mp4;base64,{encoded}", **(extra or {})}
    text = json.dumps(fields, indent=1)
    return (text.replace("/", "\\/") if escape_slashes else text).encode()


@pytest.mark.parametrize("chunk", [1, 2, 3, 5, 7, 4096, 10**7])
def test_any_chunking_gives_the_same_video_and_fields(chunk: int) -> None:
    video = VIDEO.read_bytes()[:3000] if chunk < 8 else VIDEO.read_bytes()
    values, decoded = parse_in_chunks(download_json(video, escape_slashes=True, extra={"note": {"a": [1, "}"]}}), chunk)
    assert decoded == video
    assert values == {"success": True, "generation_id": "video_1", "task_id": "video_1", "format": "mp4", "size": len(video), "note": {"a": [1, "}"]}}


def test_unicode_escapes_split_across_chunks_are_decoded() -> None:
    raw = b'{"base64": "QU\\u004aD", "size": 3}'
    for chunk in range(1, len(raw)):
        assert parse_in_chunks(raw, chunk) == ({"size": 3}, b"ABC")


def test_stray_characters_in_base64_are_refused() -> None:
    raw = download_json(b"\x00" * 300).replace(b'"base64": "AAAA', b'"base64": "AA!A', 1)
    with pytest.raises(CorruptDownloadError, match="base64 is corrupt"):
        parse_in_chunks(raw, 64)


def test_truncated_base64_and_truncated_json_are_refused() -> None:
    with pytest.raises(CorruptDownloadError, match="truncated"):
        parse_in_chunks(b'{"base64": "QUJDRA"}', 4)
    with pytest.raises(CorruptDownloadError, match="ended before"):
        parse_in_chunks(download_json(b"abc")[:-10], 8)
    with pytest.raises(CorruptDownloadError, match="no base64 video"):
        parse_in_chunks(b'{"success": true}', 8)


def test_not_json_is_refused() -> None:
    with pytest.raises(CorruptDownloadError, match="not a JSON object"):
        parse_in_chunks(b"<html>oops</html>", 4)


def test_the_cap_stops_writing() -> None:
    out = io.BytesIO()
    sink = Base64ToFile(CappedFile(out, 1000))
    with pytest.raises(DownloadTooLargeError):
        sink(base64.b64encode(bytes(3000)))
    assert len(out.getvalue()) <= 1000


def test_a_huge_unexpected_field_is_refused() -> None:
    parser = JSONObjectStream({"base64": discard}, keep_limit=100)
    with pytest.raises(CorruptDownloadError, match="unexpectedly large"):
        parser.feed(b'{"other": "' + b"x" * 200 + b'"}')


def test_mp4_signature(tmp_path: Path) -> None:
    check_mp4(VIDEO)
    fake = tmp_path / "fake.mp4"
    fake.write_bytes(b"<html>not a video</html>")
    with pytest.raises(CorruptDownloadError, match="not an MP4"):
        check_mp4(fake)
