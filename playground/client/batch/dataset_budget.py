"""How much a data-set reader may read, and the budget one reading spends: the file's bytes, a
workbook's unpacked bytes and parts, rows read (blank rows counted), columns, a value's size,
nesting and time. Every refusal is a `DatasetError` that names its limit and, where there is
one, its setting; the readers check before they parse and as they go."""

from __future__ import annotations

from playground.client.texts import Text

import time
from dataclasses import dataclass

MAX_VALUE_CHARS = 100_000
MAX_COLUMNS = 64


UNITS = ("line", "row")
"""Where a data set's problem is: a line of text, or a row of a sheet (`dataset.at_<unit>`)."""


class DatasetError(ValueError):
    def __init__(self, line: int | None, reason: str, unit: str = "line") -> None:
        self.line, self.reason = line, reason
        super().__init__(reason if line is None else Text(f"dataset.at_{unit}", line=line, reason=reason) if unit in UNITS
                         else f"{unit} {line}: {reason}")


@dataclass(frozen=True)
class Limits:
    """What one data set may cost to read. The rows of data are the run's setting
    (`PLAYGROUND_BATCH_MAX_ROWS`), passed with each reading; the rest are these."""

    file_bytes: int = 50_000_000
    """A file or a paste; the same as the upload cap's default."""
    blank_rows: int = 1_000
    """Empty rows and lines read (a sheet's missing rows included) before the reader gives up, or
    as many as the run's rows when those are more."""
    seconds: float = 10.0
    """Wall time of one reading, checked as it goes: a backstop (the other limits refuse a hostile
    file in well under a second; 10,000 rows of 64 columns of a workbook take about 10 s here)."""
    json_depth: int = 32
    """Nesting of a JSONL value, checked before it is parsed."""
    unpacked_bytes: int = 64_000_000
    """The parts of a workbook that are read (its sheet, shared strings, styles, workbook), unpacked."""
    compression_ratio: int = 100
    """Unpacked size over packed size of a part larger than 1 MB."""
    zip_parts: int = 1_000
    sheet_columns: int = 1_024
    """The widest `<dimension>` a sheet may declare."""


LIMITS = Limits()


def too_many_rows(max_rows: int) -> str:
    return Text("dataset.too_many_rows", limit=max_rows)


class Budget:
    """One reading's spending: data rows against the run's setting, blank rows and time against `Limits`."""

    def __init__(self, max_rows: int, limits: Limits = LIMITS, unit: str = "line") -> None:
        self.max_rows, self.limits, self.unit = max_rows, limits, unit
        self.rows = self.blank = 0
        self.blank_limit = max(limits.blank_rows, max_rows)
        self._deadline = time.monotonic() + limits.seconds

    def check_time(self, line: int | None = None) -> None:
        if time.monotonic() > self._deadline:
            raise DatasetError(line, Text("dataset.reading_file_took_more_than", seconds=self.limits.seconds), self.unit)

    def data_row(self, line: int) -> None:
        if self.rows >= self.max_rows:
            raise DatasetError(line, too_many_rows(self.max_rows), self.unit)
        self.rows += 1
        self.check_time(line)

    def blank_rows(self, line: int, count: int = 1) -> None:
        self.blank += count
        if self.blank > self.blank_limit:
            raise DatasetError(line, Text("dataset.more_than_blank_rows_limit", limit=self.blank_limit, at_least=self.limits.blank_rows),
                               self.unit)
        self.check_time(line)

    def file_size(self, size: int) -> None:
        if size > self.limits.file_bytes:
            raise DatasetError(None, Text("dataset.file_too_large", size=size, limit=self.limits.file_bytes))
