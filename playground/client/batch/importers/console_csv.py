"""A CSV as Anthropic's Console exports an evaluation: a column per prompt variable and an ideal
output column (`Ideal Output`, `ideal_output`, `Expected Output`, ...). The ideal output becomes
the `expected` column, graded by a model on the Console's 1-5 scale against it; the outputs,
grades and prompt versions of earlier runs are not imported (the run makes its own), and neither
is the prompt (the CSV does not hold it): the user prompt lists the variables, ready to edit."""

from __future__ import annotations

import re

from playground.client.batch.dataset import Dataset, read_csv
from playground.client.batch.dataset_budget import Budget, DatasetError
from playground.client.batch.graders import GraderSpec
from playground.client.batch.importers.bounds import SuiteError, SuiteFiles, refuse
from playground.client.batch.importers.suite import DEFAULT_GRADING_MODEL, Suite
from playground.client.texts import Text

IDEAL = re.compile(r"(?:ideal|expected|golden|reference)[ _-]*(?:output|answer|response)s?", re.IGNORECASE)
EARLIER_RUN = re.compile(r"(?:model[ _-]*)?(?:output|response|completion|grade|score|rating|prompt[ _-]*version|version|comments?)(?:[ _-]*\d+)?",
                         re.IGNORECASE)
RUBRIC = 'The answer says the same as the ideal answer: "{{expected}}"'


def import_console_csv(files: SuiteFiles, name: str, max_rows: int) -> Suite:
    """The suite of one Console CSV (raises `SuiteError`)."""
    try:
        table = read_csv(files.text(name), Budget(max_rows))
    except DatasetError as error:
        raise SuiteError([Text("import.in_file", name=name, problem=str(error))]) from None
    ideal = [column for column in table.columns if IDEAL.fullmatch(column.strip())]
    if not ideal:
        raise refuse(Text("import.console_no_ideal", name=name))
    earlier = [column for column in table.columns if column not in ideal and EARLIER_RUN.fullmatch(column.strip())]
    variables = [column for column in table.columns if column not in ideal and column not in earlier]
    if not variables:
        raise refuse(Text("import.console_no_variables", name=name))
    if "expected" in variables:
        raise refuse(Text("import.console_expected_taken", name=name))
    columns = [*variables, "expected"]
    rows = [{**{column: row[column] for column in variables}, "expected": row[ideal[0]]} for row in table.rows]
    unmapped = [Text("import.console_prompt", variables=", ".join("{{" + column + "}}" for column in variables))]
    if earlier:
        unmapped.append(Text("import.console_earlier", columns=", ".join(earlier)))
    if len(ideal) > 1:
        unmapped.append(Text("import.console_ideal_twice", used=ideal[0], others=", ".join(ideal[1:])))
    user = "\n\n".join("{{" + column + "}}" for column in variables)
    return Suite("anthropic-console", name, user, dataset=Dataset(columns, rows, Text("import.console_csv_source", name=name)),
                 graders=[GraderSpec("model", RUBRIC, model=DEFAULT_GRADING_MODEL)], unmapped=unmapped)
