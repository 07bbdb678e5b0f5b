"""What the demo's answering modules share: the `Found` answer, the question's language, keyword
matching over a bounded head of the prompt, the data files and number formatting."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).with_name("data")
HEAD = 400
"""Characters of a prompt a question is looked for in (a question is short; a pasted text is not parsed whole)."""
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
_TOKEN = re.compile(r"[a-z0-9][a-z0-9'.²]*")
_COUNTED = r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|twenty|fifty|a hundred|a few|a single)"
_FORM = re.compile(
    rf"\b(?:(?:answer|reply|respond|explain|say|write|put|tell me|keep)\s+(?:it\s+|this\s+|that\s+)?)?"
    rf"(?:in|with|using|use)\s+(?:at most\s+|no more than\s+|under\s+|fewer than\s+|less than\s+|up to\s+|exactly\s+)?{_COUNTED}\s+"
    rf"(?:short\s+|brief\s+|full\s+)?(?:sentences?|words?|lines?|paragraphs?|bullet points?|bullets?)\b\s*[:,.;]?"
    r"|(?:请\s*)?用\s*[一二两三四五六七八九十\d]+\s*(?:句话|个字|个词|行|段话?)\s*(?:以内|之内)?\s*(?:回答|作答|说明|概括|写)?\s*[:：,，。]?"
    r"|[一二两三四五六七八九十\d]+\s*句话\s*(?:回答|作答|说明|概括)\s*[:：,，。]?"
    r"|(?:请\s*)?(?:用\s*)?(?:不超过|少于|最多)\s*\d+\s*个?字\s*(?:以内)?\s*(?:回答|作答)?\s*[:：,，。]?",
    re.IGNORECASE)


@dataclass(frozen=True)
class Found:
    """An answer the demo can give: the bare value, a sentence, and how it was reached (or more to say).

    `slip` is what a model that skips the last step answers instead (multi-step word problems)."""

    kind: str
    short: str
    sentence: str
    detail: str = ""
    zh: bool = False
    slip: Found | None = None


def is_chinese(text: str) -> bool:
    """The question is Chinese when its Chinese characters outnumber its Latin words."""
    head = text[:HEAD]
    han = len(_CJK.findall(head))
    return han > 0 and han >= len(_LATIN_WORD.findall(head))


def without_form(text: str) -> str:
    """`text` without instructions about the answer's form ("Answer in one sentence:", "用一句话回答："): how
    long the answer should be is not part of the question, and its number is not a quantity in it."""
    return _FORM.sub(" ", text)


@lru_cache(maxsize=4)
def load(name: str) -> dict[str, Any]:
    with (DATA / name).open(encoding="utf-8") as file:
        data: dict[str, Any] = json.load(file)
    return data


def words_of(text: str) -> str:
    """The head of an English text as " word word ... " (lower case), for `Keys.matches`."""
    return " " + " ".join(_TOKEN.findall(text[:HEAD].lower().replace("’", "'"))) + " "


class Keys:
    """Alternatives `a b|c d/e`: one matches when each of its words is there (a word of three
    letters or more may start a longer one: mountain -> mountains; `d/e` is either spelling).
    English keys are looked for in `words_of(text)`, Chinese ones as plain substrings."""

    def __init__(self, spec: str, chinese: bool) -> None:
        self.chinese = chinese
        self.needles = [[tuple(self._needle(choice, chinese) for choice in word.split("/")) for word in alternative.split()]
                        for alternative in spec.split("|") if alternative.strip()]

    @staticmethod
    def _needle(word: str, chinese: bool) -> str:
        if chinese:
            return word
        return f" {word} " if len(word) <= 2 else f" {word}"

    def matches(self, text: str) -> bool:
        for alternative in self.needles:
            for choices in alternative:
                for needle in choices:
                    if needle in text:
                        break
                else:
                    break  # a word of this alternative is missing
            else:
                return True
        return False


def number(value: float) -> str:
    """A number as people write it: whole numbers without a fraction, others to at most 4 decimals."""
    if abs(value - round(value)) < 1e-9 and abs(value) < 1e15:
        return str(round(value))
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return text if text not in ("-0", "") else "0"


def grouped(value: float, zh: bool) -> str:
    """`number`, with thousands separated for English readers (12,500)."""
    text = number(value)
    if zh or "e" in text:
        return text
    whole, dot, fraction = text.partition(".")
    sign = "-" if whole.startswith("-") else ""
    digits = whole.lstrip("-")
    return sign + f"{int(digits):,}" + dot + fraction if digits.isdigit() else text


def say(zh: bool, english: str, chinese: str) -> str:
    return chinese if zh else english
