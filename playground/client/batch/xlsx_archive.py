"""A workbook's zip, opened with care: its directory's size read from the end record before
`zipfile` reads the directory, each part the reader needs checked before it is unpacked
(encryption, packing method, declared size, compression ratio, the total unpacked), and parts
fed to expat in chunks with the time budget checked between chunks, no DTD (so no entities)
and bounded nesting. Only the parts a first sheet needs are ever opened."""

from __future__ import annotations

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
    return DatasetError(None, f"not a readable XLSX workbook ({reason})")


def _count_parts(path: Path, limits: Limits) -> None:
    """Refuse a zip whose directory lists too many parts, from its end record alone."""
    size = path.stat().st_size
    with path.open("rb") as handle:
        handle.seek(max(0, size - _END_SEARCH))
        tail = handle.read()
    at = tail.rfind(_END_RECORD)
    if at < 0 or len(tail) - at < 22:
        raise unreadable("no zip directory")
    parts, directory_bytes = struct.unpack_from("<HL", tail, at + 10)
    if parts == 0xFFFF or directory_bytes == 0xFFFFFFFF:
        raise unreadable("ZIP64")
    if parts > limits.zip_parts or directory_bytes > limits.zip_parts * 1024:
        raise DatasetError(None, f"the workbook has {parts:,} parts ({directory_bytes:,} bytes of zip directory); "
                                 f"a data set workbook has at most {limits.zip_parts:,}")


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
                raise DatasetError(None, f"the part {info.filename} is encrypted; save the workbook without a password")
            if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
                raise unreadable(f"{info.filename} is packed with method {info.compress_type}")
            ratio = info.file_size / max(info.compress_size, 1)
            if info.file_size > RATIO_CHECKED_FROM and ratio > limits.compression_ratio:
                raise DatasetError(None, f"the part {info.filename} unpacks to {ratio:,.0f} times its packed size "
                                         f"({info.file_size / 1_000_000:,.1f} MB); at most {limits.compression_ratio} times")
        total = self.unpacked + sum(info.file_size for info in parts)
        if total > limits.unpacked_bytes:
            raise DatasetError(None, f"the workbook unpacks to {total / 1_000_000:,.1f} MB in the parts a data set reads; "
                                     f"at most {limits.unpacked_bytes / 1_000_000:g} MB")
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
    raise DatasetError(None, "the workbook's XML declares a DTD, which a workbook never needs (its entities are not read)")


class XmlHandler:
    """Elements by their local name (namespaces dropped), nesting bounded."""

    def __init__(self) -> None:
        self.depth = 0

    def opened(self, name: str, attributes: dict[str, str]) -> None:
        self.depth += 1
        if self.depth > MAX_XML_DEPTH:
            raise DatasetError(None, f"the workbook's XML is nested more than {MAX_XML_DEPTH} elements deep")
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
