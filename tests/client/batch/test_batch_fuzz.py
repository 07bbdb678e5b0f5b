"""Readers of outside data never raise anything but their own error, whatever JSON they get:
session/run plans, graders, stored exchanges, price tables, templates."""

from __future__ import annotations

import random
from typing import Any

from playground.client.batch.call import exchange_from_dict
from playground.client.batch.cost import PriceError, table_from_rows
from playground.client.batch.graders import GraderError, GraderSpec
from playground.client.batch.plan import KIND, Plan, PlanError
from playground.client.batch.template import TemplateError, parse
from playground.ui.shared.prices import parse_stored

LEAVES: list[Any] = [None, True, False, 0, -1, 1.5, float("inf"), "", "x", "{{", "chat", "regex", "(", [], {}, [["a"]], 10**30]


def _value(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if depth > 2 or roll < 0.6:
        return rng.choice(LEAVES)
    if roll < 0.8:
        return [_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    return {rng.choice(["kind", "rows", "columns", "value", "model", "a"]): _value(rng, depth + 1) for _ in range(rng.randint(0, 3))}


def test_plans_graders_exchanges_prices_and_templates_never_raise_unexpectedly() -> None:
    rng = random.Random(23)
    base = Plan("Q {{q}}").to_dict()
    for _ in range(1500):
        broken = dict(base, kind=KIND)
        broken[rng.choice(list(base))] = _value(rng)
        try:
            Plan.from_dict(broken, 10)
        except PlanError:
            pass
        try:
            GraderSpec.from_dict(_value(rng))
        except GraderError:
            pass
        exchange_from_dict(_value(rng))
        exchange_from_dict({"method": "POST", "url": "u", "events": _value(rng), "request_headers": _value(rng)})
        try:
            table_from_rows([[_value(rng) for _ in range(4)]])
        except PriceError:
            pass
        parse_stored(_value(rng))
        try:
            parse("".join(rng.choice(["{{", "}}", "\\{{", "a", " ", "\n"]) for _ in range(12)))
        except TemplateError:
            pass
