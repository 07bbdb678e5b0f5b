"""A client message is a `str` whose value is its English, carrying its id and parameters: every
caller that reads the English (logs, exception messages, run files, JSON) keeps working, and a
message survives pickling with its id."""

from __future__ import annotations

import copy
import json
import pickle

import pytest

from playground.client.batch.dataset import read_paste
from playground.client.batch.dataset_budget import DatasetError
from playground.client.errors import RateLimitError, RequestValidationError
from playground.client.texts import TEMPLATES, Items, Text, joined, places
from playground.client.validation import strict_json


def test_a_message_is_its_english_with_its_id_and_parameters() -> None:
    text = Text("dataset.too_many_rows", limit=10_000)
    assert text == "more than 10,000 rows (the limit for a run) (setting PLAYGROUND_BATCH_MAX_ROWS)", "format specs such as {limit:,} apply"
    assert isinstance(text, str) and text.id == "dataset.too_many_rows" and text.params == {"limit": 10_000}
    assert json.dumps({"reason": text}) == json.dumps({"reason": str(text)})
    assert f"refused: {text}" == "refused: " + str(text)


def test_nested_messages_and_lists_render_in_english() -> None:
    inner = Text("dataset.the_value_of", name="'city'")
    outer = Text("dataset.at_line", line=3, reason=Text("dataset.holds_nul_character_code_0", what=inner))
    assert outer == "line 3: the value of 'city' holds a NUL character (code 0), which cannot be sent; remove it"
    assert joined(["a", Text("plan.write_user_prompt")]) == "a; write the user prompt"
    assert Text("errors.invalid_request", problems=Items(["x", "y"])) == "Invalid request: x; y."
    assert Text("dataset.not_valid_csv", error=["not", "items"]) == "not valid CSV (['not', 'items'])", "a plain list shows as an f-string shows it"


def test_an_unknown_id_or_wrong_parameters_fail_at_once() -> None:
    with pytest.raises(KeyError, match="no message"):
        Text("dataset.no_such_message")
    with pytest.raises(TypeError, match="takes"):
        Text("dataset.too_many_rows", rows=3)
    with pytest.raises(TypeError, match="takes"):
        Text("dataset.too_many_rows")


def test_a_message_survives_pickling_and_copying_with_its_id() -> None:
    text = Text("dataset.at_row", line=2, reason=Text("dataset.file_no_rows"))
    for again in (pickle.loads(pickle.dumps(text)), copy.deepcopy(text), copy.copy(text)):
        assert again == text and isinstance(again, Text) and again.id == "dataset.at_row"
        assert again.params["reason"].id == "dataset.file_no_rows"


def test_every_template_is_well_formed_and_its_places_are_names_not_expressions() -> None:
    """A place is a parameter's name (`{rows}`), never the code that computed it (`{len(rows)}`,
    `{self.limit}`): renaming a local variable cannot change a message's template."""
    for message_id, template in TEMPLATES.items():
        assert all(name.isidentifier() for name in places(template)), (message_id, template)
        template.format(**{name: 1 for name in places(template)})


def test_errors_and_refusals_carry_their_messages() -> None:
    with pytest.raises(DatasetError) as refused:
        read_paste("a,b\n1,2,3", ["a", "b"], max_rows=10)
    assert isinstance(refused.value.reason, Text) and refused.value.reason.id == "dataset.fields_differ_from_header"
    assert refused.value.args[0].id == "dataset.at_line", "the line it names is part of the message"
    with pytest.raises(RequestValidationError) as caught:
        strict_json('{"a": NaN}')
    assert [problem.id for problem in caught.value.problems] == ["validation.not_valid_json"]
    assert caught.value.message.id == "errors.invalid_request"
    limited = RateLimitError(429, "slow down")
    limited.retry_after = 3.0
    assert limited.hint == "The gateway asks to wait about 3 s before trying again."
    error = DatasetError(4, Text("dataset.file_no_rows"), "row")
    assert str(error) == "row 4: the file has no rows" and error.args[0].id == "dataset.at_row"
