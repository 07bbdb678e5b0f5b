"""The languages of the interface (`LOCALES`, the only place one is named) and the header's switch
between them: it changes the page at once (through Gradio's own locale store, as its Settings panel
does) and is remembered in this browser; the words are in `locales/<code>.json`.

The choice is kept in one place, a cookie: the page reads it on load (and applies it), and every
event the page sends carries it, so texts built by handlers (`i18n.say`) come in the same language.
A first visit without the cookie gets the browser's language, written into the cookie at once.
A cookie or browser language that names no known locale is ignored, in the page and in handlers.

Adding a language: its files in `locales/` (`<code>.json` with every key of `en.json`, and
`client.<code>.json` for the client's texts) and one `Locale` in `LOCALES`; no other code names it."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

LANGUAGE_COOKIE = "gateway-playground-language"
LANGUAGE_PARAMETER = "lang"
"""The link parameter that opens a page in a language (`?lang=zh-CN`): Copy link writes it when the
page is not in the first locale; it wins over the cookie for that page and is then kept in it."""
MAX_LINK_TAG = 35
"""A link's `lang` value longer than this is no tag of ours: ignored before it is looked up."""


@dataclass(frozen=True)
class Locale:
    """One language of the interface."""

    code: str
    """Its BCP 47 tag: the name of its files (`locales/<code>.json`) and the switch's value."""
    name: str
    """Its name in the header's switch, in its own words."""
    aliases: tuple[str, ...] = ()
    """Other tags a browser may ask for it by (`zh`, `zh-Hans`), read by `resolve` and the page's
    scripts; the page's catalogue carries its words once, under `page_tag`."""
    list_separator: str = "; "
    """Between problems listed on one line."""
    sentence_gap: str = " "
    """Between two sentences (a message and its hint)."""

    @property
    def tags(self) -> tuple[str, ...]:
        return (self.code, *self.aliases)

    @property
    def page_tag(self) -> str:
        """The one tag the page's catalogue (Gradio's `I18n`) holds its words under: its primary
        language (`zh` for `zh-CN`) when that is one of its tags, else its code. The page looks a
        word up in its locale, then in that locale's parents (svelte-i18n: `zh-SG`, then `zh`; then
        `en`), so every tag of the language finds the one copy: `zh-CN` and `zh-TW` (Gradio's own
        locales), and `zh-SG`, `zh-Hans` or `zh` once the page applies `remembered_js`'s choice."""
        primary = self.code.split("-")[0]
        return primary if primary in self.tags else self.code


LOCALES: tuple[Locale, ...] = (
    Locale("en", "English"),
    Locale("zh-CN", "中文", aliases=("zh", "zh-Hans", "zh-SG"), list_separator="；", sentence_gap=""),
)
"""The interface's languages; the first is the one the code and the client write in (the default
rendering of every text and the language of a visitor whose language is unknown)."""


def known_tags(locales: Sequence[Locale]) -> dict[str, str]:
    """Every tag a locale answers to, lower-cased, to its code."""
    return {tag.lower(): locale.code for locale in locales for tag in locale.tags}


def resolve(tag: str | None, locales: Sequence[Locale]) -> Locale | None:
    """The locale a language tag (or an Accept-Language header, by its first language) names: its
    code or an alias, else its primary language (`zh-TW` -> the locale answering to `zh`); None for
    anything else (an unknown cookie value is ignored, never trusted)."""
    first = (tag or "").split(",")[0].split(";")[0].strip().lower()
    known = known_tags(locales)
    code = known.get(first) or known.get(first.split("-")[0])
    return next((locale for locale in locales if locale.code == code), None) if code else None


def link_locale(value: str | None, locales: Sequence[Locale]) -> Locale | None:
    """The locale a link's `lang` value names: one of its tags exactly (any case), else None. A
    stranger's value, so only known tags, at most `MAX_LINK_TAG` characters; no list or fallback."""
    if value is None or len(value) > MAX_LINK_TAG:
        return None
    code = known_tags(locales).get(value.lower())
    return next((locale for locale in locales if locale.code == code), None) if code else None


def switch_choices(locales: Sequence[Locale]) -> list[tuple[str, str]]:
    """The header switch's choices: (the language's own name, its code)."""
    return [(locale.name, locale.code) for locale in locales]


_APPLY = """(language) => {
  const core = performance.getEntriesByType("resource").map((entry) => entry.name).find((name) => /\\/assets\\/core-[^/]+\\.js$/.test(name));
  if (core && language) import(core).then((module) => module.changeLocale(language));
}"""
_KEEP = f"""(language) => {{
  document.cookie = "{LANGUAGE_COOKIE}=" + encodeURIComponent(language) + "; path=/; max-age=31536000; SameSite=Strict";
}}"""
_DROP_LINKED = f"""() => {{
  const url = new URL(window.location.href);
  if (!url.searchParams.has("{LANGUAGE_PARAMETER}")) return;
  url.searchParams.delete("{LANGUAGE_PARAMETER}");
  history.replaceState(history.state, "", url.pathname + url.search + url.hash);
}}"""
"""A person chose a language: a link's `lang` no longer says the page's language, so it leaves the
address (every event sends the address's query, which the handlers read before the cookie)."""
_RELABEL = """(language, words) => {
  const own = window.__playgroundTabWords || (window.__playgroundTabWords = {language: "", words: {}, observer: null});
  if (language) own.language = language;
  if (words) own.words = words;
  const target = own.words[own.language];
  if (!target) return;
  const keyOf = {};
  for (const code in own.words) {
    for (const key in own.words[code]) {
      const text = own.words[code][key];
      keyOf[text] = keyOf[text] === undefined || keyOf[text] === key ? key : null;
    }
  }
  const relabel = () => document.querySelectorAll(".tab-wrapper button").forEach((button) => {
    for (const node of button.childNodes) {
      const key = node.nodeType === Node.TEXT_NODE ? keyOf[node.nodeValue.trim()] : null;
      if (key && target[key] !== node.nodeValue) node.nodeValue = target[key];
    }
  });
  own.relabel = relabel;
  relabel();
  if (own.observer) return;
  let queued = false;
  const near = (node) => node.nodeType === Node.ELEMENT_NODE && (node.closest(".tab-wrapper") || node.querySelector(".tab-wrapper"));
  own.observer = new MutationObserver((changes) => {
    if (queued || !changes.some((change) => near(change.target) || Array.from(change.addedNodes).some(near))) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; own.relabel(); });
  });
  own.observer.observe(document.body, {childList: true, subtree: true});
}"""
"""Gradio names a tab whose content was never shown in the language the page loaded in (it
translates the labels of `gr.Tabs` once, when it builds the page, and again only for a tab
that is mounted), so a switch left every tab not yet opened, and the inner tabs of a panel
(the inspector's), in the old language. This writes every tab button's words in the language
chosen, from the catalogue's words for the tab labels (`words`: code -> key -> text), now and
whenever Gradio draws tab buttons later (a tab opened for the first time mounts its inner tabs)."""


def switch_js(words: dict[str, dict[str, str]]) -> str:
    """A person switched the language: show it at once (Gradio's own locale store and every tab's
    name, `words` as in `_RELABEL`) and remember it."""
    return f"""(language) => {{
  if (language) ({_KEEP})(language);
  if (language) ({_DROP_LINKED})();
  ({_APPLY})(language);
  ({_RELABEL})(language, {json.dumps(words, ensure_ascii=False)});
  return language;
}}"""


def remembered_js(locales: Sequence[Locale], words: dict[str, dict[str, str]] | None = None) -> str:
    """On load: the language a link names (`?lang=`, one of `locales`' tags exactly, else ignored;
    the last `lang`, as the server reads a repeated parameter),
    else the language chosen before (applied), else the browser's, kept in the cookie so
    the handlers' texts follow. Each is read as one of `locales` (the same rule as `resolve`) or
    ignored. Gradio shows the browser's language itself only when it is one of Gradio's own
    locales or their primary language (`zh-CN`, `zh-TW`; not `zh-SG`, `zh-Hans` or `zh`, which it
    shows in English): the page's locale (`<html lang>`) is then read as one of `locales` and, when
    it is another, the browser's is applied. The tabs' names follow it (`words`, as in `switch_js`)."""
    return f"""() => {{
{_choice_lines(locales)}
  if (linked || saved) ({_APPLY})(linked || saved);
  else if (browser && pick(document.documentElement.lang) !== browser) ({_APPLY})(browser);
  const language = linked || saved || browser || "{locales[0].code}";
  ({_KEEP})(language);
  ({_RELABEL})(language, {json.dumps(words or {}, ensure_ascii=False)});
  return language;
}}"""


def _choice_lines(locales: Sequence[Locale]) -> str:
    """The page's reading of the language it is to show, as `remembered_js` and `chosen_js` share it: `linked`
    (a link's `lang`), `saved` (the cookie) and `browser`, each a code of `locales` or ""."""
    return f"""  const known = {json.dumps(known_tags(locales), ensure_ascii=False)};
  const own = (tag) => (Object.prototype.hasOwnProperty.call(known, tag) ? known[tag] : "");
  const pick = (tag) => {{
    const first = String(tag || "").split(",")[0].split(";")[0].trim().toLowerCase();
    return own(first) || own(first.split("-")[0]);
  }};
  const kept = document.cookie.split("; ").find((part) => part.startsWith("{LANGUAGE_COOKIE}="));
  let saved = "";
  try {{
    saved = kept ? pick(decodeURIComponent(kept.slice({len(LANGUAGE_COOKIE) + 1}))) : "";
  }} catch (error) {{
    saved = "";
  }}
  const asked = new URLSearchParams(window.location.search).getAll("{LANGUAGE_PARAMETER}").pop();
  const linked = asked !== undefined && asked.length <= {MAX_LINK_TAG} ? own(asked.toLowerCase()) : "";
  const browser = pick(navigator.language);"""


def chosen_js(locales: Sequence[Locale]) -> str:
    """`() => code`: the language the page is to show, read as `remembered_js` reads it (a link's `lang`, else
    the cookie, else the browser's), without applying or keeping it: run before Gradio's page starts, so its
    first paint is in that language (`gradio_compat.first_paint_in_language`)."""
    return f"""() => {{
{_choice_lines(locales)}
  return linked || saved || browser;
}}"""


def link_language_js(locales: Sequence[Locale]) -> str:
    """`() => code`: the page's language for a link (Copy link's `lang`), read from the cookie the
    page keeps it in (as one of `locales`); "" for the first locale or a value no locale answers to."""
    return f"""() => {{
  const known = {json.dumps(known_tags(locales), ensure_ascii=False)};
  const kept = document.cookie.split("; ").find((part) => part.startsWith("{LANGUAGE_COOKIE}="));
  let tag = "";
  try {{
    tag = kept ? decodeURIComponent(kept.slice({len(LANGUAGE_COOKIE) + 1})).toLowerCase() : "";
  }} catch (error) {{
    tag = "";
  }}
  const code = Object.prototype.hasOwnProperty.call(known, tag) ? known[tag] : "";
  return code === "{locales[0].code}" ? "" : code;
}}"""
