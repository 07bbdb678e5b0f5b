"""No screen text needs an emoji font (issue 40: on a machine without one, the badge's and the
buttons' emoji showed as empty boxes): the UI's catalogues, the client's templates and the Python
sources that write screen text hold no character drawn as an emoji by default
(`Emoji_Presentation`), no emoji variation selector (U+FE0F) and no pictograph outside the Basic
Multilingual Plane (text fonts do not have them). Symbols every common text font has stay
(✓ ✗ ★ ⚠ without U+FE0F)."""

from __future__ import annotations

from pathlib import Path

import regex

ROOT = Path(__file__).resolve().parents[3]
NEEDS_EMOJI_FONT = regex.compile(r"[\p{Emoji_Presentation}\uFE0F]|(?=[\U00010000-\U0010FFFF])\p{Extended_Pictographic}")
SCREEN_TEXTS = [
    *sorted((ROOT / "playground" / "ui" / "i18n" / "locales").glob("*.json")),
    ROOT / "playground" / "client" / "locales" / "en.json",
    *sorted((ROOT / "playground" / "ui").rglob("*.py")),
    *sorted((ROOT / "playground" / "client").rglob("*.py")),
    ROOT / "assets" / "keys.js",
]


def test_no_screen_text_needs_an_emoji_font() -> None:
    found = []
    for path in SCREEN_TEXTS:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            found += [f"{path.relative_to(ROOT)}:{number}: U+{ord(match.group()):04X} in {line.strip()[:80]!r}"
                      for match in NEEDS_EMOJI_FONT.finditer(line)]
    assert not found, "\n".join(found)


def test_the_check_sees_emoji_and_variation_selectors_and_spares_text_symbols() -> None:
    for emoji in ("\u2705", "\u26a0\ufe0f", "\U0001f9ea", "\U0001f6e0", "\u23f3"):
        assert NEEDS_EMOJI_FONT.search(emoji), emoji
    for symbol in ("\u2713", "\u2717", "\u2605", "\u26a0", "\u2192", "\u2500", "\u2318"):
        assert not NEEDS_EMOJI_FONT.search(symbol), symbol
