"""Download names made from a prompt are safe file names; sizes read as Gradio's file list reads them."""

from __future__ import annotations

import random
from pathlib import Path

from playground.client.media import named_copies, safe_stem
from playground.ui.tabs.images.views import human_bytes


def test_a_prompt_becomes_a_safe_stem() -> None:
    assert safe_stem("A cosy reading corner, with a cat!") == "a-cosy-reading-corner-with-a-cat"
    assert safe_stem("../../etc/passwd") == "etc-passwd"
    assert safe_stem("Café au lait — über") == "cafe-au-lait-uber"
    assert safe_stem("") == safe_stem("！？") == "image"
    assert len(safe_stem("word " * 100)) <= 48 and not safe_stem("word " * 100).endswith("-")
    rng = random.Random(7)
    for _ in range(300):
        text = "".join(chr(rng.randrange(0, 0x3000)) for _ in range(rng.randrange(0, 80)))
        stem = safe_stem(text)
        assert stem and set(stem) <= set("abcdefghijklmnopqrstuvwxyz0123456789-") and "." not in stem and "/" not in stem


def test_named_copies_keep_the_bytes_under_numbered_names(tmp_path: Path, monkeypatch: object) -> None:
    monkeypatch.setenv("GRADIO_TEMP_DIR", str(tmp_path))  # type: ignore[attr-defined]
    originals = [tmp_path / f"{n}abc.PNG" for n in range(2)]
    for n, path in enumerate(originals):
        path.write_bytes(bytes([n]) * 10)
    first, second = named_copies(originals, "Two lighthouses"), named_copies(originals, "Two lighthouses")
    assert [p.name for p in first] == ["two-lighthouses-1.png", "two-lighthouses-2.png"]
    assert first[0].parent != second[0].parent, "each set in a directory of its own"
    assert [p.read_bytes() for p in first] == [p.read_bytes() for p in originals]


def test_sizes_read_like_the_download_list() -> None:
    assert human_bytes(154_700) == "151.1 KB"  # the table said 154.7 kB while the list said 151.1 KB
    assert human_bytes(512) == "512.0 B" and human_bytes(1024) == "1024.0 B" and human_bytes(3 * 1024 * 1024) == "3.0 MB"
