"""The demo's built-in facts (`data/facts.json`): capitals, heights, superlatives, dates of events,
who made what, and definitions, each in English and Chinese. A question is matched on its first
characters only, against tables compiled once."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from playground.demo_gateway.answer_kit import HEAD, Found, Keys, grouped, load, say, words_of

_CAPITAL_CUE = Keys("capital", False)
_CAPITAL_CUE_ZH = Keys("首都|首府|京城", True)
_TAKES_THE = re.compile(r"\b(?:Tower|Building|Center|Centre|Pyramid|Statue|Matterhorn)\b")
_HEIGHT_CUE = Keys("tall|high|height|elevation|altitude", False)
_HEIGHT_CUE_ZH = Keys("多高|高度|海拔|有多高|多少米", True)
_WHO_CUE = Keys("who|whom|author|inventor|painter|invent|wrote|painted|discover", False)
_WHO_CUE_ZH = Keys("谁|作者|发明者|发现者", True)
_WHEN_CUE = Keys("when|year|date|day|what time", False)
_WHEN_CUE_ZH = Keys("什么时候|哪一年|哪年|何时|几几年|哪一天|日期|时间", True)


@dataclass(frozen=True)
class Entry:
    keys: Keys
    keys_zh: Keys
    short: str
    short_zh: str
    sentence: str
    sentence_zh: str


@dataclass(frozen=True)
class Tables:
    countries: list[tuple[str, str, str, str]]
    country_pattern: re.Pattern[str]
    country_by_name: dict[str, int]
    capital_pattern: re.Pattern[str]
    capital_by_name: dict[str, int]
    heights: list[tuple[str, str, int, str, str]]
    height_pattern: re.Pattern[str]
    height_by_name: dict[str, int]
    lists: dict[str, list[Entry]]


def _pattern(names: list[str]) -> re.Pattern[str]:
    ordered = sorted(set(names), key=len, reverse=True)
    return re.compile(r"(?<![a-z0-9])(" + "|".join(re.escape(name) for name in ordered) + r")(?![a-z0-9])")


def _names(spec: str) -> list[str]:
    return [name.strip() for name in spec.split("|") if name.strip()]


@lru_cache(maxsize=1)
def tables() -> Tables:
    data = load("facts.json")
    countries = [tuple(row) for row in data["countries"]]
    by_name: dict[str, int] = {}
    capitals: dict[str, int] = {}
    for index, (names, names_zh, capital, capital_zh) in enumerate(countries):
        for name in _names(names) + _names(names_zh):
            by_name[name.lower()] = index
        capitals.setdefault(capital.lower(), index)
        capitals.setdefault(capital_zh, index)
    heights = [tuple(row) for row in data["heights"]]
    height_names: dict[str, int] = {}
    for index, row in enumerate(heights):
        for name in _names(str(row[0])) + _names(str(row[1])):
            height_names[name.lower()] = index
    lists = {name: [Entry(Keys(row[0], False), Keys(row[1], True), *row[2:]) for row in data[name]]
             for name in ("superlatives", "events", "people", "definitions")}
    return Tables(countries, _pattern(list(by_name)), by_name, _pattern(list(capitals)), capitals,  # type: ignore[arg-type]  # the JSON rows are lists; Tables names them as tuples
                  heights, _pattern(list(height_names)), height_names, lists)  # type: ignore[arg-type]  # (as above)


def _first(pattern: re.Pattern[str], text: str) -> str | None:
    match = pattern.search(text)
    return match.group(1) if match else None


def _capital(text: str, words: str, zh: bool) -> Found | None:
    t = tables()
    lowered = text.lower()
    asks_capital = (_CAPITAL_CUE_ZH if zh else _CAPITAL_CUE).matches(words)
    country = _first(t.country_pattern, lowered)
    if country is not None and asks_capital:
        names, names_zh, capital, capital_zh = t.countries[t.country_by_name[country]]
        name, name_zh = _names(names)[0], _names(names_zh)[0]
        if zh:
            return Found("fact", capital_zh, f"{name_zh}的首都是{capital_zh}。", zh=True)
        the = "the " if name.startswith(("United", "Netherlands", "Philippines", "Czech")) else ""
        return Found("fact", capital, f"The capital of {the}{name} is {capital}.")
    city = _first(t.capital_pattern, lowered) if asks_capital else None
    if city is not None and country is None:
        names, names_zh, capital, capital_zh = t.countries[t.capital_by_name[city]]
        name, name_zh = _names(names)[0], _names(names_zh)[0]
        return Found("fact", say(zh, name, name_zh), say(zh, f"{capital} is the capital of {name}.", f"{capital_zh}是{name_zh}的首都。"), zh=zh)
    return None


def _height(text: str, words: str, zh: bool) -> Found | None:
    t = tables()
    asks = (_HEIGHT_CUE_ZH if zh else _HEIGHT_CUE).matches(words)
    name = _first(t.height_pattern, text.lower()) if asks else None
    if name is None:
        return None
    names, names_zh, metres, note, note_zh = t.heights[t.height_by_name[name]]
    feet = round(metres / 0.3048)
    if zh:
        title = _names(names_zh)[0]
        return Found("fact", f"{metres} 米", f"{title}高 {metres} 米（约 {feet} 英尺）。", f"{title}：{note_zh}。", zh=True)
    title = _names(names)[0]
    title = f"The {title}" if _TAKES_THE.search(title) else title  # the Eiffel Tower, but Mount Fuji
    return Found("fact", f"{grouped(metres, False)} m", f"{title} is {grouped(metres, False)} m ({grouped(feet, False)} ft) tall.",
                 f"That is {note}.")


_PEAK_CUE = Keys("tallest/highest mountain|tallest/highest peak", False)
_PEAK_CUE_ZH = Keys("最高 山/峰", True)
_WHOLE_WORLD = re.compile(r" (?:in|on|of) (?:the )?(?:world|earth|planet) ")
_REGION = re.compile(r" (?:mountain|mountains|peak|peaks) (?:in|of) (?:the )?([a-z]+(?: [a-z]+)?) ")
_REGION_NOTE = re.compile(r"^the highest mountain in (?:the )?(.+)$")
_REGION_NOTE_ZH = re.compile(r"^(.+?)最高(?:峰|的山)$")


@lru_cache(maxsize=1)
def _peaks_by_region() -> tuple[dict[str, int], list[tuple[str, int]]]:
    """The heights table's regional peaks ("the highest mountain in Europe" / "欧洲最高峰"), by region:
    English names, and Chinese names longest first (北美洲 before 美洲)."""
    english: dict[str, int] = {}
    chinese: list[tuple[str, int]] = []
    for index, (_, _, _, note, note_zh) in enumerate(tables().heights):
        if (match := _REGION_NOTE.match(note)) is not None:
            english[match.group(1).lower()] = index
        if (match_zh := _REGION_NOTE_ZH.match(note_zh)) is not None:
            chinese.append((match_zh.group(1), index))
    return english, sorted(chinese, key=lambda pair: len(pair[0]), reverse=True)


def _regional_peak(text: str, words: str, zh: bool) -> Found | bool | None:
    """The highest mountain of a region the question names ("in Europe", "欧洲"): its entry; False
    when it names a region the table does not hold (not the whole world's peak instead); None when
    it asks about no region (in Chinese a region is found only by the table's names)."""
    if not (_PEAK_CUE_ZH if zh else _PEAK_CUE).matches(words):
        return None
    english, chinese = _peaks_by_region()
    if zh:
        region = next(((name, index) for name, index in chinese if name in text), None)
        if region is None:
            return None
        names_zh, metres = tables().heights[region[1]][1], tables().heights[region[1]][2]
        title = _names(names_zh)[0]
        return Found("fact", title, f"{region[0]}最高的山是{title}，海拔 {metres} 米。", zh=True)
    if _WHOLE_WORLD.search(words):
        return None
    asked = _REGION.search(words)
    if asked is None:
        return None
    index = english.get(asked.group(1)) if asked.group(1) in english else english.get(asked.group(1).split()[0])
    if index is None:
        return False
    names, _, metres, note, _ = tables().heights[index]
    title = _names(names)[0]
    return Found("fact", title, f"The highest mountain in {note.removeprefix('the highest mountain in ')} is {title}, "
                                f"{grouped(metres, False)} m above sea level.")


def _listed(name: str, words: str, zh: bool) -> Found | None:
    for entry in tables().lists[name]:
        if (entry.keys_zh if zh else entry.keys).matches(words):
            if zh:
                return Found("fact", entry.short_zh, entry.sentence_zh, zh=True)
            return Found("fact", entry.short, entry.sentence)
    return None


def _defined(words: str, zh: bool) -> Found | None:
    found = _listed("definitions", words, zh)
    if found is None:
        return None
    # a definition's "short" is the term itself: the sentence is the answer
    return Found("fact", found.sentence, found.sentence, zh=zh)


def look_up(prompt: str, zh: bool) -> Found | None:
    """A fact the question asks for, or None."""
    text = prompt[:HEAD]
    words = text if zh else words_of(text)
    who = (_WHO_CUE_ZH if zh else _WHO_CUE).matches(words)
    when = (_WHEN_CUE_ZH if zh else _WHEN_CUE).matches(words)
    for finder in (_capital, _height):
        found = finder(text, words, zh)
        if found is not None:
            return found
    peak = _regional_peak(text, words, zh)
    if isinstance(peak, Found):
        return peak
    order = [] if peak is False else ["superlatives"]  # a region not held: not the world's peak instead
    order += ["people", "events"] if who and not when else ["events", "people"]
    for name in order:
        found = _listed(name, words, zh)
        if found is not None:
            return found
    return _defined(words, zh)
