"""Deterministic text the demo models "generate": the scripted answer to an example prompt, or a
reply that shows the request was understood; reasoning text, and a long reply for trying Stop."""

from __future__ import annotations

from contextvars import ContextVar

from playground.demo_gateway import scripted
from playground.demo_gateway.grading import grade_reply, is_grading_prompt

ECHOED_KEY: ContextVar[str | None] = ContextVar("echoed_key", default=None)
"""Set by the `echo_key` fault: the key the caller sent, which the "model" then repeats (as a
misconfigured gateway that echoes the Authorization header does)."""


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


def describe_settings(settings: dict[str, object]) -> str:
    shown = [f"{name}={value}" for name, value in settings.items() if value is not None]
    return ", ".join(shown) if shown else "default settings"


def reply_text(prompt: str, model: str, settings: dict[str, object], image_count: int = 0) -> str:
    """The visible answer to a plain prompt: a grading prompt gets a deterministic score, an
    example its scripted answer, anything else a generated reply."""
    if is_grading_prompt(prompt):
        return grade_reply(prompt)
    images = f" I received {image_count} image{'s' if image_count != 1 else ''} with it." if image_count else ""
    written = scripted.answer(prompt)
    if written is not None:
        return written + images + _echo()
    about = f' Your message: "{prompt.strip()}".' if prompt.strip() else " Your message was empty."
    body = f"{model} here, answering with {describe_settings(settings)}.{about}{images}{_echo()}"
    if LONG_WORD in prompt.lower().split():
        body += " " + _LONG_PARAGRAPH * 12
    return body


def reasoning_text(prompt: str, effort: str) -> str:
    return " ".join(reasoning_steps(prompt, effort))


def reasoning_steps(prompt: str, effort: str) -> list[str]:
    """The reasoning as steps (the responses format sends each as its own summary part)."""
    count = _EFFORT_STEPS.get(effort, 2) + 1
    written = scripted.reasoning(prompt)
    if written is not None:
        return list(written[:count])
    steps = [
        f'The user wrote "{prompt.strip()[:80]}".',
        "I should restate the request and the parameters so they can see it was understood.",
        "The answer should be short and keep to what was asked.",
        "Let me double-check the parameters before I answer.",
        "Everything is consistent, so I will write the answer now.",
    ]
    chosen = steps[:count]
    chosen[-1] += _echo()
    return chosen


def tool_answer_text(results: list[tuple[str, str]]) -> str:
    """The answer once the tools have replied: what they returned, read out."""
    named = [("" if name.startswith(("toolu_", "call_", "fc_")) else name, content) for name, content in results]
    return scripted.tool_answer(named)
