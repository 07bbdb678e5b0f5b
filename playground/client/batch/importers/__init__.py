"""Importers: eval suites from other tools as Batch suites (prompt, data set, columns, graders, and
what could not be mapped). One module per source: `promptfoo` (a promptfooconfig.yaml and the
files it references), `openai_evals` (an OpenAI Evals export: the eval's JSON, its rows as JSONL,
optionally a run's JSON), `console_csv` (a CSV with an ideal-output column as Anthropic's Console
exports it), `data_set` (a plain CSV, JSONL or XLSX data set, for the command line). `read_suite` reads an upload within `bounds` and picks the importer by content."""

from __future__ import annotations

import re
from pathlib import Path

from playground.client.texts import Text
from playground.client.batch.importers.bounds import SuiteError, SuiteFiles, refuse
from playground.client.batch.importers.console_csv import IDEAL, import_console_csv
from playground.client.batch.importers.data_set import import_data_set
from playground.client.batch.importers.openai_evals import import_openai_evals, is_eval
from playground.client.batch.importers.promptfoo import import_promptfoo
from playground.client.batch.importers.suite import Suite

__all__ = ["Suite", "SuiteError", "read_suite"]

_PROMPTFOO_KEYS = re.compile(r"^(?:prompts|providers|targets|tests)\s*:", re.MULTILINE)


def read_suite(paths: list[str | Path], max_rows: int, prices: str = "", main: str | Path | None = None) -> Suite:
    """The suite an upload holds (raises `SuiteError` naming what and where). `prices` is the
    price table (the Prices panel's CSV) a promptfoo `cost` assertion counts with; `main` the file
    that is the suite (the command line's SUITE), when the others are only the files it may use."""
    suffix = Path(main).suffix.lower() if main is not None else ""
    if main is not None and (suffix in (".jsonl", ".xlsx") or (suffix == ".csv" and not _has_ideal_column(Path(main)))):
        return import_data_set(main, max_rows)
    files = SuiteFiles.read(paths)
    first = Path(main).name if main is not None else None
    for name in sorted(files.files, key=lambda name: (name != first, not name.startswith("promptfooconfig"), name)):
        if name.endswith((".yaml", ".yml")) and _PROMPTFOO_KEYS.search(files.text(name)):
            return import_promptfoo(files, name, max_rows, prices)
        if name == first and name.endswith(".json") and not is_eval(files, name):
            return import_promptfoo(files, name, max_rows, prices)
    evals = [name for name in files.files if name.endswith(".json") and is_eval(files, name)]
    if evals:
        return import_openai_evals(files, first if first in evals else evals[0], max_rows)
    promptfoo_json = [name for name in files.files if name.startswith("promptfooconfig") and name.endswith(".json")]
    if promptfoo_json:
        return import_promptfoo(files, promptfoo_json[0], max_rows, prices)
    csvs = [name for name in files.files if name.endswith(".csv")]
    if len(files.files) == 1 and csvs:
        return import_console_csv(files, csvs[0], max_rows)
    raise refuse(Text("import.unknown_suite", names=", ".join(sorted(files.files))[:200]))


def _has_ideal_column(path: Path) -> bool:
    """Whether a CSV's header names an ideal output (a Console export); only the first line is read."""
    with path.open("rb") as handle:
        header = handle.readline(64_000).decode("utf-8-sig", "replace")
    return any(IDEAL.fullmatch(name.strip().strip('"')) for name in header.split(","))
