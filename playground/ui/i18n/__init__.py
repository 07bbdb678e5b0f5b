"""The interface's words: one catalogue file per language, read through one lookup.

    locales/<code>.json          key -> text: every text the interface writes, in the layout and at
                                 run time; `en.json` is the source, the others have the same keys
    locales/client.<code>.json   a client message's id (`playground.client.texts.Text`; its English
                                 is `playground/client/locales/en.json`) -> its template in <code>,
                                 and for modules not converted yet, an f-string's body -> the same
                                 text in <code> (`client_words.word`); none for English
    client_texts.json            the client's texts that need no words (never shown, or not ours)

The languages are `language.LOCALES`, the only place one is named: adding a language is adding
its files and one entry there. `load` reads every locale's files once, at import.

Three lookups, one catalogue: `t(key)` for the layout (Gradio's `I18n` translates it in the
browser, by the browser's language or the header's switch), `say(key, **values)` for texts a
handler builds, in the visitor's language (`visitor_language`), and `client_words.word(text)` for
the client's English. The client's names the layout shows (a Report check's, a format's:
`LAYOUT_MESSAGES`) are worded once, by their message id: `t_client(text)` in the layout, `word`
in a handler; the page's catalogue carries their words under the id. Only words written by us are here: what a gateway sends (answers, error
messages, model names) is shown as it arrives. Wire names (`top_p`, `tool_choice`) stay as they
are in every language. `CONVERTED_MODULES` are the modules that write no interface text outside
this catalogue (a test checks them).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from http.cookies import CookieError, SimpleCookie
from pathlib import Path
from typing import Any

import gradio as gr

from playground.client.batch.graders import KINDS as GRADER_KINDS
from playground.client.report.model import CHECKS, FORMAT_LABELS
from playground.client.texts import TEMPLATES, Text
from playground.gradio_compat import I18nText, current_request
from playground.ui.i18n.language import LANGUAGE_COOKIE, LANGUAGE_PARAMETER, LOCALES, Locale, link_locale, resolve

LOCALES_DIR = Path(__file__).resolve().with_name("locales")
LAYOUT_MESSAGES: tuple[str, ...] = (*(check.label.id for check in CHECKS),
                                    *(label.id for label in FORMAT_LABELS.values()),
                                    *(label.id for label in GRADER_KINDS.values()))
"""Ids of the client's messages the layout shows as names (the Report's checks, the formats, Batch's grader kinds):
the page's catalogue carries them, so their only words are the client's (`t_client`)."""


@dataclass(frozen=True, eq=False)
class Catalogue:
    """Every locale's words, as loaded from its files."""

    locales: tuple[Locale, ...]
    texts: dict[str, dict[str, str]]
    """Locale code -> key -> text; a key a locale's file lacks has the source's text."""
    client: dict[str, dict[str, str]] = field(default_factory=dict)
    """Locale code -> English template of a client text -> its template in that locale."""

    @property
    def source(self) -> Locale:
        """The language the code and the client write in (the first locale)."""
        return self.locales[0]

    def page_words(self, code: str) -> dict[str, str]:
        """The words the page's catalogue holds for locale `code`: its texts, and the client's
        names the layout shows (`LAYOUT_MESSAGES`) under their ids, in that locale (English where
        it has none)."""
        own = self.client.get(code, {})
        return {**self.texts[code], **{message_id: own.get(message_id, TEMPLATES[message_id]) for message_id in LAYOUT_MESSAGES}}

    def i18n(self) -> gr.I18n:
        """Gradio's catalogue for the page: each locale's words once, under its `page_tag` (the
        page inlines this catalogue; a copy per alias was 79 KB more for every visitor)."""
        return gr.I18n(**{locale.page_tag: self.page_words(locale.code) for locale in self.locales})

    def locale(self, tag: str | None) -> Locale | None:
        """The locale `tag` (a language tag or an Accept-Language header) names, else None."""
        return resolve(tag, self.locales)


def _read(path: Path) -> dict[str, str]:
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not all(isinstance(key, str) and isinstance(text, str) for key, text in data.items()):
        raise ValueError(f"{path}: a catalogue is one JSON object of text keys to texts")
    return data


def load(locales: Sequence[Locale], directory: Path = LOCALES_DIR) -> Catalogue:
    """Read `locales` from `directory`: `<code>.json` for each (a file is required; a key the
    source has and a locale lacks shows the source's text, a key the source lacks is refused) and
    `client.<code>.json` where there is one."""
    locales = tuple(locales)
    source = _read(directory / f"{locales[0].code}.json")
    texts, client = {locales[0].code: source}, {}
    for locale in locales[1:]:
        own = _read(directory / f"{locale.code}.json")
        unknown = sorted(own.keys() - source.keys())
        if unknown:
            raise ValueError(f"{directory / locale.code}.json has keys {locales[0].code}.json lacks: {unknown[:10]}")
        texts[locale.code] = {**source, **own}
        templates = directory / f"client.{locale.code}.json"
        if templates.exists():
            client[locale.code] = _read(templates)
    return Catalogue(locales, texts, client)


CATALOGUE = load(LOCALES)
"""The catalogue the app runs with (tests may swap it for one with more locales)."""
EN = CATALOGUE.texts[CATALOGUE.source.code]
"""The source language's texts: every key there is."""
I18N = CATALOGUE.i18n()
CHOICE_KEYS: dict[str, str] = {text: key for key, text in EN.items() if key.startswith("choice.")}
"""Values the tabs show and read back (from `playground/client`) -> the key of their word."""
CONVERTED_MODULES = (
    "playground.ui.app", "playground.ui.shared.widgets", "playground.ui.tabs.batch.columns", "playground.ui.conversation.panel", "playground.ui.shared.presets",
    "playground.ui.session_files.panel", "playground.ui.shared.developer", "playground.ui.shared.guide", "playground.ui.shared.links",
    "playground.ui.conversation.branches", "playground.ui.shared.curl_panel", "playground.ui.shared.examples", "playground.ui.tabs.chat.layout",
    "playground.ui.tabs.responses.layout", "playground.ui.tabs.native.layout", "playground.ui.tabs.messages.layout",
    "playground.ui.tabs.embeddings.layout", "playground.ui.tabs.images.layout", "playground.ui.tabs.compare.layout", "playground.ui.tabs.video.layout",
    "playground.ui.tabs.video.form", "playground.ui.tabs.report.layout", "playground.ui.tabs.report.views", "playground.ui.tabs.batch.layout",
    "playground.ui.tabs.batch.views", "playground.ui.shared.column_picker", "playground.ui.conversation.template_vars", "playground.ui.shared.prices",
    "playground.ui.shared.schema_editor",
)


def t(key: str) -> I18nText:
    """The interface text `key`, translated in the browser; an unknown key fails at once."""
    if key not in EN:
        raise KeyError(f"no interface text {key!r} in playground/ui/i18n/locales/{CATALOGUE.source.code}.json")
    return I18N(key)


def t_client(text: Text) -> I18nText:
    """A name of the client (`LAYOUT_MESSAGES`: a check's, a format's) for the layout, translated
    in the browser by its message id; any other message fails at once (its words are not on the page)."""
    if not isinstance(text, Text) or text.id not in LAYOUT_MESSAGES:
        raise KeyError(f"{text!r} is not one of the client's names the page carries (LAYOUT_MESSAGES)")
    return I18N(text.id)


def choices(values: Iterable[Any], label: Callable[[str], Any] | None = None) -> list[Any]:
    """A Radio's or Dropdown's choices whose values the code reads back: a value with a catalogue
    word (`CHOICE_KEYS`, the `choice.*` keys) becomes (that word, the value); any other stays as it
    is. The word is `t` (translated in the browser) for the layout; an event's update passes `say`."""
    word = label or t
    return [(word(CHOICE_KEYS[value]), value) if isinstance(value, str) and value in CHOICE_KEYS else value for value in values]


def english(key: str) -> str:
    """The source language's text of `key` (what a visitor of unknown language reads)."""
    return EN[key]


def words_in_every_language(keys: Iterable[str]) -> dict[str, dict[str, str]]:
    """Locale code -> key -> text of `keys`, for words the page writes itself (`language.switch_js`)."""
    chosen = sorted(set(keys))
    return {code: {key: texts[key] for key in chosen} for code, texts in CATALOGUE.texts.items()}


def languages() -> tuple[Locale, ...]:
    """The languages of the catalogue in use (the header's switch offers them)."""
    return CATALOGUE.locales


def request_locale(cookie_header: str | None, accept_language: str | None) -> Locale:
    """The locale of a request: the header switch's choice (its cookie) when it names a known
    locale, else the browser's Accept-Language when that does, else the source language."""
    catalogue = CATALOGUE
    try:
        cookie = SimpleCookie(cookie_header or "").get(LANGUAGE_COOKIE)
    except CookieError:
        cookie = None
    chosen = catalogue.locale(cookie.value) if cookie is not None else None
    return chosen or catalogue.locale(accept_language) or catalogue.source


def request_language(cookie_header: str | None, accept_language: str | None) -> str:
    """The code of `request_locale` ("en", "zh-CN", ...): for requests answered before Gradio (the page guard)."""
    return request_locale(cookie_header, accept_language).code


_SPOKEN: ContextVar[str | None] = ContextVar("playground_spoken_language", default=None)
"""The language `speaking` holds for what is worded inside it (None: the event's own)."""


@contextmanager
def speaking(language: str | None) -> Iterator[None]:
    """Words inside the block in `language` (a code of `languages()`; None or an unknown code: the event's
    own), for a long-running event that writes for a visitor who may since have switched languages (the
    Video board's watcher started before the header switch): its request still carries the old cookie."""
    token = _SPOKEN.set(language if language is not None and CATALOGUE.locale(language) is not None else None)
    try:
        yield
    finally:
        _SPOKEN.reset(token)


def visitor_locale() -> Locale:
    """The language of the event being handled: the language a `speaking` block names, else the page's
    link's `lang` when it names a known locale
    (`language.link_locale`; every event sends the page's query, and the page's load keeps the
    link's language in the cookie, but events of the same load may leave before it does; a person's
    switch takes `lang` off the address), else `request_locale`; the source language outside an
    event (tests calling handlers directly)."""
    spoken = _SPOKEN.get()
    if spoken is not None:
        return CATALOGUE.locale(spoken) or CATALOGUE.source
    request = current_request()
    if request is None:
        return CATALOGUE.source
    try:
        linked = link_locale(_query_value(request, LANGUAGE_PARAMETER), CATALOGUE.locales)
        if linked is not None:
            return linked
        headers = request.headers
        return request_locale(headers.get("cookie"), headers.get("accept-language"))
    except (AttributeError, KeyError, ValueError):
        return CATALOGUE.source


def _query_value(request: Any, name: str) -> str | None:
    """The page's query parameter `name` of an event's request (None when it has none, or no query)."""
    try:
        value = request.query_params.get(name)
    except (AttributeError, KeyError):
        return None
    return value if isinstance(value, str) else None


def visitor_language() -> str:
    """The code of `visitor_locale` ("en", "zh-CN", …)."""
    return visitor_locale().code


AUDIENCE_HEADER = "x-playground-audience"
"""Set to "visitor" by the page guard on every request of a hosted page (`web.visitors`), whatever
the browser sent: a visitor cannot change the server's settings, so their names are left out."""
SETTING_NOTE = re.compile(r" ?[(（](?:setting |设置 ?)?(?:PLAYGROUND|GATEWAY|MCP)_[A-Z0-9_]+[)）]")
"""How a text names a setting of the server: its own parenthesis, "(setting NAME)" or "(NAME)"."""


def without_settings(text: str) -> str:
    """`text` without the names of the server's settings (what a hosted page's visitor reads)."""
    return SETTING_NOTE.sub("", text)


def read_by_visitor() -> bool:
    """Whether the event's reader is a visitor of a hosted page (`AUDIENCE_HEADER`)."""
    request = current_request()
    try:
        return request is not None and request.headers.get(AUDIENCE_HEADER) == "visitor"
    except (AttributeError, KeyError):
        return False


def for_audience(text: str) -> str:
    """`text` as the event's reader gets it: a visitor of a hosted page without setting names."""
    return without_settings(text) if read_by_visitor() else text


def say_in(language: str, key: str, **values: Any) -> str:
    """The text `key` in the locale `language` (a code of `languages()`), with `values` filled in."""
    text = CATALOGUE.texts[language][key]
    return text.format(**values) if values else text


def say(key: str, **values: Any) -> str:
    """Text a handler builds at run time, in the visitor's language (`visitor_language`), with
    `values` filled into the catalogue's `{name}` places. One helper for every tab: the browser
    translates only whole texts (Gradio's `I18nData`, one per value, no values inside), so texts
    with numbers or several parts are chosen here."""
    return for_audience(say_in(visitor_language(), key, **values))
