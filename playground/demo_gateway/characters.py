"""How the demo's text models differ, deterministically, the way real ones do: pace (a factor on
the streaming delay), style (how much they say around the answer) and, for one small model, a
known weakness (it stops one step short on multi-step word problems). The table is documented in
docs/demo-gateway.md; no answer names its model."""

from __future__ import annotations

from dataclasses import dataclass

from playground.demo_gateway.answer_kit import Found
from playground.demo_gateway.catalog import resolve_chat_model

TERSE, PLAIN, THOROUGH, HEADLINE = "terse", "plain", "thorough", "headline"


@dataclass(frozen=True)
class Character:
    pace: float
    """Factor on the configured delay between streamed tokens: 1 is the configured pace (the
    fastest models), larger is slower."""
    style: str
    """terse: the bare answer; plain: a sentence; thorough: the sentence and how it was reached;
    headline: the answer in bold, then the sentence."""
    weak_at: frozenset[str] = frozenset()
    """Kinds of question it gets wrong (it answers `Found.slip`)."""


CHARACTERS: dict[str, Character] = {
    "gx-2.5-flash": Character(1.0, PLAIN),
    "gx-2.5-pro": Character(1.8, THOROUGH),
    "gx-3-pro-preview": Character(2.0, THOROUGH),
    "gpt-4o-mini": Character(1.0, TERSE, frozenset({"word_problem"})),
    "gpt-4.1": Character(1.3, HEADLINE),
    "o4-mini": Character(1.5, TERSE),
    "cl-sonnet-4-5-20250929": Character(1.3, THOROUGH),
    "cl-haiku-4-5-20251001": Character(1.0, TERSE),
    "cl-opus-4-5-20251101": Character(1.9, THOROUGH),
    "qwen-plus": Character(1.1, PLAIN),
    "deepseek-reasoner": Character(1.7, HEADLINE),
}
DEFAULT = Character(1.0, PLAIN)
OFFLINE = {False: "The offline demo cannot answer this", True: "离线演示无法回答这个问题"}
SOURCE = {False: "(From the offline demo's built-in table of facts.)", True: "（来自离线演示内置的事实表。）"}


def character(model: str) -> Character:
    """The character of a served model id (a thinking suffix keeps its base model's)."""
    resolved = resolve_chat_model(model)
    return CHARACTERS.get(resolved[0] if resolved else model, DEFAULT)


def pace(model: str) -> float:
    return character(model).pace


def _writing(found: Found, style: str) -> str:
    """A recipe or poem: the text, under its title unless terse (a thorough model adds its tip)."""
    title = f"**{found.short}**" if style == HEADLINE else found.short
    body = found.sentence if style == TERSE else f"{title}\n\n{found.sentence}"
    return body + (f"\n\n{found.detail}" if style == THOROUGH and found.detail else "")


def _without_value(found: Found, style: str) -> str:
    """An answer with no separate bare value (the honest fallback, what the demo is, a summary, a definition)."""
    if style == TERSE:
        return found.short if found.kind in ("unknown", "about") and found.short else found.sentence
    if style == HEADLINE and found.kind == "unknown":
        return f"**{OFFLINE[found.zh]}**\n\n{found.sentence}"
    if style == THOROUGH:
        more = found.detail or (SOURCE[found.zh] if found.kind == "fact" else "")
        return f"{found.sentence}\n\n{more}" if more else found.sentence
    return found.sentence


def written(found: Found, model: str) -> str:
    """The answer as this model writes it."""
    who = character(model)
    if found.kind in who.weak_at and found.slip is not None:
        found = found.slip
    if found.kind in ("recipe", "poem"):
        return _writing(found, who.style)
    if found.kind in ("unknown", "about", "summary") or not found.short or found.short == found.sentence:
        return _without_value(found, who.style)
    if who.style == TERSE:
        return found.short if len(found.short) <= 60 else found.sentence
    if who.style == HEADLINE and len(found.short) <= 60:
        return f"**{found.short}**\n\n{found.sentence}"
    if who.style == THOROUGH:
        more = found.detail or (SOURCE[found.zh] if found.kind == "fact" else "")  # a date or a translation is not from the table of facts
        return f"{found.sentence}\n\n{more}" if more else found.sentence
    return found.sentence
