"""English written outside the catalogue, in the visitor's language: the client's problems, hints,
advisories, check explanations and model notes, the texts some handlers still build as f-strings,
and pydantic's refusals (`i18n_unlisted.py`).

`playground/client` does not know the UI's catalogue; its texts are f-strings with values in them.
Each is listed once as the f-string's body exactly as the source writes it (`{expression}` for a
value, a literal brace doubled), with its Chinese in `i18n_client_*.py`. `word(text)` finds the
template a text was made from and puts the same values into the Chinese; the values are worded
too (a problem inside "{label}: {problem}"). Whatever matches no template (a gateway's message, a
model's answer) stays as it arrived. `tests/ui/test_client_words.py` fails when a text has no
Chinese or the Chinese of a text the source no longer writes is kept.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache, lru_cache
from typing import Any

from playground.ui.i18n import visitor_language
from playground.ui.i18n.client_batch import NOT_SHOWN as BATCH_NOT_SHOWN, ZH as BATCH
from playground.ui.i18n.client_core import NOT_SHOWN as CORE_NOT_SHOWN, ZH as CORE
from playground.ui.i18n.client_formats import NOT_SHOWN as FORMATS_NOT_SHOWN, ZH as FORMATS
from playground.ui.i18n.client_report import NOT_SHOWN as REPORT_NOT_SHOWN, ZH as REPORT
from playground.ui.i18n.client_tabs import NOT_SHOWN as TABS_NOT_SHOWN, ZH as TABS
from playground.ui.i18n.client_ui import NOT_SHOWN as UI_NOT_SHOWN, ZH as UI
from playground.ui.i18n.unlisted import ZH as UNLISTED

ZH_CLIENT: dict[str, str] = {**CORE, **FORMATS, **REPORT, **BATCH, **UI, **TABS}
"""English template → Chinese template, for every text of the client that reaches the screen."""
NOT_SHOWN: frozenset[str] = CORE_NOT_SHOWN | FORMATS_NOT_SHOWN | REPORT_NOT_SHOWN | BATCH_NOT_SHOWN | UI_NOT_SHOWN | TABS_NOT_SHOWN
"""Texts of the client that never reach the screen as they are (prompts sent to a gateway, wire values)."""

_MAX_DEPTH = 3
_REMEMBERED_CHARS = 400


def split_template(template: str) -> list[tuple[str, str]]:
    """An f-string body as ("text", literal) and ("value", expression) parts."""
    parts: list[tuple[str, str]] = []
    literal: list[str] = []
    index = 0
    while index < len(template):
        char = template[index]
        if char in "{}" and template[index + 1:index + 2] == char:
            literal.append(char)
            index += 2
            continue
        if char != "{":
            literal.append(char)
            index += 1
            continue
        depth, end = 0, index
        while end < len(template):
            depth += {"{": 1, "}": -1}.get(template[end], 0)
            if depth == 0:
                break
            end += 1
        if literal:
            parts.append(("text", "".join(literal)))
            literal = []
        parts.append(("value", template[index + 1:end]))
        index = end + 1
    if literal:
        parts.append(("text", "".join(literal)))
    return parts


def _pattern(template: str) -> tuple[re.Pattern[str], list[str]]:
    parts = split_template(template)
    regex = "".join(re.escape(text) if kind == "text" else "(.*?)" for kind, text in parts)
    return re.compile(rf"\A{regex}\Z", re.DOTALL), [text for kind, text in parts if kind == "value"]


@cache
def _templates() -> tuple[dict[str, str], list[tuple[str, str, re.Pattern[str], list[str], int, list[tuple[str, str]]]]]:
    """Literal texts by their English (with their Chinese), and the templates with values: (the
    literal text a match starts with, the one it ends with, pattern, value names, literal length,
    the Chinese's parts)."""
    literal: dict[str, str] = {}
    valued: list[tuple[str, str, re.Pattern[str], list[str], int, list[tuple[str, str]]]] = []
    for english, chinese in {**UNLISTED, **ZH_CLIENT}.items():
        parts = split_template(english)
        if all(kind == "text" for kind, _ in parts):
            literal["".join(text for _, text in parts)] = "".join(text for _, text in split_template(chinese))
            continue
        pattern, names = _pattern(english)
        head = parts[0][1] if parts[0][0] == "text" else ""
        tail = parts[-1][1] if parts[-1][0] == "text" else ""
        valued.append((head, tail, pattern, names, sum(len(text) for kind, text in parts if kind == "text"), split_template(chinese)))
    return literal, valued


def _best(text: str, depth: int) -> tuple[int, str] | None:
    """`_reading`, remembered for short texts (the same reasons and problems come back often)."""
    return _remembered(text, depth) if len(text) <= _REMEMBERED_CHARS else _reading(text, depth)


def _reading(text: str, depth: int) -> tuple[int, str] | None:
    """(how many characters of `text` our templates explain, its Chinese) for the reading that
    explains the most: "grader 2: top_p must be …" is "grader {index}: {error}" with a known
    problem inside, not "{name} must be …" with a long name."""
    literal, valued = _templates()
    if text in literal:
        return len(text), literal[text]
    best: tuple[int, str] | None = None
    for head, tail, pattern, names, explained, chinese in valued:
        if not (text.startswith(head) and text.endswith(tail)):
            continue
        match = pattern.match(text)
        if match is None:
            continue
        worded = {name: _value(value, depth) for name, value in zip(names, match.groups())}
        score = explained + sum(inner for inner, _ in worded.values())
        if best is None or score > best[0]:
            best = score, "".join(part if kind == "text" else worded.get(part, (0, ""))[1] for kind, part in chinese)
    if "; " in text:
        pieces = [_best(piece, depth) or (0, piece) for piece in text.split("; ")]
        score = sum(inner for inner, _ in pieces)
        if score and (best is None or score > best[0]):
            best = score, "；".join(piece for _, piece in pieces)
    return best


_remembered = lru_cache(maxsize=2048)(_reading)


def _value(value: str, depth: int) -> tuple[int, str]:
    if depth >= _MAX_DEPTH or not re.search(r"[A-Za-z]{2,}", value):
        return 0, value
    return _best(value, depth + 1) or (0, value)


def chinese_text(text: str) -> str | None:
    """`text` in Chinese when it was made from the client's templates, else None."""
    found = _best(text, 0)
    return found[1] if found else None


def word(text: str) -> str:
    """`text` in the visitor's language: the client's English turned into Chinese for a Chinese
    visitor (texts joined with "; " piece by piece); anything else as it is."""
    if not text or visitor_language() != "zh":
        return text
    return chinese_text(text) or text


def word_list(texts: Iterable[Any]) -> str:
    """Problems on one line, each worded (`word`): joined by "; ", or "；" for a Chinese visitor."""
    return ("；" if visitor_language() == "zh" else "; ").join(word(str(text)) for text in texts)
