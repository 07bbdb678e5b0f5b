"""Importing a suite into the Batch tab: the upload read on the data-set readers' threads
(`client.batch.importers`, bounded before parsing and checked whole: a refusal changes nothing on
screen), the form filled from the suite's plan as a session file fills it, the suite's graders kept
beside the data set they belong to, and the status in words: what was imported and, item by
item, what could not be mapped."""

from __future__ import annotations

from typing import Any

import gradio as gr

from playground.client.batch.dataset import read_in_worker
from playground.client.batch.graders import GraderError, GraderSpec
from playground.client.batch.importers import Suite, SuiteError, read_suite
from playground.client.batch.cost import Price
from playground.client.batch.importers.prices import prices_csv
from playground.ui.i18n import say
from playground.ui.i18n.client_words import word
from playground.ui.shared.render import plain

MAX_MODEL_CHARS = 200
GRADING_KINDS = frozenset({"model", "label"})
"""The graders that ask a chat model (a similarity grader asks an embedding model: not this picker's list)."""


async def import_suite(paths: list[str] | None, max_rows: int, prices: dict[str, Price]) -> Suite:
    """The suite of an upload (raises `SuiteError`)."""
    if not paths:
        raise SuiteError([say("bview.import_choose")])
    return await read_in_worker(read_suite, list(paths), max_rows, prices_csv(prices))


def suite_status(suite: Suite) -> str:
    """What was imported, the graders it brought, and what could not be mapped, item by item."""
    lines = [say("bview.imported", source=say(f"bview.source.{suite.source}"), name=plain(suite.name),
                 rows=f"{len(suite.dataset.rows):,}", columns=len(suite.columns), graders=len(suite.graders))]
    if suite.graders:
        lines.append(graders_line(suite.graders))
    if not suite.columns:
        lines.append(say("bview.import_no_columns"))
    unknown = suite.unknown_models()
    if unknown:
        lines.append(say("bview.import_models_unknown", models=", ".join(plain(model) for model in unknown)))
    if suite.unmapped:
        lines.append(say("bview.unmapped_heading") + "\n" + "\n".join(f"- {plain(word(text))}" for text in suite.unmapped))
    else:
        lines.append(say("bview.unmapped_none"))
    return "\n\n".join(lines)


def graders_line(graders: list[GraderSpec]) -> str:
    """The suite's graders, named one by one ("" when it brought none)."""
    return say("bview.imported_graders", graders="; ".join(plain(word(spec.label)) for spec in graders)) if graders else ""


def suite_graders_shown(graders: list[GraderSpec]) -> list[Any]:
    """The Graders panel's part for a suite's graders (the boxes cannot hold them): the line naming them,
    and the picker of their grading model, shown when one of them asks a model."""
    models = [spec.model for spec in graders if spec.kind in GRADING_KINDS]
    return [graders_line(graders), gr.update(value=models[0], visible=True) if models else gr.update(visible=False)]


def regraded(graders: list[GraderSpec], model: Any) -> list[GraderSpec]:
    """The suite's graders with `model` as every grading model (a suite may name one the gateway does not
    serve); raises `GraderError` naming what is wrong with it."""
    chosen = model.strip() if isinstance(model, str) else ""
    if not chosen or len(chosen) > MAX_MODEL_CHARS:
        raise GraderError(say("bview.suite_model_problem", limit=MAX_MODEL_CHARS))
    return [GraderSpec.from_dict({**spec.to_dict(), "model": chosen}) if spec.kind in GRADING_KINDS else spec for spec in graders]


def refusal_status(error: SuiteError) -> str:
    return say("bview.import_refused") + "\n" + "\n".join(f"- {plain(word(problem))}" for problem in error.problems)
