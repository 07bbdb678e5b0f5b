"""The demo gateway as a grading model: a prompt that starts with "You are grading an answer."
and carries `<rubric>` and `<answer>` sections gets a deterministic score.

The score counts the rubric's terms found in the answer: the quoted phrases of the rubric if it
has any, else its words of four letters or more (common words left out). All found -> 5, none
-> 1, in between proportionally; a rubric without terms scores 3. The reply is
`SCORE: n` then one sentence saying which terms were found. A prompt that asks for another scale
("Score it from 0 (poor) to 1 (excellent)") gets the same share on that scale (two decimals).

A prompt with a `<labels>` section asks for a label: the demo gives the first label the answer
contains (ignoring case), else the last label, as `LABEL: x` and one sentence.
"""

from __future__ import annotations

import re

MARKER = "You are grading an answer."
_SECTION = r"<{0}>\s*(.*?)\s*</{0}>"
_QUOTED = re.compile(r"[\"“']([^\"”']{2,60})[\"”']")
_SCALE = re.compile(r"Score it from (-?\d+(?:\.\d+)?) \(poor\) to (-?\d+(?:\.\d+)?) \(excellent\)")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9-]{3,}")
_COMMON = frozenset(["about", "above", "after", "again", "answer", "answers", "should", "would", "could", "their", "there", "these", "those", "which", "while", "with", "without", "within", "into", "from", "that", "this", "they", "them", "then", "than", "what", "when", "where", "must", "mention", "mentions", "have", "having", "been", "being", "does", "must", "more", "most", "much", "many", "some", "such", "very", "also", "only", "just", "like", "gives", "give", "given", "each", "every", "correct", "correctly", "clear", "clearly", "concise", "good", "better", "best", "answer's", "score", "rubric", "sentence", "sentences", "words"])


def is_grading_prompt(prompt: str) -> bool:
    return prompt.lstrip().startswith(MARKER)


def _section(prompt: str, name: str) -> str:
    match = re.search(_SECTION.format(name), prompt, re.DOTALL)
    return match.group(1) if match else ""


def rubric_terms(rubric: str) -> list[str]:
    quoted = [term.strip().lower() for term in _QUOTED.findall(rubric) if term.strip()]
    if quoted:
        return list(dict.fromkeys(quoted))
    return list(dict.fromkeys(word.lower() for word in _WORD.findall(rubric) if word.lower() not in _COMMON))


def label_reply(prompt: str) -> str:
    """`LABEL: x` and the reason, for a labelling prompt."""
    labels = [line.strip() for line in _section(prompt, "labels").splitlines() if line.strip()]
    answer = _section(prompt, "answer").lower()
    chosen = next((label for label in labels if label.lower() in answer), None)
    if chosen is not None:
        return f"LABEL: {chosen}\nThe answer says {chosen!r}."
    return f"LABEL: {labels[-1] if labels else 'none'}\nThe answer names none of the labels, so the demo grader gives the last one."


def grade_reply(prompt: str) -> str:
    """`SCORE: n` (or `LABEL: x`) and the reason, for a grading prompt."""
    if "<labels>" in prompt:
        return label_reply(prompt)
    scale = _SCALE.search(prompt)
    low, high = (float(scale.group(1)), float(scale.group(2))) if scale else (1.0, 5.0)
    terms = rubric_terms(_section(prompt, "rubric"))
    answer = _section(prompt, "answer").lower()
    if not terms:
        return f"SCORE: {_on_scale(0.5, low, high)}\nThe rubric names no terms to look for, so the demo grader gives the middle score."
    found = [term for term in terms if term in answer]
    shown = ", ".join(found[:5]) if found else "none"
    return f"SCORE: {_on_scale(len(found) / len(terms), low, high)}\nThe answer mentions {len(found)} of {len(terms)} rubric terms (found: {shown})."


def _on_scale(share: float, low: float, high: float) -> str:
    if (low, high) == (1.0, 5.0):
        return str(1 + round(4 * share))
    return f"{round(low + share * (high - low), 2):g}"
