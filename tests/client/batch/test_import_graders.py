"""The graders imported suites need: numeric with a tolerance, similarity through the gateway's
embeddings, model scores on a scale, labels, latency and cost on the cell's facts, JSON inside
an answer, and per-row values; each mark carries its reason."""

from __future__ import annotations

from playground.client.batch.grading import CellFacts, grade_cell
from playground.client.batch.graders import GraderSpec, grade, number_in
from playground.client.gateway import GatewayClient
from playground.client.results import Usage
from playground.client.transport import Connection

FACTS = CellFacts("chat", "gpt-4.1", 1.25, Usage(1000, 200))


def test_numeric_reads_the_last_number_within_the_tolerance() -> None:
    assert number_in("about 1,234.5 units, or −3") == -3.0 and number_in("none") is None
    spec = GraderSpec("numeric", "{{expected}}", threshold=0.5)
    passed = grade(spec, "The answer is 41.7.", {"expected": "42"})
    assert (passed.passed, passed.detail) == (True, "read 41.7, expected 42 ± 0.5")
    assert grade(spec, "It is 43", {"expected": "42"}).passed is False
    assert grade(spec, "no idea", {"expected": "42"}).detail == "the answer holds no number"
    assert grade(spec, "42", {"expected": "forty-two"}).detail == "the expected value 'forty-two' is not a number"


def test_a_per_row_grader_applies_only_where_its_column_has_a_value() -> None:
    spec = GraderSpec("contains", "{{__contains}}")
    assert grade(spec, "Paris", {"__contains": "paris"}).passed is True
    skipped = grade(spec, "Paris", {"__contains": ""})
    assert (skipped.passed, skipped.detail) == (None, "not asked for this row")
    assert grade(GraderSpec("regex", "{{__regex}}"), "abc", {"__regex": "(?i)B"}).passed is True
    assert grade(GraderSpec("regex", "{{__regex}}"), "abc", {"__regex": "("}).detail.startswith("the regex does not compile")


def test_contains_json_finds_json_inside_prose_and_checks_a_schema() -> None:
    answer = 'Sure! Here it is: {"color": "yellow", "countries": ["Ecuador"]} — enjoy.'
    assert grade(GraderSpec("contains_json"), answer, {}).passed is True
    schema = '{"type": "object", "required": ["color", "size"]}'
    failed = grade(GraderSpec("contains_json", schema), answer, {})
    assert failed.passed is False and "size" in failed.detail
    assert grade(GraderSpec("contains_json"), "no braces here", {}).detail == "no JSON object or array inside"


async def test_latency_and_cost_read_the_cells_facts(client: GatewayClient, conn: Connection) -> None:
    latency = await grade_cell(client, conn, GraderSpec("latency", threshold=1000), "q", "a", {}, FACTS)
    assert (latency.passed, latency.detail) == (False, "1,250 ms (at most 1,000 ms)")
    prices = "model,input,output,cached_input\ngpt-4.1,2,8,0.5\n"
    cost = await grade_cell(client, conn, GraderSpec("cost", threshold=0.01, prices=prices), "q", "a", {}, FACTS)
    assert (cost.passed, cost.detail) == (True, "$0.003600 (at most $0.01)")  # 1000 x $2 + 200 x $8 per 1M
    unpriced = await grade_cell(client, conn, GraderSpec("cost", threshold=0.01), "q", "a", {}, FACTS)
    assert (unpriced.passed, unpriced.detail) == (None, "no price for gpt-4.1: add it under Prices and import again")


async def test_similarity_embeds_through_the_gateway(client: GatewayClient, conn: Connection) -> None:
    spec = GraderSpec("similar", "{{reference}}", model="text-embedding-3-small", threshold=0.99)
    same = await grade_cell(client, conn, spec, "q", "The cat sat on the mat.", {"reference": "The cat sat on the mat."}, FACTS)
    assert same.passed is True and same.detail == "cosine 1.000 (at least 0.99)"
    assert same.exchange is not None and same.exchange["url"].endswith("/v1/embeddings")
    missing = await grade_cell(client, conn, GraderSpec("similar", "x", model="no-such-embedder"), "q", "answer", {}, FACTS)
    assert missing.passed is None and missing.detail.startswith("not graded: the embedding call failed")


async def test_model_scores_on_the_graders_scale_and_labels(client: GatewayClient, conn: Connection) -> None:
    scaled = GraderSpec("model", 'mentions "Paris" and "Seine"', 0, 10, "gpt-4.1", threshold=5)
    mark = await grade_cell(client, conn, scaled, "Capital?", "Paris.", {}, FACTS)
    assert (mark.passed, mark.score) == (True, 5) and mark.detail.startswith("5/10")  # one of two terms: half the scale
    label = GraderSpec("label", "Is the sentiment positive?", model="gpt-4.1", labels=("positive", "negative"), passing=("positive",))
    said = await grade_cell(client, conn, label, "Review?", "Overall a negative experience.", {}, FACTS)
    assert said.passed is False and said.detail.startswith("negative")
    assert (await grade_cell(client, conn, label, "Review?", "A positive one!", {}, FACTS)).passed is True


def test_imported_graders_round_trip_through_a_run_file() -> None:
    spec = GraderSpec("label", "x", model="m", threshold=0.5, labels=("a", "b"), passing=("a",), prices="")
    assert GraderSpec.from_dict(spec.to_dict()) == spec
    cost = GraderSpec("cost", threshold=0.01, prices="model,input,output\nm,1,2\n")
    assert GraderSpec.from_dict(cost.to_dict()) == cost
    assert GraderSpec("contains", "x").to_dict() == {"kind": "contains", "value": "x", "minimum": None, "maximum": None, "model": ""}
