"""One grader on one cell: the dispatch the runner calls for every grader. A grader that takes its
value row by row does not apply where the row leaves it empty; text graders read the answer
(`graders.grade`), `latency` and `cost` the cell's timing and usage, `model` and `label` a grading
model (`model_grader`), `similar` the cosine of the answer's and the reference's embeddings through
the gateway. Never raises a gateway error: a failed call is a mark that did not pass, with why."""

from __future__ import annotations

from dataclasses import dataclass, replace
from collections.abc import Mapping
from typing import Any

import numpy as np

from playground.client.batch.call import exchange_dict
from playground.client.batch.cost import PriceError, cost, table_from_csv
from playground.client.batch.graders import GraderSpec, Mark, brief, grade_value, row_value, tool_called
from playground.client.batch.model_grader import MAX_ANSWER_CHARS, model_grade
from playground.client.errors import GatewayError
from playground.client.gateway import GatewayClient
from playground.client.results import Usage
from playground.client.texts import Text
from playground.client.transport import Connection

DEFAULT_SIMILARITY = 0.75
"""promptfoo's default for `similar`."""


@dataclass(frozen=True)
class CellFacts:
    """What a `latency` or `cost` grader reads of a cell."""

    fmt: str
    model: str
    seconds: float | None
    usage: Usage | None
    tool_calls: tuple[tuple[str, Any], ...] = ()
    """The tool calls the model made for the cell (name, parsed arguments), answered by the column's mocks or not."""


async def grade_cell(client: GatewayClient, conn: Connection, spec: GraderSpec, question: str, answer: str,
                     row: Mapping[str, str], facts: CellFacts) -> Mark:
    """The mark of `spec` for one answer to one row."""
    value = row_value(spec, row)
    if value is None:
        return Mark(None, Text("graders.not_for_this_row"))
    if spec.kind == "latency":
        return _latency(spec, facts)
    if spec.kind == "cost":
        return _cost(spec, facts)
    if spec.kind == "tool_called":  # the expected arguments may name the row's values: {"city": "{{city}}"}
        arguments = row_value(replace(spec, value=spec.arguments), row) if spec.arguments else ""
        return tool_called(replace(spec, value=value, arguments=arguments or ""), facts.tool_calls)
    if spec.kind == "similar":
        return await similarity(client, conn, spec, answer, value)
    if spec.kind in ("model", "label"):
        return await model_grade(client, conn, replace(spec, value=value), question, answer)
    return grade_value(spec, answer, row, value)  # the value filled once, above


def _latency(spec: GraderSpec, facts: CellFacts) -> Mark:
    if facts.seconds is None:
        return Mark(None, Text("graders.no_time"))
    took, limit = facts.seconds * 1000, spec.threshold or 0.0
    return Mark(took <= limit, Text("graders.latency_reason", took=f"{took:,.0f}", limit=f"{limit:,.0f}"))


def _cost(spec: GraderSpec, facts: CellFacts) -> Mark:
    try:
        table = table_from_csv(spec.prices)
    except PriceError:
        table = {}
    money = cost(table, facts.model, facts.usage, facts.fmt)
    if money is None:
        return Mark(None, Text("graders.no_price", model=facts.model))
    limit = spec.threshold or 0.0
    return Mark(money <= limit, Text("graders.cost_reason", cost=f"{money:.6f}", limit=f"{limit:g}"))


async def similarity(client: GatewayClient, conn: Connection, spec: GraderSpec, answer: str, reference: str) -> Mark:
    """The cosine of the answer's and the reference's embeddings (L2-normalised), at least the threshold to pass."""
    if not answer.strip():
        return Mark(False, Text("graders.empty_answer"))
    least = spec.threshold if spec.threshold is not None else DEFAULT_SIMILARITY
    try:
        result = await client.embeddings.embed_list(conn, [answer[:MAX_ANSWER_CHARS], reference[:MAX_ANSWER_CHARS]], spec.model.strip())
    except GatewayError as error:
        return Mark(None, Text("graders.embedding_failed", error=brief(error.user_message)), exchange=exchange_dict(error.exchange))
    except ValueError as error:
        return Mark(None, Text("graders.embedding_failed", error=brief(str(error))))
    vectors = np.asarray(result.vectors, dtype=np.float64)
    norms = np.linalg.norm(vectors, axis=1)
    kept = exchange_dict(result.exchanges[0]) if result.exchanges else None
    if vectors.shape[0] != 2 or not np.all(norms > 0):
        return Mark(False, Text("graders.embedding_unusable"), exchange=kept)
    cosine = float(vectors[0] @ vectors[1] / (norms[0] * norms[1]))
    return Mark(cosine >= least, Text("graders.similar_reason", cosine=f"{cosine:.3f}", least=f"{least:g}"), exchange=kept)
