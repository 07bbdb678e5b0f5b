"""The header's language switch: English or Simplified Chinese at once (through Gradio's own locale
store, as its Settings panel does), remembered in this browser; the words are in `i18n.py`."""

from __future__ import annotations

LANGUAGE_CHOICES = (("English", "en"), ("中文", "zh-CN"))
LANGUAGE_STORAGE_KEY = "gateway-playground-language"
_APPLY = """(language) => {
  const core = performance.getEntriesByType("resource").map((entry) => entry.name).find((name) => /\\/assets\\/core-[^/]+\\.js$/.test(name));
  if (core && language) import(core).then((module) => module.changeLocale(language));
}"""
SWITCH_JS = f"""(language) => {{
  if (language) localStorage.setItem("{LANGUAGE_STORAGE_KEY}", language);
  ({_APPLY})(language);
  return language;
}}"""
"""A person switched the language: show it at once (Gradio's own locale store) and remember it."""
REMEMBERED_JS = f"""() => {{
  const saved = localStorage.getItem("{LANGUAGE_STORAGE_KEY}");
  if (saved) ({_APPLY})(saved);
  return saved || ((navigator.language || "en").toLowerCase().startsWith("zh") ? "zh-CN" : "en");
}}"""
"""On load: the language chosen before (applied), else the browser's (Gradio already shows it)."""
