"""A plain data set (CSV, JSONL or XLSX, read by the Batch tab's own bounded readers) as a suite:
its prompt column (`prompt`, `input`, `question` or `text`, else the first column) is the user
prompt, and an `expected` column is graded by "equals expected"."""

from __future__ import annotations

from pathlib import Path

from playground.client.batch.dataset import read_file
from playground.client.batch.dataset_budget import DatasetError
from playground.client.batch.graders import GraderSpec
from playground.client.batch.importers.bounds import SuiteError
from playground.client.batch.importers.suite import Suite
from playground.client.texts import Text

PROMPT_COLUMNS = ("prompt", "input", "question", "text")


def import_data_set(path: str | Path, max_rows: int) -> Suite:
    """The suite of one data set file (raises `SuiteError`)."""
    try:
        dataset = read_file(path, max_rows)
    except DatasetError as error:
        raise SuiteError([Text("import.in_file", name=Path(path).name, problem=str(error))]) from None
    variables = [name for name in dataset.columns if name != "expected"]
    if not variables:
        raise SuiteError([Text("import.console_no_variables", name=Path(path).name)])
    prompt = next((name for name in PROMPT_COLUMNS if name in variables), variables[0])
    graders = [GraderSpec("equals")] if "expected" in dataset.columns else []
    return Suite("data-set", Path(path).name, "{{" + prompt + "}}", dataset=dataset, graders=graders)
