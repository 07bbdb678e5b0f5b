"""English written outside the catalogue, in the visitor's language: the client's problems, hints,
advisories, check explanations and model notes, the texts some handlers still build as f-strings,
and pydantic's refusals.

`playground/client` does not know the UI's catalogue. Its converted texts are messages
(`playground.client.texts.Text`: an id, parameters, the English from `client/locales/en.json`);
`locales/client.<code>.json` of every language but the source holds each id's template in that
language, and `word` renders a message from it. The client's other texts are still f-strings:
they are listed in the same file as the f-string's body exactly as the source writes it
(`{expression}` for a value, a literal brace doubled) with the same text in that language. A
message read back from disk (run files, Report documents store plain strings) is recognised by its
English template like an f-string's text. `word(text)` finds the template a text was made
from and puts the same values into the visitor's language; the values are worded too (a problem
inside "{label}: {problem}"). Whatever matches no template (a gateway's message, a model's
answer) stays as it arrived. `client_texts.json` names the texts that need no words: never shown
(`NOT_SHOWN`), or written by pydantic rather than our source (`NOT_IN_SOURCE`).
`tests/ui/test_client_words.py` fails when a text has no words or the words of a text the source
no longer writes are kept.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from playground.client.texts import TEMPLATES, Text, render
from playground.ui import i18n
from playground.ui.i18n import Catalogue, Locale, visitor_locale

_CLIENT_TEXTS = json.loads((Path(__file__).resolve().with_name("client_texts.json")).read_text(encoding="utf-8"))
NOT_SHOWN: frozenset[str] = frozenset(_CLIENT_TEXTS["never_shown"])
"""Texts of the client that never reach the screen as they are (prompts sent to a gateway, wire values)."""
NOT_IN_SOURCE: frozenset[str] = frozenset(_CLIENT_TEXTS["not_in_source"])
"""Templates with words that no f-string of ours writes: pydantic's refusals, wrappers such as
"line {line}: {reason}"."""

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
def _templates(catalogue: Catalogue, code: str) -> tuple[dict[str, str], list[tuple[str, str, re.Pattern[str], list[str], int, list[tuple[str, str]]]]]:
    """Literal texts by their English (with their words in `code`), and the templates with values:
    (the literal text a match starts with, the one it ends with, pattern, value names, literal
    length, the translation's parts)."""
    literal: dict[str, str] = {}
    valued: list[tuple[str, str, re.Pattern[str], list[str], int, list[tuple[str, str]]]] = []
    for key, translated in catalogue.client.get(code, {}).items():
        english = TEMPLATES.get(key, key)  # a message id's English template, or an f-string's body
        parts = split_template(english)
        if all(kind == "text" for kind, _ in parts):
            literal["".join(text for _, text in parts)] = "".join(text for _, text in split_template(translated))
            continue
        if not any(kind == "text" and text for kind, text in parts):
            continue  # all values ("{items}"): it explains nothing of a text, and would match any
        pattern, names = _pattern(english)
        head = parts[0][1] if parts[0][0] == "text" else ""
        tail = parts[-1][1] if parts[-1][0] == "text" else ""
        valued.append((head, tail, pattern, names, sum(len(text) for kind, text in parts if kind == "text"), split_template(translated)))
    return literal, valued


def _best(text: str, depth: int, catalogue: Catalogue, locale: Locale) -> tuple[int, str] | None:
    """`_reading`, remembered for short texts (the same reasons and problems come back often)."""
    if len(text) <= _REMEMBERED_CHARS:
        return _remembered(text, depth, catalogue, locale)
    return _reading(text, depth, catalogue, locale)


def _reading(text: str, depth: int, catalogue: Catalogue, locale: Locale) -> tuple[int, str] | None:
    """(how many characters of `text` our templates explain, its words in `locale`) for the
    reading that explains the most: "grader 2: top_p must be …" is "grader {index}: {error}" with
    a known problem inside, not "{name} must be …" with a long name."""
    literal, valued = _templates(catalogue, locale.code)
    if text in literal:
        return len(text), literal[text]
    best: tuple[int, str] | None = None
    for head, tail, pattern, names, explained, translated in valued:
        if not (text.startswith(head) and text.endswith(tail)):
            continue
        match = pattern.match(text)
        if match is None:
            continue
        worded = {name: _value(value, depth, catalogue, locale) for name, value in zip(names, match.groups())}
        score = explained + sum(inner for inner, _ in worded.values())
        if best is None or score > best[0]:
            best = score, "".join(part if kind == "text" else worded.get(part, (0, ""))[1] for kind, part in translated)
    joined = catalogue.source.list_separator
    if joined in text:
        pieces = [_best(piece, depth, catalogue, locale) or (0, piece) for piece in text.split(joined)]
        score = sum(inner for inner, _ in pieces)
        if score and (best is None or score > best[0]):
            best = score, locale.list_separator.join(piece for _, piece in pieces)
    return best


_remembered = lru_cache(maxsize=2048)(_reading)


def _value(value: str, depth: int, catalogue: Catalogue, locale: Locale) -> tuple[int, str]:
    if depth >= _MAX_DEPTH or not re.search(r"[A-Za-z]{2,}", value):
        return 0, value
    return _best(value, depth + 1, catalogue, locale) or (0, value)


def translated_text(text: str, locale: Locale) -> str | None:
    """`text` in `locale` when it was made from the client's templates and `locale` has their
    words, else None."""
    found = _best(text, 0, i18n.CATALOGUE, locale)
    return found[1] if found else None


def text_in(text: Text, locale: Locale) -> str:
    """A message of the client in `locale`: its template there (by its id) with its parameters
    worded the same way (nested messages by their ids, lists joined by the locale's separator,
    plain strings recognised by their English template); the English when `locale` lacks the id."""
    template = i18n.CATALOGUE.client.get(locale.code, {}).get(text.id)
    if template is None:
        return translated_text(text, locale) or str(text)
    return render(template, text.params, locale.list_separator, lambda value: _worded(value, locale))


def _worded(value: str, locale: Locale) -> str:
    if isinstance(value, Text):
        return text_in(value, locale)
    return translated_text(value, locale) or value if re.search(r"[A-Za-z]{2,}", value) else value


def word(text: str) -> str:
    """`text` in the visitor's language: a client message (`Text`) by its id, the client's English
    turned into that language (texts joined with "; " piece by piece); anything else, and
    everything for a visitor of the source language, as it is. A visitor of a hosted page reads
    it without the server's setting names (`i18n.for_audience`)."""
    return i18n.for_audience(_in_language(text))


def _in_language(text: str) -> str:
    locale = visitor_locale()
    if not text or locale.code not in i18n.CATALOGUE.client:
        return text
    if isinstance(text, Text):
        return text_in(text, locale)
    return translated_text(text, locale) or text


def message_of(error: BaseException) -> str:
    """What an exception of the client says: its message (`Text`) when it holds one, so `word`
    finds it by its id, else its text."""
    first = error.args[0] if len(error.args) == 1 else None
    return first if isinstance(first, Text) else str(error)


def word_list(texts: Iterable[Any]) -> str:
    """Problems on one line, each worded (`word`), joined by the visitor's list separator."""
    return visitor_locale().list_separator.join(word(text if isinstance(text, str) else str(text)) for text in texts)
