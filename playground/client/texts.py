"""The client's sentences as message ids with parameters.

A problem, hint or check explanation the client writes for a person is a `Text`: a message id
named for what it says (`dataset.too_many_rows`), its parameters (numbers, strings, nested
`Text`s, `Items` of them) and its English rendering. The English templates live in
`playground/client/locales/en.json` (id -> template with `{name}` places and format specs such as
`{count:,}`), owned by the client and read without the UI. A `Text` is a `str` whose value is the
English, so logs, exception messages, run files and tests that read the English keep working; the
UI words it from its own catalogue by its id (`playground.ui.i18n.client_words.word`), and texts
read back from disk (plain strings) are recognised by their English template.
"""

from __future__ import annotations

import json
from functools import lru_cache
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from string import Formatter
from typing import Any

TEMPLATES_FILE = Path(__file__).resolve().with_name("locales") / "en.json"
SOURCE_SEPARATOR = "; "
"""How the English joins a list parameter's items (the UI joins with the visitor's own)."""



def load_templates(path: Path = TEMPLATES_FILE) -> dict[str, str]:
    """The message ids and their English templates from `path` (one JSON object of id -> template)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not all(isinstance(key, str) and isinstance(text, str) for key, text in data.items()):
        raise ValueError(f"{path}: the client's templates are one JSON object of message ids to texts")
    return data


TEMPLATES: Mapping[str, str] = load_templates()
"""Message id -> English template."""


def places(template: str) -> frozenset[str]:
    """The parameter names a template's `{places}` use (format specs left out)."""
    return _places(template)


@lru_cache(maxsize=4096)
def _places(template: str) -> frozenset[str]:
    # parsed once per template: a Text is made per cell of a run (a grader's reason), and the parse cost more than the rendering
    return frozenset(name for _, name, _, _ in Formatter().parse(template) if name is not None)


class Items(tuple[Any, ...]):
    """A list parameter: its items worded one by one and joined by the language's separator."""

    __slots__ = ()


def render(template: str, params: Mapping[str, Any], separator: str, word: Callable[[str], Any]) -> str:
    """`template` with `params` filled in: a string (a `Text` among them) through `word`, the
    items of `Items` worded and joined by `separator`, anything else as an f-string would show it
    (so `{count:,}` applies)."""
    def value(item: Any) -> Any:
        if isinstance(item, Items):
            return separator.join(format(value(part)) for part in item)
        if isinstance(item, str):
            return word(item)
        return item

    return template.format(**{name: value(item) for name, item in params.items()})


class Text(str):
    """A sentence of the client: `Text("dataset.too_many_rows", rows=5000, limit=1000)`.

    `str(text)` is the English; `id` and `params` let the UI render it in another language."""

    id: str
    params: dict[str, Any]

    def __new__(cls, message_id: str, /, **params: Any) -> Text:
        try:
            template = TEMPLATES[message_id]
        except KeyError:
            raise KeyError(f"no message {message_id!r} in {TEMPLATES_FILE}") from None
        if places(template) != params.keys():
            raise TypeError(f"message {message_id!r} takes {sorted(places(template))}, not {sorted(params)}")
        self = super().__new__(cls, render(template, params, SOURCE_SEPARATOR, lambda item: item))
        self.id = message_id
        self.params = dict(params)
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return _restore, (str(self), self.id, self.params)


def _restore(english: str, message_id: str, params: dict[str, Any]) -> Text:
    text = str.__new__(Text, english)
    text.id = message_id
    text.params = params
    return text


def joined(items: Iterable[Any]) -> Text:
    """Several texts on one line (problems, reasons): each item worded, joined by the language's
    own separator (English: "; ")."""
    return Text("list.items", items=Items(items))
