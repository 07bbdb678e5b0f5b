"""Model-graded scoring: a chosen model scores an answer against the user's rubric on a scale
(1-5 unless the grader names another), or gives it one of a grader's labels, through chat
completions on the same connection. The grader's own request and answer are kept in the mark so
the cell shows what the grading model saw and said."""

from __future__ import annotations

import re

from playground.client.batch.call import exchange_dict, run_request
from playground.client.batch.graders import PASS_SCORE, GraderSpec, Mark, brief
from playground.client.chat import ChatRequest
from playground.client.errors import GatewayError
from playground.client.gateway import GatewayClient
from playground.client.texts import Text
from playground.client.transport import Connection

GRADING_MARKER = "You are grading an answer."
"""First line of every grading prompt (the demo gateway recognises it and grades deterministically)."""
MAX_ANSWER_CHARS = 20_000
_SCORE = re.compile(r"SCORE\s*[:=]\s*(-?\d+(?:\.\d+)?)", re.IGNORECASE)
_LONE_DIGIT = re.compile(r"(?<![\d.])([1-5])(?![\d.])")
_LABEL = re.compile(r"LABEL\s*[:=]\s*(.+)", re.IGNORECASE)


def scale_of(spec: GraderSpec) -> tuple[float, float, float]:
    """(lowest, highest, least passing score): 1-5 passing at 4 unless the grader names its own."""
    if spec.minimum is None or spec.maximum is None:
        return 1, 5, spec.threshold if spec.threshold is not None else PASS_SCORE
    low, high = spec.minimum, spec.maximum
    return low, high, spec.threshold if spec.threshold is not None else low + 0.75 * (high - low)


def grading_prompt(rubric: str, question: str, answer: str, low: float = 1, high: float = 5) -> str:
    return (f"{GRADING_MARKER}\nScore it from {low:g} (poor) to {high:g} (excellent) against the rubric. "
            f"Reply with a first line `SCORE: <{low:g}-{high:g}>`, then one sentence saying why.\n\n"
            f"<rubric>\n{rubric.strip()}\n</rubric>\n\n<question>\n{question.strip()[:MAX_ANSWER_CHARS]}\n</question>\n\n"
            f"<answer>\n{answer.strip()[:MAX_ANSWER_CHARS]}\n</answer>")


def labelling_prompt(instructions: str, labels: tuple[str, ...], question: str, answer: str) -> str:
    return (f"{GRADING_MARKER}\nGive it exactly one of the labels below, following the instructions. "
            "Reply with a first line `LABEL: <label>`, then one sentence saying why.\n\n"
            f"<labels>\n{chr(10).join(labels)}\n</labels>\n\n<rubric>\n{instructions.strip()}\n</rubric>\n\n"
            f"<question>\n{question.strip()[:MAX_ANSWER_CHARS]}\n</question>\n\n<answer>\n{answer.strip()[:MAX_ANSWER_CHARS]}\n</answer>")


def parse_score(text: str, low: float = 1, high: float = 5) -> float | None:
    """`SCORE: n` anywhere (within the scale), else on a 1-5 scale a lone digit on the first line;
    None when there is neither."""
    match = _SCORE.search(text or "")
    if match:
        score = float(match.group(1))
        if not low <= score <= high:
            return None
        return int(score) if score.is_integer() else score
    if (low, high) != (1, 5):
        return None
    first = (text or "").strip().splitlines()[:1]
    lone = _LONE_DIGIT.search(first[0]) if first else None
    return int(lone.group(1)) if lone else None


def parse_label(text: str, labels: tuple[str, ...]) -> str | None:
    """The label the model chose (`LABEL: x`, else the first line), matched to the grader's labels ignoring case."""
    match = _LABEL.search(text or "")
    said = (match.group(1) if match else (text or "").strip().split("\n", 1)[0]).strip().strip("`*\"'.").casefold()
    return next((label for label in labels if label.casefold() == said), None)


async def model_grade(client: GatewayClient, conn: Connection, spec: GraderSpec, question: str, answer: str) -> Mark:
    """Score (or label) one answer. A gateway error never raises: the answer is not graded (a mark
    that neither passes nor fails, counted out of the pass rate), with the error as its reason."""
    low, high, least = scale_of(spec)
    prompt = (labelling_prompt(spec.value, spec.labels, question, answer) if spec.kind == "label"
              else grading_prompt(spec.value, question, answer, low, high))
    request = ChatRequest.build(model=spec.model.strip(), stream=False, temperature=0, messages=[{"role": "user", "content": prompt}])
    try:
        result, exchange = await run_request(client, conn, "chat", request)
    except GatewayError as error:
        return Mark(None, Text("graders.grading_model_failed", error=brief(error.user_message)), exchange=exchange_dict(error.exchange))
    kept = exchange_dict(exchange)
    reason = " ".join(result.text.strip().splitlines()[1:2])[:160]
    if spec.kind == "label":
        label = parse_label(result.text, spec.labels)
        if label is None:
            return Mark(False, Text("graders.grading_model_no_label"), exchange=kept)
        return Mark(label in spec.passing, f"{label}" + (f": {reason}" if reason else ""), exchange=kept)
    score = parse_score(result.text, low, high)
    if score is None:
        return Mark(False, Text("graders.grading_model_no_score"), exchange=kept)
    return Mark(score >= least, f"{score:g}/{high:g}" + (f": {reason}" if reason else ""), score, kept)
