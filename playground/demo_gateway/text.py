"""Deterministic text the demo models "generate": the scripted answer to an example prompt, or
the demo's own answer (`answers.py`) written in the model's character (`characters.py`);
reasoning built from the same answer, and a long reply for trying Stop. No answer quotes the
prompt or names its model."""

from __future__ import annotations

from contextvars import ContextVar

from playground.demo_gateway import answers, scripted
from playground.demo_gateway.answer_kit import Found
from playground.demo_gateway.characters import character, written
from playground.demo_gateway.grading import grade_reply, is_grading_prompt

ECHOED_KEY: ContextVar[str | None] = ContextVar("echoed_key", default=None)
"""Set by the `echo_key` fault: the key the caller sent, which the "model" then repeats (as a
misconfigured gateway that echoes the Authorization header does)."""
STARTING_WORD: ContextVar[str | None] = ContextVar("starting_word", default=None)
"""Set per request from a system prompt's `Start every answer with the word "WORD".` (quirks.py)."""


def _echo() -> str:
    key = ECHOED_KEY.get()
    return f" Your request carried Authorization: Bearer {key} ." if key else ""

LONG_WORD = "long"
_LONG_PARAGRAPH = (
    "The demo gateway streams this paragraph one word at a time so that you can watch tokens "
    "arrive, measure time to first token and throughput, and press Stop halfway through. "
    "Nothing here comes from a real model: every word is fixed, so the same request always "
    "gets the same answer, which makes the playground easy to test and to demonstrate. "
)

_EFFORT_STEPS = {"low": 1, "medium": 2, "high": 4}
_TOOL_STEPS = ("The tool has answered.", "Its result is what was asked for, so it should be read back plainly.",
               "Check each field and its unit.", "Nothing is missing.", "I will answer with what it returned.")


def _images(count: int, zh: bool) -> str:
    if not count:
        return ""
    if zh:
        return f"（收到 {count} 张图片；离线演示看不到图片内容。）"
    return f" I received {count} image{'s' if count != 1 else ''} with it (the offline demo cannot see what is in them)."


def _found(prompt: str, model: str) -> Found:
    found = answers.find(prompt)
    if found.kind in character(model).weak_at and found.slip is not None:
        return found.slip
    return found


def reply_text(prompt: str, model: str, settings: dict[str, object] | None = None, image_count: int = 0) -> str:
    """The visible answer to a plain prompt: a grading prompt gets a deterministic score, an
    example its scripted answer, anything else the demo's own answer in the model's character.
    (`settings` are the request's sampling settings: the demo's answers do not depend on them.)"""
    if is_grading_prompt(prompt):
        return grade_reply(prompt)
    word = STARTING_WORD.get()
    opening = f"{word} " if word else ""
    scripted_answer = scripted.answer(prompt)
    if scripted_answer is not None:
        return opening + scripted_answer + _images(image_count, False) + _echo()
    found = answers.find(prompt)
    body = opening + written(found, model) + _images(image_count, found.zh) + _echo()
    if found.kind == "unknown" and LONG_WORD in prompt[:2000].lower().split():
        body += "\n\n" + _LONG_PARAGRAPH * 12
    return body


def reasoning_text(prompt: str, effort: str, model: str = "") -> str:
    return " ".join(reasoning_steps(prompt, effort, model))


def reasoning_steps(prompt: str, effort: str, model: str = "") -> list[str]:
    """The reasoning as steps (the responses format sends each as its own summary part)."""
    count = _EFFORT_STEPS.get(effort, 2) + 1
    if not prompt.strip():
        chosen = list(_TOOL_STEPS[: count - 1]) + [_TOOL_STEPS[-1]]
        chosen[-1] += _echo()
        return chosen
    written_steps = scripted.reasoning(prompt)
    if written_steps is not None:
        return list(written_steps[:count])
    steps = answers.reasoning_steps(_found(prompt, model))
    chosen = steps[: count - 1] + [steps[-1]]
    chosen[-1] += _echo()
    return chosen


def tool_answer_text(results: list[tuple[str, str]]) -> str:
    """The answer once the tools have replied: what they returned, read out."""
    named = [("" if name.startswith(("toolu_", "call_", "fc_")) else name, content) for name, content in results]
    return scripted.tool_answer(named)
