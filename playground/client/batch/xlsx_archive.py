"""A workbook's zip, opened with care: its directory's size read from the end record before
`zipfile` reads the directory, each part the reader needs checked before it is unpacked
(encryption, packing method, declared size, compression ratio, the total unpacked), and parts
fed to expat in chunks with the time budget checked between chunks, no DTD (so no entities)
and bounded nesting. Only the parts a first sheet needs are ever opened."""

from __future__ import annotations

from playground.client.texts import Text

import struct
import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from xml.parsers import expat

from playground.client.batch.dataset_budget import Budget, DatasetError, Limits

CHUNK_BYTES = 1 << 16
RATIO_CHECKED_FROM = 1_000_000
"""Small parts compress as they like; a part larger than this must stay within the ratio."""
MAX_XML_DEPTH = 64
"""A sheet nests seven elements deep (worksheet, sheetData, row, c, is, r, t)."""
_END_RECORD = b"PK\x05\x06"
_END_SEARCH = 22 + 65_535


def unreadable(reason: str) -> DatasetError:
    return DatasetError(None, Text("batch.xlsx_archive.not_readable_xlsx_workbook", reason=reason))


def _count_parts(path: Path, limits: Limits) -> None:
    """Refuse a zip whose directory lists too many parts, from its end record alone."""
    size = path.stat().st_size
    with path.open("rb") as handle:
        handle.seek(max(0, size - _END_SEARCH))
        tail = handle.read()
    at = tail.rfind(_END_RECORD)
    if at < 0 or len(tail) - at < 22:
        raise unreadable(Text("batch.xlsx_archive.no_zip_directory"))
    parts, directory_bytes = struct.unpack_from("<HL", tail, at + 10)
    if parts == 0xFFFF or directory_bytes == 0xFFFFFFFF:
        raise unreadable("ZIP64")
    if parts > limits.zip_parts or directory_bytes > limits.zip_parts * 1024:
        raise DatasetError(None, Text("batch.xlsx_archive.workbook_parts_bytes_zip_directory", parts=parts, directory_bytes=directory_bytes, zip_parts=limits.zip_parts))


class Archive:
    """The workbook's parts, each unpacked at most once and only after `reserve` allowed it."""

    def __init__(self, path: Path, budget: Budget) -> None:
        self.budget, self.unpacked = budget, 0
        _count_parts(path, budget.limits)
        try:
            self._zip = zipfile.ZipFile(path)
        except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError, struct.error, NotImplementedError) as error:
            raise unreadable(type(error).__name__) from None
        self._parts = {info.filename: info for info in self._zip.infolist()}
        self._folded = {name.lower(): info for name, info in self._parts.items()}

    def close(self) -> None:
        self._zip.close()

    def find(self, name: str) -> zipfile.ZipInfo | None:
        """A part by name (names in a package are not case-sensitive)."""
        return self._parts.get(name) or self._folded.get(name.lower())

    def reserve(self, parts: list[zipfile.ZipInfo]) -> None:
        """Allow `parts` to be unpacked, or refuse the workbook naming the limit they pass."""
        limits = self.budget.limits
        for info in parts:
            if info.flag_bits & 0x1:
                raise DatasetError(None, Text("batch.xlsx_archive.part_encrypted_save_workbook_without", filename=info.filename))
            if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
                raise unreadable(Text("batch.xlsx_archive.packed_method", filename=info.filename, compress_type=info.compress_type))
            ratio = info.file_size / max(info.compress_size, 1)
            if info.file_size > RATIO_CHECKED_FROM and ratio > limits.compression_ratio:
                raise DatasetError(None, Text("batch.xlsx_archive.part_unpacks_times_packed_size", filename=info.filename, ratio=ratio, file_size=info.file_size / 1000000, compression_ratio=limits.compression_ratio))
        total = self.unpacked + sum(info.file_size for info in parts)
        if total > limits.unpacked_bytes:
            raise DatasetError(None, Text("batch.xlsx_archive.workbook_unpacks_mb_parts_data", total=total / 1000000, unpacked_bytes=limits.unpacked_bytes / 1000000))
        self.unpacked = total

    def chunks(self, info: zipfile.ZipInfo) -> Iterator[bytes]:
        """The part's bytes in chunks (never more than its declared size: `zipfile` stops there
        and checks the CRC), the time budget checked between chunks."""
        try:
            with self._zip.open(info) as stream:
                while chunk := stream.read(CHUNK_BYTES):
                    yield chunk
                    self.budget.check_time()
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError, RuntimeError, NotImplementedError) as error:
            raise unreadable(type(error).__name__) from None

    def parse(self, info: zipfile.ZipInfo, handler: XmlHandler) -> Iterator[None]:
        """Feed the part to `handler` through expat; yields after each chunk (and once at the end),
        so a caller can take what the handler finished."""
        parser = expat.ParserCreate(namespace_separator=" ")
        parser.buffer_text = True
        parser.StartDoctypeDeclHandler = _refuse_dtd
        parser.StartElementHandler = handler.opened
        parser.EndElementHandler = handler.closed
        parser.CharacterDataHandler = handler.text
        try:
            for chunk in self.chunks(info):
                parser.Parse(chunk, False)
                yield
            parser.Parse(b"", True)
        except expat.ExpatError as error:
            raise unreadable(f"{info.filename}: {expat.ErrorString(error.code)}") from None
        yield


def _refuse_dtd(*_: Any) -> None:
    raise DatasetError(None, Text("batch.xlsx_archive.workbook_xml_declares_dtd_which"))


class XmlHandler:
    """Elements by their local name (namespaces dropped), nesting bounded."""

    def __init__(self) -> None:
        self.depth = 0

    def opened(self, name: str, attributes: dict[str, str]) -> None:
        self.depth += 1
        if self.depth > MAX_XML_DEPTH:
            raise DatasetError(None, Text("batch.xlsx_archive.workbook_xml_nested_more_than", max_xml_depth=MAX_XML_DEPTH))
        self.start(name.rpartition(" ")[2], attributes)

    def closed(self, name: str) -> None:
        self.depth -= 1
        self.end(name.rpartition(" ")[2])

    def start(self, name: str, attributes: dict[str, str]) -> None:
        """An element opened (local name)."""

    def end(self, name: str) -> None:
        """An element closed (local name)."""

    def text(self, data: str) -> None:
        """Character data."""


def read_whole(archive: Archive, info: zipfile.ZipInfo, handler: XmlHandler) -> None:
    """Reserve and parse a small part to its end."""
    archive.reserve([info])
    for _ in archive.parse(info, handler):
        pass
