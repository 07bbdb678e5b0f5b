"""Data sets for a batch run: pasted lines, CSV, JSONL and XLSX, read whole and checked before
the screen changes. Columns are variables (an optional `expected` column feeds the graders);
every refusal names the line (or row) and the reason.

Every reader is bounded before it parses and as it goes (`dataset_budget`): the file's size, rows
read with blank rows counted, columns, a value's size, a JSONL value's nesting, time; a workbook
also by its parts (`xlsx_archive`) and its declared and real extent (`xlsx_sheet`). Nothing that
cannot be sent (a NUL, a lone surrogate) is kept. `read_in_worker` runs a reader on one of two
threads of its own, so a file never holds the event loop."""

from __future__ import annotations

from playground.client.texts import Text

import asyncio
import csv
import io
import json
import math
import re
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from playground.client.batch.dataset_budget import LIMITS, MAX_COLUMNS, MAX_VALUE_CHARS, Budget, DatasetError, Limits
from playground.client.batch.xlsx_sheet import sheet_rows
from playground.client.json_depth import deeper_than

__all__ = ["FORMATS", "LIMITS", "MAX_COLUMNS", "MAX_VALUE_CHARS", "Dataset", "DatasetError", "Limits", "read_file", "read_in_worker", "read_paste"]

FORMATS = (".csv", ".jsonl", ".xlsx")
MAX_LINE_CHARS = MAX_COLUMNS * MAX_VALUE_CHARS
"""A JSONL line: 64 values of 100,000 characters."""
_UNSENDABLE = re.compile("[\x00\ud800-\udfff]")
Read = TypeVar("Read")
_READERS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="dataset-reader")
"""Reading is CPU work: two at a time at most, each within its time budget."""


PASTED_SOURCE = "pasted"
"""The source of rows typed or pasted into the tab (the screen words it in the visitor's language)."""


@dataclass
class Dataset:
    columns: list[str]
    rows: list[dict[str, str]] = field(default_factory=list)
    source: str = PASTED_SOURCE

    def __len__(self) -> int:
        return len(self.rows)

    def preview(self, count: int = 10) -> list[list[str]]:
        return [[row.get(name, "") for name in self.columns] for row in self.rows[:count]]


def _sendable(text: str, line: int | None, what: str, unit: str) -> None:
    """Refuse text holding a NUL or a lone surrogate (it could not be sent, saved or shown)."""
    bad = _UNSENDABLE.search(text)
    if bad is None:
        return
    if bad.group() == "\x00":
        raise DatasetError(line, Text("dataset.holds_nul_character_code_0", what=what), unit)
    raise DatasetError(line, Text("dataset.holds_broken_character_lone_surrogate", what=what), unit)


def _shown(text: str) -> str:
    """`text` safe to put in a message (a lone surrogate written as its escape)."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _cell(value: Any, line: int, name: str, unit: str = "line") -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        text = value
    elif isinstance(value, (bool, int, float)):
        text = json.dumps(value)
    else:
        text = json.dumps(value, ensure_ascii=False)
    if len(text) > MAX_VALUE_CHARS:
        raise DatasetError(line, Text("dataset.value_too_long", name=repr(name), length=len(text), limit=MAX_VALUE_CHARS), unit)
    _sendable(text, line, Text("dataset.the_value_of", name=repr(name)), unit)
    return text


def _header(names: list[Any], unit: str = "line") -> list[str]:
    columns = [str(name).strip() if name is not None else "" for name in names]
    if not any(columns):
        raise DatasetError(1, Text("dataset.first_line_name_columns_variables"), unit)
    if len(columns) > MAX_COLUMNS:
        raise DatasetError(1, Text("dataset.too_many_columns", columns=len(columns), limit=MAX_COLUMNS), unit)
    for index, name in enumerate(columns):
        if not name:
            raise DatasetError(1, Text("dataset.column_no_name", index=index + 1), unit)
        _sendable(name, 1, Text("dataset.the_name_of_column", index=index + 1), unit)
        if "{" in name or "}" in name or len(name) > 64:
            raise DatasetError(1, Text("dataset.column_name_cannot_variable_no", name=repr(name[:40])), unit)
    duplicate = next((name for name in columns if columns.count(name) > 1), None)
    if duplicate:
        raise DatasetError(1, Text("dataset.column_appears_twice", duplicate=repr(duplicate)), unit)
    return columns


def _text(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        raise DatasetError(line, Text("dataset.not_utf_8_text_byte", byte=error.start + 1)) from None


def _lines(text: str) -> Iterator[tuple[int, str]]:
    """(number, line) split at line feeds only (a JSON string may hold U+2028 and the like)."""
    start, number = 0, 0
    while start <= len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        number += 1
        yield number, text[start:end]
        start = end + 1


def read_csv(text: str, budget: Budget) -> Dataset:
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        columns = _header(next(reader, []))
        rows: list[dict[str, str]] = []
        for values in reader:
            line = reader.line_num
            if not any(value.strip() for value in values):
                budget.blank_rows(line)
                continue
            if len(values) != len(columns):
                raise DatasetError(line, Text("dataset.fields_differ_from_header", fields=len(values), columns=len(columns)))
            budget.data_row(line)
            rows.append({name: _cell(value, line, name) for name, value in zip(columns, values)})
    except csv.Error as error:
        raise DatasetError(reader.line_num, Text("dataset.not_valid_csv", error=error)) from None
    return Dataset(columns, rows, "CSV")


def _no_constant(name: str) -> Any:
    raise DatasetError(None, Text("dataset.not_number_data_set_can", name=name))


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise DatasetError(None, Text("dataset.too_large_number_would_infinity", number=text[:20]))
    return number


def _json_line(raw: str, line: int, limits: Limits) -> Any:
    """One JSONL line parsed, its size and nesting checked first (raises `DatasetError`)."""
    if len(raw) > MAX_LINE_CHARS:
        raise DatasetError(line, Text("dataset.line_characters_most_values_characters", length=len(raw), limit=MAX_LINE_CHARS, max_columns=MAX_COLUMNS, max_value=MAX_VALUE_CHARS))
    too_deep = Text("dataset.json_nested_more_than_levels", limit=limits.json_depth)
    if deeper_than(raw, limits.json_depth):
        raise DatasetError(line, too_deep)
    try:
        return json.loads(raw, parse_constant=_no_constant, parse_float=_finite)
    except DatasetError as error:
        raise DatasetError(line, error.reason) from None
    except RecursionError:  # not reached: the nesting is checked above
        raise DatasetError(line, too_deep) from None
    except ValueError as error:
        raise DatasetError(line, Text("dataset.not_valid_json", reason=error.args[0] if error.args else error)) from None


def read_jsonl(text: str, budget: Budget) -> Dataset:
    columns: list[str] = []
    rows: list[dict[str, str]] = []
    for line, raw in _lines(text):
        if not raw.strip():
            budget.blank_rows(line)
            continue
        item = _json_line(raw, line, budget.limits)
        if not isinstance(item, dict):
            raise DatasetError(line, Text("dataset.each_line_json_object_not", kind=type(item).__name__))
        if not columns:
            columns = _header(list(item))
        elif list(item) != columns and set(item) != set(columns):
            missing, extra = [_shown(c) for c in columns if c not in item], [_shown(str(k)) for k in item if k not in columns]
            raise DatasetError(line, Text("dataset.keys_differ_from_first_line",
                                                 missing=Text("dataset.keys_missing", keys=", ".join(missing)) if missing else "",
                                                 extra=Text("dataset.keys_extra", keys=", ".join(map(str, extra))) if extra else ""))
        budget.data_row(line)
        rows.append({name: _cell(item[name], line, name) for name in columns})
    if not rows:
        raise DatasetError(None, Text("dataset.file_no_rows"))
    return Dataset(columns, rows, "JSONL")


def _row_values(cells: dict[int, Any]) -> list[Any]:
    """A sheet row's values from column A to its last cell with a value."""
    return [cells.get(column) for column in range(1, max(cells, default=0) + 1)]


def read_xlsx(path: Path, budget: Budget) -> Dataset:
    """The first worksheet: row 1 names the columns; missing and empty rows count as blank rows."""
    columns: list[str] | None = None
    rows: list[dict[str, str]] = []
    previous = 0
    with closing(sheet_rows(path, budget)) as sheet:
        for number, cells in sheet:
            if columns is None:
                columns = _header(_row_values(cells) if number == 1 else [], "row")
                previous = number
                continue
            if number > previous + 1:
                budget.blank_rows(number, number - previous - 1)
            previous = max(previous, number)
            values = _row_values(cells)
            if all(value is None or str(value).strip() == "" for value in values):
                budget.blank_rows(number)
                continue
            if len(values) > len(columns):
                raise DatasetError(number, Text("dataset.cells_differ_from_header", cells=len(values), columns=len(columns)), "row")
            budget.data_row(number)
            values += [None] * (len(columns) - len(values))
            rows.append({name: _cell(value, number, name, "row") for name, value in zip(columns, values)})
    if columns is None:
        _header([], "row")
    return Dataset(columns or [], rows, "XLSX")


def _names_a_header(first_line: str, name: str) -> bool:
    """Whether a pasted first line is a CSV header holding the prompt's one variable `name`
    (`country,expected`, or `country` alone), not the first of one-per-line values."""
    try:
        fields = next(csv.reader([first_line], strict=True), [])
    except csv.Error:
        return False
    return name in (field.strip() for field in fields)


def read_paste(text: str, variables: list[str], max_rows: int, limits: Limits = LIMITS) -> Dataset:
    """Pasted rows: one per line when the prompt has one variable and the first line is not a
    header naming it; otherwise CSV with a header (or JSONL when the first line is a JSON object)."""
    stripped = (text or "").strip()
    if not stripped:
        raise DatasetError(None, Text("dataset.paste_some_rows_first"))
    if len(stripped) > limits.file_bytes:
        raise DatasetError(None, Text("dataset.pasted_text_characters_most", length=len(stripped), limit=limits.file_bytes))
    budget = Budget(max_rows, limits)
    if stripped.startswith("{"):
        return read_jsonl(stripped, budget)
    if len(variables) == 1 and not _names_a_header(stripped.split("\n", 1)[0], variables[0]):
        name = variables[0]
        rows: list[dict[str, str]] = []
        for line, raw in _lines(text):
            if not raw.strip():
                budget.blank_rows(line)
                continue
            budget.data_row(line)
            rows.append({name: _cell(raw.strip(), line, name)})
        return Dataset([name], rows, PASTED_SOURCE)
    dataset = read_csv(stripped, budget)
    if not dataset.rows:
        raise DatasetError(None, Text("dataset.pasted_text_header_but_no"))
    return dataset


def _read_bytes(path: Path, budget: Budget) -> bytes:
    with path.open("rb") as handle:
        data = handle.read(budget.limits.file_bytes + 1)
    budget.file_size(len(data))
    return data


def read_file(path: str | Path, max_rows: int, limits: Limits = LIMITS) -> Dataset:
    """A CSV, JSONL or XLSX file by its extension (raises `DatasetError`, or `OSError` when it
    cannot be read at all)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise DatasetError(None, Text("dataset.upload_csv_jsonl_xlsx_file", suffix=suffix or Text("dataset.no_extension")))
    budget = Budget(max_rows, limits, "row" if suffix == ".xlsx" else "line")
    budget.file_size(path.stat().st_size)
    if suffix == ".xlsx":
        dataset = read_xlsx(path, budget)
    else:
        text = _text(_read_bytes(path, budget))
        dataset = read_csv(text, budget) if suffix == ".csv" else read_jsonl(text, budget)
    if not dataset.rows:
        raise DatasetError(None, Text("dataset.file_header_but_no_rows"))
    return dataset


async def read_in_worker(read: Callable[..., Read], *args: Any) -> Read:
    """`read(*args)` (`read_file`, `read_paste`) on the readers' own threads, so the event loop
    keeps answering while a file is parsed; each reading ends within its time budget."""
    return await asyncio.get_running_loop().run_in_executor(_READERS, partial(read, *args))
