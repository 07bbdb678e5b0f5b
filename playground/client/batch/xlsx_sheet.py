"""The first worksheet of an XLSX workbook, row by row, read with expat rather than a library that
pads: a row is what the sheet holds (cells by column, empty ones left out), a missing row costs
nothing to skip, a declared `<dimension>` larger than a data set is refused before any row is
read, no row may hold more cells than a sheet can, and the cells read are bounded (64 for each
row the sheet may have). Values come as openpyxl's `data_only`
gives them (the cached result of a formula), dates as ISO text."""

from __future__ import annotations

from playground.client.texts import Text

import datetime
import math
import re
from collections.abc import Generator
from pathlib import Path
from typing import Any

from openpyxl.utils.datetime import from_excel

from playground.client.batch.dataset_budget import MAX_COLUMNS, MAX_VALUE_CHARS, Budget, DatasetError
from playground.client.batch.xlsx_archive import Archive, XmlHandler, unreadable
from playground.client.batch.xlsx_book import Lookups, open_book, whole_number

MAX_SHEET_COLUMNS = 16_384
"""XFD, the last column a sheet can have."""
Row = tuple[int, dict[int, Any]]
_REFERENCE = re.compile(r"([A-Za-z]{1,3})([0-9]{0,12})$")


def column_number(letters: str) -> int:
    number = 0
    for letter in letters.upper():
        number = number * 26 + ord(letter) - 64
    return number


def column_letters(number: int) -> str:
    letters = ""
    while number > 0:
        number, rest = divmod(number - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


class _Sheet(XmlHandler):
    """Collects finished rows in `ready` as the parser goes."""

    def __init__(self, lookups: Lookups, budget: Budget) -> None:
        super().__init__()
        self.lookups, self.budget = lookups, budget
        self.ready: list[Row] = []
        self.row, self.column, self.count = 0, 0, 0
        self.in_cell = False
        self.cells_read, self.most_cells = 0, (budget.max_rows + 1 + budget.blank_limit) * MAX_COLUMNS
        self.cells: dict[int, Any] | None = None
        self.kind, self.style = "n", 0
        self.value: list[str] | None = None
        self.inline: list[str] | None = None
        self._collect: list[str] | None = None
        self._size = self._phonetic = 0

    def start(self, name: str, attributes: dict[str, str]) -> None:
        if name == "c" and self.cells is not None:
            self._cell(attributes)
        elif name == "v" and self.in_cell and self.value is None:
            self.value = self._collect = []
        elif name == "is" and self.in_cell:
            self.inline = []
        elif name == "t" and self.inline is not None and not self._phonetic:
            self._collect = self.inline
        elif name == "rPh":
            self._phonetic += 1
        elif name == "row":
            self._row(attributes.get("r"))
        elif name == "dimension":
            self._declared(attributes.get("ref", ""))

    def end(self, name: str) -> None:
        if name in ("v", "t"):
            self._collect = None
        elif name == "rPh":
            self._phonetic -= 1
        elif name == "c" and self.in_cell:
            self.in_cell = False
            value = self._value()
            if value is not None and self.cells is not None:
                self.cells[self.column] = value
        elif name == "row" and self.cells is not None:
            self.ready.append((self.row, self.cells))
            self.cells, self.in_cell = None, False

    def text(self, data: str) -> None:
        if self._collect is not None:
            self._size += len(data)
            if self._size > MAX_VALUE_CHARS:
                raise DatasetError(self.row, Text("batch.xlsx_sheet.cell_more_than_characters_limit", self=self._where(), max_value_chars=MAX_VALUE_CHARS), "row")
            self._collect.append(data)

    def _row(self, number: str | None) -> None:
        given = whole_number(number, 12)
        if number is None:
            self.row += 1
        elif given is not None:
            self.row = given
        else:
            raise unreadable(Text("batch.xlsx_sheet.row_numbered", number=repr(number[:20])))
        self.cells, self.column, self.count = {}, 0, 0

    def _cell(self, attributes: dict[str, str]) -> None:
        self.count += 1
        self.cells_read += 1
        if self.count > MAX_SHEET_COLUMNS:
            raise DatasetError(self.row, Text("batch.xlsx_sheet.more_than_cells_one_row", max_sheet_columns=MAX_SHEET_COLUMNS), "row")
        if self.cells_read > self.most_cells:
            raise DatasetError(self.row, Text("batch.xlsx_sheet.more_than_cells_read_each", most_cells=self.most_cells, max_columns=MAX_COLUMNS), "row")
        reference = attributes.get("r")
        if reference is None:
            self.column += 1
        else:
            found = _REFERENCE.match(reference)
            self.column = column_number(found.group(1)) if found else 0
            if not 1 <= self.column <= MAX_SHEET_COLUMNS:
                raise unreadable(Text("batch.xlsx_sheet.cell", reference=repr(reference[:20])))
        self.kind, self.style = attributes.get("t", "n"), whole_number(attributes.get("s")) or 0
        self.value = self.inline = self._collect = None
        self._size, self.in_cell = 0, True

    def _declared(self, reference: str) -> None:
        """Refuse a sheet that declares more rows or columns than a data set can have."""
        end = _REFERENCE.match(reference.rpartition(":")[2])
        if end is None or not end.group(2):
            return
        rows, columns = int(end.group(2)), column_number(end.group(1))
        most_rows = self.budget.max_rows + 1 + self.budget.blank_limit
        most_columns = self.budget.limits.sheet_columns
        if rows > most_rows or columns > most_columns:
            raise DatasetError(None, Text("batch.xlsx_sheet.sheet_declares_rows_columns_data", rows=rows, columns=columns, reference=reference[:40], most_rows=most_rows, most_columns=most_columns))

    def _where(self) -> str:
        return f"{column_letters(self.column)}{self.row}"

    def _value(self) -> Any:
        if self.kind == "inlineStr":
            return "".join(self.inline) if self.inline is not None else None
        raw = "".join(self.value) if self.value is not None else ""
        if not raw:
            return None
        if self.kind == "s":
            return self._shared(raw)
        if self.kind == "b":
            return raw.strip() in ("1", "true")
        if self.kind in ("str", "e", "d"):
            return raw
        number = self._number(raw)
        return date_text(number, self.lookups.epoch) if self.style in self.lookups.dates else number

    def _shared(self, raw: str) -> str:
        strings = self.lookups.strings
        index = whole_number(raw.strip(), 11)
        if index is None or index >= len(strings):
            raise DatasetError(self.row, Text("batch.xlsx_sheet.cell_refers_shared_string_but", self=self._where(), raw=raw[:20], strings_count=len(strings)), "row")
        return strings[index]

    def _number(self, raw: str) -> int | float:
        text = raw.strip()
        try:
            number: int | float = float(text) if any(mark in text for mark in ".eE") else int(text)
        except ValueError:
            number = math.nan
        if isinstance(number, float) and not math.isfinite(number):
            raise DatasetError(self.row, Text("batch.xlsx_sheet.cell_holds_which_not_finite", self=self._where(), text=repr(text[:20])), "row")
        return number


def date_text(number: float, epoch: Any) -> Any:
    """A date-formatted number as ISO text (a date, a date and time, or a time); the number itself
    when it is no date Excel can show."""
    try:
        moment = from_excel(number, epoch)
    except (OverflowError, ValueError, TypeError):
        return number
    if isinstance(moment, datetime.datetime):
        return moment.date().isoformat() if moment.time() == datetime.time() else moment.isoformat(sep=" ")
    if isinstance(moment, datetime.time):
        return moment.isoformat()
    return number


def sheet_rows(path: Path, budget: Budget) -> Generator[Row, None, None]:
    """(row number, {column number: value}) for each `<row>` of the first worksheet, in file
    order; empty cells are left out (a row may come out empty). Raises `DatasetError`."""
    archive = Archive(path, budget)
    try:
        sheet, lookups = open_book(archive, budget)
        handler = _Sheet(lookups, budget)
        for _ in archive.parse(sheet, handler):
            yield from handler.ready
            handler.ready = []
    finally:
        archive.close()
