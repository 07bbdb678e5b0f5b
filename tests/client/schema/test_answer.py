"""An answer checked against its schema: it matches, or the first place it fails and what is
wrong there; never a crash, whatever the answer or the schema."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from playground.client.schema.answer import MAX_ANSWER_CHARS, check_answer
from playground.client.schema.fields import schema_of
from tests.client.schema.test_fields import ORDER, json_values

SCHEMA, _ = schema_of(ORDER)
GOOD = ('{"customer": "Ada", "size": "small", "quantity": 2, "address": {"city": "Paris", "geo": {"lat": 48.8}},'
        ' "toppings": ["ham"], "lines": [{"sku": "A1"}]}')


def test_a_matching_answer_says_so_and_a_fence_is_allowed() -> None:
    assert SCHEMA is not None
    for answer in (GOOD, f"```json\n{GOOD}\n```"):
        verdict = check_answer(answer, SCHEMA)
        assert verdict.matches and str(verdict.text) == "The answer matches the schema." and verdict.path == ""


@pytest.mark.parametrize("change, path, problem", [
    (("\"size\": \"small\"", "\"size\": \"huge\""), "$.size", 'not one of "small"; "medium"; "large"'),
    (("\"lat\": 48.8", "\"lat\": \"north\""), "$.address.geo.lat", "expected number, got string"),
    (("{\"sku\": \"A1\"}", "{\"sku\": \"A1\"}, {}"), "$.lines[1]", "missing sku"),
    (("\"toppings\": [\"ham\"]", "\"toppings\": [\"ham\", \"egg\"]"), "$.toppings[1]", 'not one of "cheese"; "ham"'),
    (("\"city\": \"Paris\"", "\"city\": \"Paris\", \"zip\": 1"), "$.address", "fields the schema does not allow: zip"),
    (("\"customer\": \"Ada\", ", ""), "$", "missing customer"),
])
def test_a_failing_answer_names_the_path_and_the_rule(change: tuple[str, str], path: str, problem: str) -> None:
    assert SCHEMA is not None
    verdict = check_answer(GOOD.replace(*change), SCHEMA)
    assert not verdict.matches and verdict.path == path
    assert str(verdict.text) == f"The answer does not match the schema at {path}: {problem}."


def test_what_cannot_be_checked_is_said_not_raised() -> None:
    assert SCHEMA is not None
    assert check_answer("Sure! Here it is", SCHEMA).text.id == "schema.answer.not_json"
    assert check_answer("[" * 100 + "]" * 100, SCHEMA).text.id == "schema.answer.too_deep"
    assert check_answer(" " * (MAX_ANSWER_CHARS + 1), SCHEMA).text.id == "schema.answer.too_large"
    assert check_answer("{}", {"type": 12}).text.id == "schema.answer.schema_unusable"
    assert check_answer("{}", {"$ref": "https://example.com/schema.json"}).text.id == "schema.answer.schema_unusable", "nothing is fetched"


def test_a_pattern_that_backtracks_forever_is_stopped() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "string", "pattern": "^(a|aa)+$"}}}
    verdict = check_answer('{"a": "' + "a" * 60 + '!"}', schema)
    assert not verdict.matches and verdict.path == "$.a" and verdict.text.params["problem"].id == "schema.answer.pattern_slow"
    assert check_answer('{"a": "aaa"}', schema).matches
    assert check_answer('{"a": "b"}', schema).text.params["problem"].id == "schema.answer.pattern"


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40) | json_values.map(lambda v: __import__("json").dumps(v)), json_values)
def test_the_check_never_raises(answer: str, schema: Any) -> None:
    verdict = check_answer(answer, schema if isinstance(schema, dict) else {"type": "object"})
    assert isinstance(verdict.text, str)
