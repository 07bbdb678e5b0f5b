"""A small share-a-meaning vocabulary for the demo's embeddings.

Words of one group stand for one meaning (a paraphrase with other words lands close), word
forms are folded to a stem (sitting/sat -> sit), and words that carry no meaning on their own
weigh little. It is a demo, not a language model: it covers the playground's examples and the
everyday words around them.
"""

from __future__ import annotations

import re

_GROUPS = (
    ("sit", "sat", "sitting", "sits", "seated", "lying", "lay", "lies", "rest", "resting", "坐", "坐在", "躺", "躺在"),
    ("mat", "rug", "carpet", "doormat", "垫子", "毯子", "地毯"),
    ("cat", "cats", "kitten", "kitty", "feline", "猫", "小猫", "猫咪"),
    ("dog", "dogs", "puppy", "hound", "狗", "小狗"),
    ("revenue", "sales", "income", "turnover", "earnings", "takings", "营收", "收入", "销售额", "营业额"),
    ("grow", "grew", "grown", "growth", "rise", "rose", "risen", "rising", "increase", "increased", "climb", "climbed", "gain", "增长", "上涨", "增加", "上升"),
    ("fall", "fell", "drop", "dropped", "decrease", "decreased", "decline", "declined", "down", "下降", "下跌", "减少"),
    ("quarter", "quarterly", "quarters", "q1", "q2", "q3", "q4", "季度"),
    ("percent", "%", "percentage", "pct", "百分之"),
    ("ten", "10", "十"),
    ("bake", "baking", "baked", "bakes", "oven", "roast", "烤", "烘焙", "烤箱"),
    ("bread", "loaf", "sourdough", "baguette", "dough", "flour", "starter", "面包", "酸面包", "面粉", "面团", "酵头"),
    ("train", "rail", "railway", "trains", "火车", "列车"),
    ("leave", "leaves", "departs", "depart", "departure", "left", "出发", "发车"),
    ("sleep", "sleeps", "slept", "nap", "naps", "asleep", "睡", "睡觉"),
    ("car", "cars", "automobile", "vehicle", "汽车", "车"),
    ("happy", "glad", "joyful", "cheerful", "content", "delighted", "快乐", "高兴", "开心"),
    ("big", "large", "huge", "great", "大"),
    ("small", "little", "tiny", "小"),
    ("fast", "quick", "quickly", "rapid", "speedy", "快"),
    ("buy", "bought", "purchase", "purchased", "买", "购买"),
    ("begin", "start", "started", "starts", "commence", "开始"),
)
CONCEPT = {word: group[0] for group in _GROUPS for word in group}
_CHINESE_WORDS = ("十六", "四十", "分钟", "小时", "柏林", "九点", "需要", "一天", "放进", "最多", "一只", "这个", "我们", "怎样", "怎么",
                  "如何", "多久", "什么", "为什么")
"""Chinese words outside the groups that a sentence is cut into whole (Chinese is written without spaces)."""
_CHINESE = re.compile(r"[\u4e00-\u9fff]+")
_LONGEST = 3
_VOCABULARY = frozenset(word for word in (*CONCEPT, *_CHINESE_WORDS) if _CHINESE.fullmatch(word))
LIGHT_WORDS = frozenset({
    "the", "a", "an", "of", "to", "in", "on", "at", "by", "for", "with", "and", "or", "is", "are", "was", "were", "be", "been",
    "this", "that", "these", "those", "it", "its", "our", "their", "his", "her", "my", "your", "we", "they", "he", "she",
    "has", "have", "had", "will", "would", "do", "does", "did", "i", "you", "me", "up", "as", "from", "into",
    "的", "了", "在", "是", "和", "上", "里", "把", "要", "一只", "这个", "我们", "本", "正", "去",
})
LIGHT_WEIGHT = 0.15


def words(token: str) -> list[str]:
    """`token` (a run of word characters) as words: Chinese cut at the longest word the vocabulary knows, else a character."""
    if not _CHINESE.search(token):
        return [token]
    found, start = [], 0
    while start < len(token):
        if not _CHINESE.match(token[start]):
            end = start + 1
            while end < len(token) and not _CHINESE.match(token[end]):
                end += 1
        else:
            end = next((start + size for size in range(_LONGEST, 1, -1) if token[start:start + size] in _VOCABULARY), start + 1)
        found.append(token[start:end])
        start = end
    return found


def concept(word: str) -> str:
    """The meaning a word stands for: its group's head word, its stem, or the word itself."""
    if word in CONCEPT:
        return CONCEPT[word]
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            stem = word[: -len(suffix)]
            return CONCEPT.get(stem, stem)
    return word


def weight(word: str) -> float:
    return LIGHT_WEIGHT if word in LIGHT_WORDS else 1.0
