"""Data sets for a batch run: pasted lines, CSV, JSONL and XLSX, read whole and checked before
the screen changes. Columns are variables (an optional `expected` column feeds the graders);
every refusal names the line (or row) and the reason."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MAX_VALUE_CHARS = 100_000
MAX_COLUMNS = 64
FORMATS = (".csv", ".jsonl", ".xlsx")


class DatasetError(ValueError):
    def __init__(self, line: int | None, reason: str, unit: str = "line") -> None:
        self.line, self.reason = line, reason
        super().__init__(f"{unit} {line}: {reason}" if line is not None else reason)


@dataclass
class Dataset:
    columns: list[str]
    rows: list[dict[str, str]] = field(default_factory=list)
    source: str = "pasted"

    def __len__(self) -> int:
        return len(self.rows)

    def preview(self, count: int = 10) -> list[list[str]]:
        return [[row.get(name, "") for name in self.columns] for row in self.rows[:count]]


def _cell(value: Any, line: int, name: str, unit: str = "line") -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        text = value
    elif isinstance(value, bool) or isinstance(value, (int, float)):
        text = json.dumps(value)
    else:
        text = json.dumps(value, ensure_ascii=False)
    if len(text) > MAX_VALUE_CHARS:
        raise DatasetError(line, f"the value of {name!r} has {len(text):,} characters (at most {MAX_VALUE_CHARS:,})", unit)
    return text


def _header(names: list[Any], unit: str = "line") -> list[str]:
    columns = [str(name).strip() if name is not None else "" for name in names]
    if not any(columns):
        raise DatasetError(1, "the first line must name the columns (the variables)", unit)
    if len(columns) > MAX_COLUMNS:
        raise DatasetError(1, f"{len(columns)} columns; at most {MAX_COLUMNS}", unit)
    for index, name in enumerate(columns):
        if not name:
            raise DatasetError(1, f"column {index + 1} has no name", unit)
        if "{" in name or "}" in name or len(name) > 64:
            raise DatasetError(1, f"the column name {name[:40]!r} cannot be a variable (no braces, at most 64 characters)", unit)
    duplicate = next((name for name in columns if columns.count(name) > 1), None)
    if duplicate:
        raise DatasetError(1, f"the column {duplicate!r} appears twice", unit)
    return columns


def _too_many(max_rows: int) -> str:
    return f"more than {max_rows:,} rows (the limit for a run; setting PLAYGROUND_BATCH_MAX_ROWS)"


def _text(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        raise DatasetError(line, f"not UTF-8 text (byte {error.start + 1}); save the file as UTF-8") from None


def read_csv(text: str, max_rows: int) -> Dataset:
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        columns = _header(next(reader, []))
        rows: list[dict[str, str]] = []
        for values in reader:
            line = reader.line_num
            if not any(value.strip() for value in values):
                continue
            if len(values) != len(columns):
                raise DatasetError(line, f"{len(values)} fields, but the header has {len(columns)}")
            if len(rows) == max_rows:
                raise DatasetError(line, _too_many(max_rows))
            rows.append({name: _cell(value, line, name) for name, value in zip(columns, values)})
    except csv.Error as error:
        raise DatasetError(reader.line_num, f"not valid CSV ({error})") from None
    return Dataset(columns, rows, "CSV")


def read_jsonl(text: str, max_rows: int) -> Dataset:
    columns: list[str] = []
    rows: list[dict[str, str]] = []
    for line, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            item = json.loads(raw)
        except ValueError as error:
            raise DatasetError(line, f"not valid JSON ({error.args[0] if error.args else error})") from None
        if not isinstance(item, dict):
            raise DatasetError(line, f"each line must be a JSON object, not {type(item).__name__}")
        if not columns:
            columns = _header(list(item))
        elif list(item) != columns and set(item) != set(columns):
            missing, extra = [c for c in columns if c not in item], [k for k in item if k not in columns]
            raise DatasetError(line, "the keys differ from the first line" + (f"; missing {', '.join(missing)}" if missing else "")
                               + (f"; extra {', '.join(map(str, extra))}" if extra else ""))
        if len(rows) == max_rows:
            raise DatasetError(line, _too_many(max_rows))
        rows.append({name: _cell(item[name], line, name) for name in columns})
    if not rows:
        raise DatasetError(None, "the file has no rows")
    return Dataset(columns, rows, "JSONL")


def read_xlsx(path: Path, max_rows: int) -> Dataset:
    from openpyxl import load_workbook

    try:
        book = load_workbook(path, read_only=True, data_only=True)
    except Exception as error:  # openpyxl raises many types for a broken file
        raise DatasetError(None, f"not a readable XLSX workbook ({type(error).__name__})") from None
    try:
        sheet = book.worksheets[0]
        values = sheet.iter_rows(values_only=True)
        names = list(next(values, ()) or ())
        while names and names[-1] is None:  # a sheet is as wide as its widest row
            names.pop()
        columns = _header(names, "row")
        rows: list[dict[str, str]] = []
        for number, cells in enumerate(values, 2):
            cells = list(cells or ())
            while cells and cells[-1] is None and len(cells) > len(columns):
                cells.pop()
            if all(cell is None or str(cell).strip() == "" for cell in cells):
                continue
            if len(cells) > len(columns):
                raise DatasetError(number, f"{len(cells)} cells, but the header has {len(columns)}", "row")
            cells += [None] * (len(columns) - len(cells))
            if len(rows) == max_rows:
                raise DatasetError(number, _too_many(max_rows), "row")
            rows.append({name: _cell(cell, number, name, "row") for name, cell in zip(columns, cells)})
    finally:
        book.close()
    return Dataset(columns, rows, "XLSX")


def read_paste(text: str, variables: list[str], max_rows: int) -> Dataset:
    """Pasted rows: one per line when the prompt has one variable; otherwise CSV with a header
    (or JSONL when the first line is a JSON object)."""
    stripped = (text or "").strip()
    if not stripped:
        raise DatasetError(None, "paste some rows first")
    if stripped.startswith("{"):
        return read_jsonl(stripped, max_rows)
    if len(variables) == 1:
        name, rows = variables[0], []
        for line, raw in enumerate(text.splitlines(), 1):
            if raw.strip():
                if len(rows) == max_rows:
                    raise DatasetError(line, _too_many(max_rows))
                rows.append({name: _cell(raw.strip(), line, name)})
        return Dataset([name], rows, "pasted")
    return read_csv(stripped, max_rows)


def read_file(path: str | Path, max_rows: int) -> Dataset:
    """A CSV, JSONL or XLSX file by its extension (raises `DatasetError`)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise DatasetError(None, f"upload a .csv, .jsonl or .xlsx file (got {suffix or 'no extension'})")
    if suffix == ".xlsx":
        return read_xlsx(path, max_rows)
    text = _text(path.read_bytes())
    dataset = read_csv(text, max_rows) if suffix == ".csv" else read_jsonl(text, max_rows)
    if not dataset.rows:
        raise DatasetError(None, "the file has a header but no rows")
    return dataset
