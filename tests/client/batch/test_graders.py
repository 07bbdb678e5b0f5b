"""Each grader, including model-graded scoring by the demo gateway (deterministic) over a real socket."""

from __future__ import annotations

import time

import pytest

from playground.client.batch.graders import GraderError, GraderSpec, check, grade, normalise
from playground.client.batch.model_grader import GRADING_MARKER, model_grade, parse_score
from playground.client.gateway import GatewayClient
from playground.client.transport import Connection

ROW = {"question": "capital of France", "expected": "  Paris. "}


def test_contains_and_not_contains_ignore_case_and_fill_variables() -> None:
    assert grade(GraderSpec("contains", "paris"), "It is Paris.", ROW).passed is True
    assert grade(GraderSpec("contains", "{{question}}"), "The capital of France is Paris", ROW).passed is True
    assert grade(GraderSpec("not_contains", "london"), "It is Paris.", ROW).passed is True
    assert grade(GraderSpec("not_contains", "PARIS"), "It is Paris.", ROW).passed is False


def test_regex_matches_and_a_catastrophic_pattern_is_stopped_in_time() -> None:
    assert grade(GraderSpec("regex", r"\b\d{4}\b"), "In 1889 it opened.", ROW).passed is True
    started = time.monotonic()
    mark = grade(GraderSpec("regex", r"^(a|aa)+$"), "a" * 80 + "b", ROW)
    assert mark.passed is False and "took longer" in mark.detail
    assert time.monotonic() - started < 3
    with pytest.raises(GraderError, match="does not compile"):
        check(GraderSpec("regex", "(unclosed"))
    with pytest.raises(GraderError, match="1 to 500 characters"):
        check(GraderSpec("regex", "a" * 501))


def test_equals_expected_is_normalised() -> None:
    assert normalise(" “Paris.” ") == "paris"
    assert grade(GraderSpec("equals"), "paris", ROW).passed is True
    assert grade(GraderSpec("equals"), "Lyon", ROW).passed is False
    assert grade(GraderSpec("equals"), "Paris", {"question": "x"}).passed is None


def test_valid_json_and_schema_with_the_failing_path() -> None:
    assert grade(GraderSpec("json"), '```json\n{"a": 1}\n```', ROW).passed is True
    assert grade(GraderSpec("json"), "{oops", ROW).passed is False
    schema = GraderSpec("schema", '{"type": "object", "properties": {"age": {"type": "integer"}}, "required": ["age"]}')
    assert grade(schema, '{"age": 3}', ROW).passed is True
    mark = grade(schema, '{"age": "three"}', ROW)
    assert mark.passed is False and mark.detail.startswith("age:")
    with pytest.raises(GraderError, match="not a valid JSON Schema"):
        check(GraderSpec("schema", '{"type": "nope"}'))
    with pytest.raises(GraderError, match="not valid JSON"):
        check(GraderSpec("schema", "{"))


def test_length_bounds() -> None:
    assert grade(GraderSpec("length", minimum=2, maximum=5), "abcd", ROW).passed is True
    assert grade(GraderSpec("length", maximum=3), "abcd", ROW).passed is False
    with pytest.raises(GraderError, match="above the maximum"):
        check(GraderSpec("length", minimum=5, maximum=2))
    with pytest.raises(GraderError, match="a minimum, a maximum or both"):
        check(GraderSpec("length"))


def test_parse_score() -> None:
    assert parse_score("SCORE: 4\nGood.") == 4
    assert parse_score("I'd give it 3") == 3
    assert parse_score("no idea") is None
    assert parse_score("9.5 out of 10") is None


async def test_model_graded_by_the_demo_gateway_is_deterministic_and_keeps_its_exchange(client: GatewayClient, conn: Connection) -> None:
    spec = GraderSpec("model", 'Mentions "Paris" and "Seine"', model="gx-2.5-flash")
    good = await model_grade(client, conn, spec, "Capital of France?", "Paris, on the Seine.")
    half = await model_grade(client, conn, spec, "Capital of France?", "Paris.")
    again = await model_grade(client, conn, spec, "Capital of France?", "Paris.")
    assert (good.score, good.passed) == (5, True)
    assert (half.score, half.passed) == (3, False) and again.score == 3 and again.detail == half.detail
    sent = good.exchange["request_body"]["messages"][0]["content"]
    assert sent.startswith(GRADING_MARKER) and "<answer>\nParis, on the Seine.\n</answer>" in sent
    assert good.exchange["response_body"]["choices"][0]["message"]["content"].startswith("SCORE: 5")


async def test_a_failing_grading_model_leaves_the_answer_not_graded_with_the_reason(client: GatewayClient, conn: Connection) -> None:
    mark = await model_grade(client, conn, GraderSpec("model", "anything", model="no-such-model"), "q", "a")
    assert mark.passed is None and mark.detail.startswith("not graded: the grading model failed: ") and mark.exchange["status"] == 404
    assert "no-such-model" in mark.detail
