"""What the demo writes from its curated material (`data/writing.json`): recipes, short poems and
translations of common phrases, in English and Chinese, and a summary of a pasted text made of
its most telling sentences (read up to a bound, never whole when huge)."""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache
from typing import Any

from playground.demo_gateway.answer_kit import HEAD, Found, Keys, load, say, words_of

SUMMARY_CHARS = 20_000
SUMMARY_SENTENCES = 400
_RECIPE_CUE = re.compile(r" recipes? | how (?:do|can|should|would|could) (?:i|you|we|one) (?:make|cook|bake|prepare) | how to (?:make|cook|bake|prepare) "
                         r"| instructions (?:to|for) (?:make|making|cook|cooking) | how (?:is|are) (?:\S+ ){1,4}(?:made|cooked|baked) ")
_RECIPE_CUE_ZH = Keys("怎么做|做法|食谱|菜谱|如何做|怎样做|怎么煮|怎么泡|如何泡", True)
_POEM_CUE = Keys("poem|poetry|haiku|verse|rhyme|sonnet|limerick", False)
_POEM_CUE_ZH = Keys("诗|诗歌|写一首|俳句", True)
_HAIKU_CUE = Keys("haiku", False)
_HAIKU_CUE_ZH = Keys("俳句", True)
_SUMMARY_CUE = re.compile(r"summari[sz]e|summary|tl;?dr|sum up|in a nutshell|key points|gist", re.IGNORECASE)
_SUMMARY_CUE_ZH = re.compile(r"总结|概括|摘要|归纳|概述|要点")
_TRANSLATE_CUE = re.compile(r"translat|how (?:do|would|can) (?:you|i|we) say|what(?: is|'s) .{1,40} in \w+|say .{1,40} in \w+", re.IGNORECASE)
_TRANSLATE_CUE_ZH = re.compile(r"翻译|怎么说|如何说|怎样说|译成|译为|用\S{1,4}[语文]")
_ASKS_TRANSLATION = re.compile(r"translat|how (?:do|would|can) (?:you|i|we) say")
_ASKS_TRANSLATION_ZH = re.compile(r"翻译|译成|译为")
_SENTENCE = re.compile(r"[^.!?。！？\n]+[.!?。！？]*")
_QUOTED = re.compile(r"[\"“'‘「『]([^\"”'’」』]{1,200})[\"”'’」』]")
_NOT_WORDS = re.compile(r"[\W_]+")
_STOP = frozenset(("the", "a", "an", "of", "to", "in", "on", "at", "by", "for", "with", "and", "or", "is", "are", "was", "were", "be",
                   "been", "it", "its", "this", "that", "these", "those", "as", "from", "has", "have", "had", "will", "would", "can",
                   "could", "not", "but", "they", "he", "she", "we", "you", "i", "our", "their", "his", "her", "which", "who", "what", "when"))


@lru_cache(maxsize=1)
def _material() -> dict[str, Any]:
    data = load("writing.json")
    return {
        "recipes": [(Keys(row[0], False), Keys(row[1], True), row) for row in data["recipes"]],
        "poems": [(Keys(row[0], False), Keys(row[1], True), row) for row in data["poems"]],
        "languages": data["languages"],
        "phrases": data["phrases"],
    }


def _curated(kind: str, prompt: str, zh: bool, haiku: bool = False) -> Found | None:
    """The curated piece on the subject asked for (a poem's haiku form when `haiku`), or what the demo keeps."""
    words = prompt[:HEAD] if zh else words_of(prompt)
    for keys, keys_zh, row in _material()[kind]:
        if (keys_zh if zh else keys).matches(words):
            title, text = (row[3], row[5]) if zh else (row[2], row[4])
            if haiku:
                title, text = say(zh, f"{title} (a haiku)", f"{title}（俳句）"), row[7 if zh else 6]
            tip = say(zh, "Want it shorter, longer or changed? Say how and ask again.", "想要更短、更长或换个写法？说明要求后再问一次。")
            if kind == "recipes":
                tip = say(zh, "Tip: read the whole recipe once before you start, and set out everything you need.",
                          "小提示：开始前先把整份菜谱读一遍，把要用的东西都准备好。")
            return Found(kind.rstrip("s"), title, text, tip, zh)
    topics = [row[3 if zh else 2] for _, _, row in _material()[kind]]
    names = "、".join(topics) if zh else ", ".join(t.split(" (")[0].lower() for t in topics)
    if kind == "recipes":
        return Found("unknown", "", say(zh, f"The offline demo only knows a few recipes: {names}. Ask for one of them, or connect a real gateway for any dish.",
                                        f"离线演示只会几道菜：{names}。可以问其中一道，或连接真实网关来问任何菜。"), zh=zh)
    return Found("unknown", "", say(zh, f"The offline demo keeps a few short poems, about: {names}. Ask for one of them, or connect a real gateway for a poem on any subject.",
                                    f"离线演示只存了几首短诗，主题是：{names}。可以选其中一个，或连接真实网关来写任何主题的诗。"), zh=zh)


def recipe(prompt: str, zh: bool) -> Found | None:
    asks = _RECIPE_CUE_ZH.matches(prompt[:HEAD]) if zh else _RECIPE_CUE.search(words_of(prompt)) is not None
    return _curated("recipes", prompt, zh) if asks else None


def poem(prompt: str, zh: bool) -> Found | None:
    asks = _POEM_CUE_ZH.matches(prompt[:HEAD]) if zh else _POEM_CUE.matches(words_of(prompt))
    if not asks:
        return None
    return _curated("poems", prompt, zh, haiku=_HAIKU_CUE_ZH.matches(prompt[:HEAD]) if zh else _HAIKU_CUE.matches(words_of(prompt)))


def _language(text: str, zh: bool) -> str | None:
    """The language asked for (the last one named: "translate 'hello' from English into French" -> fr)."""
    best: tuple[int, str] | None = None
    for code, (names, names_zh, _, _) in _material()["languages"].items():
        for name in (names_zh if zh else names).split("|"):
            position = text.rfind(name) if zh else max((m.start() for m in re.finditer(rf"\b{name}\b", text)), default=-1)
            if position >= 0 and (best is None or position > best[0]):
                best = (position, code)
    return best[1] if best else None


def translate(prompt: str, zh: bool) -> Found | None:
    text = prompt[:HEAD]
    lowered = text.lower().replace("’", "'")
    if not (_TRANSLATE_CUE_ZH.search(text) if zh else _TRANSLATE_CUE.search(lowered)):
        return None
    target = _language(text if zh else lowered, zh)
    explicit = _ASKS_TRANSLATION_ZH.search(text) if zh else _ASKS_TRANSLATION.search(lowered)
    phrase = None
    for row in _material()["phrases"]:
        for code in ("en", "zh"):
            if (code == "zh" and row[code] in text) or (code == "en" and re.search(rf"\b{re.escape(row[code])}\b", lowered)):
                phrase = (row, code)
                break
        if phrase:
            break
    languages = _material()["languages"]
    if (target is None or phrase is None) and not explicit:
        return None  # "what is the tallest mountain in the world" only looks like "what is X in French"
    if target is None or phrase is None:
        names = "、".join(v[3] for v in languages.values()) if zh else ", ".join(v[2] for v in languages.values())
        examples = "你好、谢谢、早上好、再见、生日快乐" if zh else "hello, thank you, good morning, goodbye, happy birthday"
        return Found("unknown", "", say(zh, f"The offline demo translates only common phrases (such as {examples}) between {names}. "
                                            "Name the phrase and the language, or connect a real gateway to translate anything.",
                                        f"离线演示只能翻译常用短语（例如{examples}），支持：{names}。请写明短语和目标语言，或连接真实网关来翻译任意内容。"), zh=zh)
    row, source = phrase
    if target == source:
        target = "en" if source == "zh" else "zh"
    rendered = row[target] if target != "en" else row["en"].capitalize().replace(" i ", " I ").replace("I don't", "I don't")
    rendered = rendered[0].upper() + rendered[1:] if target == "en" else rendered
    said = row[source] if source == "zh" else row["en"].capitalize()
    name, name_zh = languages[target][2], languages[target][3]
    whole = _longer_quote(text, row[source])
    if whole:
        return Found("translation", rendered, say(
            zh, f"The offline demo translates only common phrases, not all of “{whole}”: of it, it knows that in {name} “{said}” is "
                f"“{rendered}”. Connect a real gateway to translate the whole text.",
            f"离线演示只会翻译常用短语，无法翻译整句“{whole}”：其中“{said}”用{name_zh}说是“{rendered}”。连接真实网关即可翻译整段内容。"), "", zh)
    return Found("translation", rendered, say(zh, f"In {name}, “{said}” is “{rendered}”.", f"“{said}”用{name_zh}说是“{rendered}”。"), "", zh)


def _longer_quote(text: str, phrase: str) -> str:
    """The quoted text the phrase was found in when it holds more words than the phrase ("" when it holds no more)."""
    known = _NOT_WORDS.sub(" ", phrase.lower()).strip()
    for quoted in _QUOTED.findall(text.replace("’", "'")):
        words = _NOT_WORDS.sub(" ", quoted.lower()).strip()
        if known in words and words != known:
            return quoted.strip()
    return ""


def _pasted(prompt: str) -> str:
    head = prompt[:SUMMARY_CHARS]
    for mark in ("\n", ":", "：", "。"):
        cut = head.find(mark)
        if 0 <= cut < 200 and len(head) - cut > 60:
            return head[cut + 1:].strip()
    return ""


def summary(prompt: str, zh: bool) -> Found | None:
    """The opening sentence of a pasted text and, when it is longer, its most telling other one (word
    frequency), in the text's order."""
    if not (_SUMMARY_CUE_ZH.search(prompt[:200]) if zh else _SUMMARY_CUE.search(prompt[:200])):
        return None
    text = _pasted(prompt)
    sentences = [s.strip() for s in _SENTENCE.findall(text)[:SUMMARY_SENTENCES] if len(s.strip()) > 8]
    if len(sentences) < 2:
        return Found("unknown", "", say(zh, "Paste the text after your request (for example “Summarise this: …”, the text on the next line) "
                                            "and the offline demo will pick out its key sentences.",
                                        "请把要总结的文字贴在请求后面（例如“总结一下：……”，正文另起一行），离线演示会挑出其中的关键句。"), zh=zh)
    tokens = [re.findall(r"[\u4e00-\u9fff]{2}|[a-z]{3,}", s.lower()) for s in sentences]
    counts = Counter(t for words in tokens for t in words if t not in _STOP)
    scores = [(sum(counts[t] for t in words if t not in _STOP) / (1 + len(words)) ** 0.5, index) for index, words in enumerate(tokens)]
    keep = 1 if len(sentences) <= 4 else 2
    # the opening sentence states what the text is about (a later one may lean on it: "that day"), so it
    # always leads; a longer text adds its most telling other sentence
    ranked = [index for _, index in sorted(scores[1:], key=lambda pair: (-pair[0], pair[1]))]
    chosen = [0, *ranked[: keep - 1]]
    picked = ("" if zh else " ").join(sentences[i] for i in chosen)
    words = len(text.split()) if not zh else len(re.findall(r"[\u4e00-\u9fff]", text))
    detail = say(zh, f"(Picked from {len(sentences)} sentences, about {words} words; the offline demo summarises by choosing sentences, not by rewriting.)",
                 f"（从 {len(sentences)} 个句子、约 {words} 字中挑选；离线演示通过挑选句子来概括，而不是改写。）")
    return Found("summary", picked, say(zh, f"In short: {picked}", f"概括：{picked}"), detail, zh)
