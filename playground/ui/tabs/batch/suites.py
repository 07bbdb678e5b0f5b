"""Importing a suite into the Batch tab: the upload read on the data-set readers' threads
(`client.batch.importers`, bounded before parsing and checked whole: a refusal changes nothing on
screen), the form filled from the suite's plan as a session file fills it, the suite's graders kept
beside the data set they belong to, and the status in words: what was imported and, item by
item, what could not be mapped."""

from __future__ import annotations

from playground.client.batch.dataset import read_in_worker
from playground.client.batch.importers import Suite, SuiteError, read_suite
from playground.client.batch.cost import Price
from playground.client.batch.importers.prices import prices_csv
from playground.ui.i18n import say
from playground.ui.i18n.client_words import word
from playground.ui.shared.render import plain

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
        lines.append(say("bview.imported_graders", graders="; ".join(plain(word(spec.label)) for spec in suite.graders)))
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


def refusal_status(error: SuiteError) -> str:
    return say("bview.import_refused") + "\n" + "\n".join(f"- {plain(word(problem))}" for problem in error.problems)
