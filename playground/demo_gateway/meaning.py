"""A small share-a-meaning vocabulary for the demo's embeddings.

Words of one group stand for one meaning (a paraphrase with other words lands close), word
forms are folded to a stem (sitting/sat -> sit), and words that carry no meaning on their own
weigh little. It is a demo, not a language model: it covers the playground's examples and the
everyday words around them.
"""

from __future__ import annotations

_GROUPS = (
    ("sit", "sat", "sitting", "sits", "seated", "lying", "lay", "lies", "rest", "resting"),
    ("mat", "rug", "carpet", "doormat"),
    ("cat", "cats", "kitten", "kitty", "feline"),
    ("dog", "dogs", "puppy", "hound"),
    ("revenue", "sales", "income", "turnover", "earnings", "takings"),
    ("grow", "grew", "grown", "growth", "rise", "rose", "risen", "rising", "increase", "increased", "climb", "climbed", "gain"),
    ("fall", "fell", "drop", "dropped", "decrease", "decreased", "decline", "declined", "down"),
    ("quarter", "quarterly", "quarters", "q1", "q2", "q3", "q4"),
    ("percent", "%", "percentage", "pct"),
    ("ten", "10"),
    ("bake", "baking", "baked", "bakes", "oven", "roast"),
    ("bread", "loaf", "sourdough", "baguette", "dough", "flour", "starter"),
    ("train", "rail", "railway", "trains"),
    ("leave", "leaves", "departs", "depart", "departure", "left"),
    ("sleep", "sleeps", "slept", "nap", "naps", "asleep"),
    ("car", "cars", "automobile", "vehicle"),
    ("happy", "glad", "joyful", "cheerful", "content", "delighted"),
    ("big", "large", "huge", "great"),
    ("small", "little", "tiny"),
    ("fast", "quick", "quickly", "rapid", "speedy"),
    ("buy", "bought", "purchase", "purchased"),
    ("begin", "start", "started", "starts", "commence"),
)
CONCEPT = {word: group[0] for group in _GROUPS for word in group}
LIGHT_WORDS = frozenset({
    "the", "a", "an", "of", "to", "in", "on", "at", "by", "for", "with", "and", "or", "is", "are", "was", "were", "be", "been",
    "this", "that", "these", "those", "it", "its", "our", "their", "his", "her", "my", "your", "we", "they", "he", "she",
    "has", "have", "had", "will", "would", "do", "does", "did", "i", "you", "me", "up", "as", "from", "into",
})
LIGHT_WEIGHT = 0.15


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
