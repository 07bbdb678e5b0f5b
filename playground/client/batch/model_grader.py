"""Model-graded scoring: a chosen model scores an answer 1-5 against the user's rubric, through
chat completions on the same connection. The grader's own request and answer are kept in the
mark so the cell shows what the grading model saw and said."""

from __future__ import annotations

import re

from playground.client.batch.call import exchange_dict, run_request
from playground.client.batch.graders import PASS_SCORE, GraderSpec, Mark
from playground.client.chat import ChatRequest
from playground.client.errors import GatewayError
from playground.client.gateway import GatewayClient
from playground.client.transport import Connection

GRADING_MARKER = "You are grading an answer."
"""First line of every grading prompt (the demo gateway recognises it and grades deterministically)."""
MAX_ANSWER_CHARS = 20_000
_SCORE = re.compile(r"SCORE\s*[:=]\s*([1-5])\b", re.IGNORECASE)
_LONE_DIGIT = re.compile(r"(?<![\d.])([1-5])(?![\d.])")


def grading_prompt(rubric: str, question: str, answer: str) -> str:
    return (f"{GRADING_MARKER}\nScore it from 1 (poor) to 5 (excellent) against the rubric. "
            "Reply with a first line `SCORE: <1-5>`, then one sentence saying why.\n\n"
            f"<rubric>\n{rubric.strip()}\n</rubric>\n\n<question>\n{question.strip()[:MAX_ANSWER_CHARS]}\n</question>\n\n"
            f"<answer>\n{answer.strip()[:MAX_ANSWER_CHARS]}\n</answer>")


def parse_score(text: str) -> int | None:
    """`SCORE: n` anywhere, else a lone digit 1-5 on the first line; None when there is neither."""
    match = _SCORE.search(text or "")
    if match:
        return int(match.group(1))
    first = (text or "").strip().splitlines()[:1]
    lone = _LONE_DIGIT.search(first[0]) if first else None
    return int(lone.group(1)) if lone else None


async def model_grade(client: GatewayClient, conn: Connection, spec: GraderSpec, question: str, answer: str) -> Mark:
    """Score one answer (never raises a gateway error: it becomes a mark that did not pass)."""
    request = ChatRequest.build(model=spec.model.strip(), stream=False, temperature=0,
                                messages=[{"role": "user", "content": grading_prompt(spec.value, question, answer)}])
    try:
        result, exchange = await run_request(client, conn, "chat", request)
    except GatewayError as error:
        return Mark(False, f"the grading model failed: {error.user_message[:120]}", exchange=exchange_dict(error.exchange))
    score = parse_score(result.text)
    kept = exchange_dict(exchange)
    if score is None:
        return Mark(False, "the grading model gave no score", exchange=kept)
    reason = " ".join(result.text.strip().splitlines()[1:2])[:160]
    return Mark(score >= PASS_SCORE, f"{score}/5" + (f": {reason}" if reason else ""), score, kept)
