"""Answers with sources (grounding, web search) in the language the question was asked in.

The demo has no web: its two sources are fixed. What it writes about them is a sentence per
source, each citing one, in English, German, French, Spanish or Simplified Chinese.
"""

from __future__ import annotations

import re

from playground.demo_gateway import scripted

_MARKERS = {
    "de": {"was", "wie", "warum", "wer", "wo", "ist", "der", "die", "das", "und", "nicht", "ein", "eine", "gibt", "neu"},
    "fr": {"que", "quoi", "pourquoi", "comment", "est", "le", "la", "les", "une", "des", "qu'est-ce", "quel", "quelle"},
    "es": {"qué", "que", "cómo", "por", "es", "el", "la", "los", "las", "una", "cuál", "dónde", "hay"},
    "en": {"what", "how", "why", "who", "where", "is", "the", "a", "an", "and", "of", "new", "does", "do"},
}

_SENTENCES = {
    "en": ("{title} gives an overview of this.", "{title} reports the latest changes."),
    "de": ("{title} gibt einen Überblick dazu.", "{title} berichtet über die neuesten Änderungen."),
    "fr": ("{title} en donne un aperçu.", "{title} présente les dernières nouveautés."),
    "es": ("{title} ofrece un resumen.", "{title} informa de los últimos cambios."),
    "zh": ("{title}对此有概述。", "{title}报道了最新变化。"),
}
_INTRO = {
    "en": "Here is what the sources say:",
    "de": "Das sagen die Quellen dazu:",
    "fr": "Voici ce que disent les sources :",
    "es": "Esto dicen las fuentes:",
    "zh": "来源是这样说的：",
}
"""The answer does not quote the question back."""
_GATEWAY = {
    "en": ("The gateway is one API in front of many model families, with one base URL and one key ({title}).",
           "Each request goes to the model family named by its model id ({title})."),
    "zh": ("网关是位于多个模型家族之前的统一 API，只需一个基础地址和一个密钥（{title}）。",
           "每个请求都会转给其模型 ID 所指的模型家族（{title}）。"),
}
_ASKED = {"en": ("what is the gateway?", "what is new in the gateway?"), "zh": ("什么是网关?", "网关有什么新功能?")}
"""The examples' questions about the gateway (scripted keys): "what is" gets the gateway's own sentences, "what is new" the sources'."""


def language_of(text: str) -> str:
    """A rough guess at the language of a question: en, de, fr, es or zh (English when unsure)."""
    if re.search(r"[\u4e00-\u9fff]", text):
        return "zh"
    words = re.findall(r"[\w'’]+", text.lower())
    if any(ch in text.lower() for ch in "äöüß"):
        return "de"
    scores = {lang: sum(word in markers for word in words) for lang, markers in _MARKERS.items()}
    best = max(scores, key=lambda lang: (scores[lang], lang == "en"))
    return best if scores[best] else "en"


def cited_sentences(prompt: str, titles: list[str]) -> tuple[str, list[tuple[str, int]]]:
    """An introduction and (sentence, index of the source it cites) pairs, in the prompt's language:
    one sentence for each of the first two sources (`titles`)."""
    language = language_of(prompt)
    asked = scripted.key(prompt)
    if asked in _ASKED.get(language, ()):
        what_is = asked == _ASKED[language][0]
        intro = ("In short:" if language == "en" else "简单地说：") if what_is else scripted.answer(prompt) or _INTRO[language]
        templates = _GATEWAY[language] if what_is else _SENTENCES[language]
    else:
        intro = _INTRO[language]
        templates = _SENTENCES[language]
    pairs = [(template.format(title=title), index) for index, (title, template) in enumerate(zip(titles, templates))]
    return intro, pairs
