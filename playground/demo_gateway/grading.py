"""The demo gateway as a grading model: a prompt that starts with "You are grading an answer."
and carries `<rubric>` and `<answer>` sections gets a deterministic score.

The score counts the rubric's terms found in the answer: the quoted phrases of the rubric if it
has any, else its words of four letters or more (common words left out). All found -> 5, none
-> 1, in between proportionally; a rubric without terms scores 3. The reply is
`SCORE: n` then one sentence saying which terms were found.
"""

from __future__ import annotations

import re

MARKER = "You are grading an answer."
_SECTION = r"<{0}>\s*(.*?)\s*</{0}>"
_QUOTED = re.compile(r"[\"“']([^\"”']{2,60})[\"”']")
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


def grade_reply(prompt: str) -> str:
    """`SCORE: n` and the reason, for a grading prompt."""
    terms = rubric_terms(_section(prompt, "rubric"))
    answer = _section(prompt, "answer").lower()
    if not terms:
        return "SCORE: 3\nThe rubric names no terms to look for, so the demo grader gives the middle score."
    found = [term for term in terms if term in answer]
    score = 1 + round(4 * len(found) / len(terms))
    shown = ", ".join(found[:5]) if found else "none"
    return f"SCORE: {score}\nThe answer mentions {len(found)} of {len(terms)} rubric terms (found: {shown})."
