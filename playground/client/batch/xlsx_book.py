"""Where a workbook keeps what a data set reads: the first worksheet, the shared strings, the
styles that mark dates and the date system, found through the package's relationships and read
with the bounded `Archive`. The shared strings are bounded in number and in size each."""

from __future__ import annotations

from playground.client.texts import Text

import posixpath
import zipfile
from dataclasses import dataclass, field

from openpyxl.styles.numbers import BUILTIN_FORMATS, is_date_format, is_timedelta_format
from openpyxl.utils.datetime import CALENDAR_MAC_1904, CALENDAR_WINDOWS_1900

from playground.client.batch.dataset_budget import MAX_COLUMNS, MAX_VALUE_CHARS, Budget, DatasetError
from playground.client.batch.xlsx_archive import Archive, XmlHandler, read_whole

MAX_FORMAT_CHARS = 255


@dataclass
class Book:
    sheet: zipfile.ZipInfo
    strings: zipfile.ZipInfo | None
    styles: zipfile.ZipInfo | None
    epoch: object = CALENDAR_WINDOWS_1900


class _Relationships(XmlHandler):
    def __init__(self) -> None:
        super().__init__()
        self.found: dict[str, tuple[str, str]] = {}
        """Id -> (type, target) of the relationships inside the package."""

    def start(self, name: str, attributes: dict[str, str]) -> None:
        if name == "Relationship" and attributes.get("TargetMode", "Internal") == "Internal":
            self.found[attributes.get("Id", "")] = (attributes.get("Type", ""), attributes.get("Target", ""))


class _Workbook(XmlHandler):
    def __init__(self) -> None:
        super().__init__()
        self.sheet_ids: list[str] = []
        self.date1904 = False

    def start(self, name: str, attributes: dict[str, str]) -> None:
        if name == "sheet":
            self.sheet_ids += [value for key, value in attributes.items() if key.endswith(" id")][:1]
        elif name == "workbookPr":
            self.date1904 = attributes.get("date1904", "").lower() in ("1", "true")


def _relationships(archive: Archive, part: str) -> dict[str, tuple[str, str]]:
    """The part's relationships, targets resolved to part names."""
    folder, base = posixpath.split(part)
    info = archive.find(posixpath.join(folder, "_rels", base + ".rels"))
    if info is None:
        return {}
    handler = _Relationships()
    read_whole(archive, info, handler)
    return {key: (kind, target[1:] if target.startswith("/") else posixpath.normpath(posixpath.join(folder, target)))
            for key, (kind, target) in handler.found.items()}


def find_book(archive: Archive) -> Book:
    """The first worksheet and what reading it needs (raises `DatasetError`)."""
    office = [target for kind, target in _relationships(archive, "").values() if kind.endswith("/officeDocument")]
    workbook_info = archive.find(office[0] if office else "xl/workbook.xml")
    if workbook_info is None:
        raise DatasetError(None, Text("batch.xlsx_book.not_readable_xlsx_workbook_no"))
    workbook = _Workbook()
    read_whole(archive, workbook_info, workbook)
    related = _relationships(archive, workbook_info.filename)

    def part(suffix: str, key: str | None = None) -> zipfile.ZipInfo | None:
        for found_key, (kind, target) in related.items():
            if kind.endswith(suffix) and (key is None or found_key == key):
                return archive.find(target)
        return None

    sheet = next((info for info in (part("/worksheet", key) for key in workbook.sheet_ids) if info is not None), None)
    if sheet is None:
        raise DatasetError(None, Text("batch.xlsx_book.workbook_no_worksheet"))
    return Book(sheet, part("/sharedStrings"), part("/styles"), CALENDAR_MAC_1904 if workbook.date1904 else CALENDAR_WINDOWS_1900)


class _SharedStrings(XmlHandler):
    """Each `<si>`'s text (runs joined, phonetic guides left out), bounded in number and size."""

    def __init__(self, most: int) -> None:
        super().__init__()
        self.most = most
        self.strings: list[str] = []
        self._parts: list[str] | None = None
        self._size = self._phonetic = 0
        self._item: list[str] = []

    def start(self, name: str, attributes: dict[str, str]) -> None:
        if name == "si":
            self._item, self._size = [], 0
        elif name == "rPh":
            self._phonetic += 1
        elif name == "t" and not self._phonetic:
            self._parts = self._item

    def end(self, name: str) -> None:
        if name == "t":
            self._parts = None
        elif name == "rPh":
            self._phonetic -= 1
        elif name == "si":
            if len(self.strings) >= self.most:
                raise DatasetError(None, Text("batch.xlsx_book.workbook_more_than_shared_strings", most=self.most, max_columns=MAX_COLUMNS))
            self.strings.append("".join(self._item))

    def text(self, data: str) -> None:
        if self._parts is not None:
            self._size += len(data)
            if self._size > MAX_VALUE_CHARS:
                raise DatasetError(None, Text("batch.xlsx_book.shared_string_more_than_characters", strings_count=len(self.strings) + 1, max_value_chars=MAX_VALUE_CHARS))
            self._parts.append(data)


def shared_strings(archive: Archive, info: zipfile.ZipInfo, budget: Budget) -> list[str]:
    handler = _SharedStrings((budget.max_rows + 1) * MAX_COLUMNS)
    for _ in archive.parse(info, handler):
        pass
    return handler.strings


class _Styles(XmlHandler):
    def __init__(self) -> None:
        super().__init__()
        self.formats: dict[int, str] = {}
        self.cell_formats: list[int] = []
        self._in_cell_formats = False

    def start(self, name: str, attributes: dict[str, str]) -> None:
        if name == "numFmt":
            self.formats[_whole(attributes.get("numFmtId"))] = attributes.get("formatCode", "")
        elif name == "cellXfs":
            self._in_cell_formats = True
        elif name == "xf" and self._in_cell_formats:
            self.cell_formats.append(_whole(attributes.get("numFmtId")))

    def end(self, name: str) -> None:
        if name == "cellXfs":
            self._in_cell_formats = False


def whole_number(text: str | None, digits: int = 9) -> int | None:
    """`text` as a whole number of at most `digits` ASCII digits, else None (`isdigit` alone lets
    "²" through, which `int` refuses)."""
    return int(text) if text and len(text) <= digits and text.isascii() and text.isdigit() else None


def _whole(text: str | None) -> int:
    return whole_number(text) or 0


def date_styles(archive: Archive, info: zipfile.ZipInfo) -> frozenset[int]:
    """The cell styles (indexes into `cellXfs`) whose number format shows a date or a time."""
    handler = _Styles()
    for _ in archive.parse(info, handler):
        pass
    dates = set()
    for index, format_id in enumerate(handler.cell_formats):
        code = handler.formats.get(format_id) or BUILTIN_FORMATS.get(format_id) or ""
        if len(code) <= MAX_FORMAT_CHARS and is_date_format(code) and not is_timedelta_format(code):
            dates.add(index)
    return frozenset(dates)


@dataclass
class Lookups:
    """What a sheet's cells refer to."""

    strings: list[str] = field(default_factory=list)
    dates: frozenset[int] = frozenset()
    epoch: object = CALENDAR_WINDOWS_1900


def open_book(archive: Archive, budget: Budget) -> tuple[zipfile.ZipInfo, Lookups]:
    """The first worksheet's part and its lookups, every part it needs reserved first."""
    book = find_book(archive)
    archive.reserve([info for info in (book.sheet, book.strings, book.styles) if info is not None])
    dates = date_styles(archive, book.styles) if book.styles is not None else frozenset()
    strings = shared_strings(archive, book.strings, budget) if book.strings is not None else []
    return book.sheet, Lookups(strings, dates, book.epoch)
