"""Importers: eval suites from other tools as Batch suites (prompt, data set, columns, graders, and
what could not be mapped). One module per source: `promptfoo` (a promptfooconfig.yaml and the
files it references), `openai_evals` (an OpenAI Evals export: the eval's JSON, its rows as JSONL,
optionally a run's JSON), `console_csv` (a CSV with an ideal-output column as Anthropic's Console
exports it). `read_suite` reads an upload within `bounds` and picks the importer by content."""

from __future__ import annotations

import re
from pathlib import Path

from playground.client.texts import Text
from playground.client.batch.importers.bounds import SuiteError, SuiteFiles, refuse
from playground.client.batch.importers.console_csv import import_console_csv
from playground.client.batch.importers.openai_evals import import_openai_evals, is_eval
from playground.client.batch.importers.promptfoo import import_promptfoo
from playground.client.batch.importers.suite import Suite

__all__ = ["Suite", "SuiteError", "read_suite"]

_PROMPTFOO_KEYS = re.compile(r"^(?:prompts|providers|targets|tests)\s*:", re.MULTILINE)


def read_suite(paths: list[str | Path], max_rows: int, prices: str = "") -> Suite:
    """The suite an upload holds (raises `SuiteError` naming what and where). `prices` is the
    price table (the Prices panel's CSV) a promptfoo `cost` assertion counts with."""
    files = SuiteFiles.read(paths)
    for name in sorted(files.files, key=lambda name: (not name.startswith("promptfooconfig"), name)):
        if name.endswith((".yaml", ".yml")) and _PROMPTFOO_KEYS.search(files.text(name)):
            return import_promptfoo(files, name, max_rows, prices)
    evals = [name for name in files.files if name.endswith(".json") and is_eval(files, name)]
    if evals:
        return import_openai_evals(files, evals[0], max_rows)
    promptfoo_json = [name for name in files.files if name.startswith("promptfooconfig") and name.endswith(".json")]
    if promptfoo_json:
        return import_promptfoo(files, promptfoo_json[0], max_rows, prices)
    csvs = [name for name in files.files if name.endswith(".csv")]
    if len(files.files) == 1 and csvs:
        return import_console_csv(files, csvs[0], max_rows)
    raise refuse(Text("import.unknown_suite", names=", ".join(sorted(files.files))[:200]))
