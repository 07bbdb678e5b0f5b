"""A default a person may edit (Compare's message, Batch's prompt template) in the visitor's language,
and only while it is untouched. The page is built with the first locale's text; on the page's load a
script in the page (`first_default_js`, no server step) writes the visitor's language's text, but only
while the box still holds the first locale's, read at that moment: what was typed before, or what a
link or a restore wrote, is kept. After the header's language switch the server replaces it only while
the box still holds the default of some language (Gradio's own translation of a value would write over
what was typed)."""

from __future__ import annotations

import json
from typing import Any

import gradio as gr

from playground.ui.i18n import english, languages, say, words_in_every_language
from playground.ui.i18n.language import link_language_js


def first_default_js(key: str) -> str:
    """`(current) => text`: the page-load script for a box built with the catalogue's text `key` in the
    first locale; the text in the page's language (its cookie) while the box holds the first locale's."""
    words = {code: texts[key] for code, texts in words_in_every_language([key]).items()}
    return f"""(current) => {{
  const language = ({link_language_js(languages())})();
  const words = {json.dumps(words, ensure_ascii=False)};
  return language && current === {json.dumps(english(key), ensure_ascii=False)} && words[language] ? words[language] : current;
}}"""


def reworded_default(key: str, current: Any) -> Any:
    """After the language switch: `key` in the new language when `current` is its text in any language, else skip (kept as typed)."""
    untouched = {texts[key] for texts in words_in_every_language([key]).values()}
    return say(key) if current in untouched else gr.skip()


def worded_fill_js(scroll: str, by_language: dict[str, Any]) -> str:
    """A `js=` function for an example whose values are words (`examples.Said`): runs `scroll`, then returns
    the values of the page's language at that moment (its cookie, as the switch keeps it; `by_language`: locale
    code -> values), the first locale's for a language that has none."""
    first = languages()[0].code
    return (f"() => {{ {scroll} const byLanguage = {json.dumps(by_language, ensure_ascii=False)}; "
            f"return byLanguage[({link_language_js(languages())})()] || byLanguage[{json.dumps(first)}]; }}")
