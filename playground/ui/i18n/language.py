"""The header's language switch: English or Simplified Chinese at once (through Gradio's own locale
store, as its Settings panel does), remembered in this browser; the words are in `i18n.py`.

The choice is kept in one place, a cookie: the page reads it on load (and applies it), and every
event the page sends carries it, so texts built by handlers (`i18n.say`) come in the same language.
A first visit without the cookie gets the browser's language, written into the cookie at once. A
cookie naming anything but a language the switch offers (`__proto__`, a typo, an old value) is
ignored on both sides: the page treats it as no choice, the server as absent."""

from __future__ import annotations

import json

LANGUAGE_CHOICES = (("English", "en"), ("中文", "zh-CN"))
LANGUAGE_VALUES = tuple(value for _, value in LANGUAGE_CHOICES)
LANGUAGE_COOKIE = "gateway-playground-language"
_KNOWN = f"const known = {json.dumps(list(LANGUAGE_VALUES))};"
_APPLY = """(language) => {
  const core = performance.getEntriesByType("resource").map((entry) => entry.name).find((name) => /\\/assets\\/core-[^/]+\\.js$/.test(name));
  if (core && language) import(core).then((module) => module.changeLocale(language));
}"""
_KEEP = f"""(language) => {{
  document.cookie = "{LANGUAGE_COOKIE}=" + encodeURIComponent(language) + "; path=/; max-age=31536000; SameSite=Strict";
}}"""
SWITCH_JS = f"""(language) => {{
  {_KNOWN}
  if (!known.includes(language)) return null;
  ({_KEEP})(language);
  ({_APPLY})(language);
  return language;
}}"""
"""A person switched the language: show it at once (Gradio's own locale store) and remember it."""
REMEMBERED_JS = f"""() => {{
  const kept = document.cookie.split("; ").find((part) => part.startsWith("{LANGUAGE_COOKIE}="));
  {_KNOWN}
  let saved = "";
  try {{ saved = kept ? decodeURIComponent(kept.slice({len(LANGUAGE_COOKIE) + 1})) : ""; }} catch (error) {{ saved = ""; }}
  if (!known.includes(saved)) saved = "";
  if (saved) ({_APPLY})(saved);
  const language = saved || ((navigator.language || "en").toLowerCase().startsWith("zh") ? "zh-CN" : "en");
  ({_KEEP})(language);
  return language;
}}"""
"""On load: the language chosen before (applied), else the browser's (Gradio already shows it),
kept in the cookie so the handlers' texts follow."""


def is_chinese(language: str | None) -> bool:
    """A language tag (`zh-CN`, `zh`, `zh-Hans`, …) or Accept-Language header naming Chinese first."""
    first = (language or "").split(",")[0].split(";")[0].strip().lower()
    return first.startswith("zh")
