"""Workbooks and data files built to hurt a reader, made in memory by the tests (never stored in
git): a far cell under a declared A1:XFD1048576, a sheet that unpacks to a gigabyte, a file of
blank rows, huge shared strings, a DTD of entities, sizes that lie, and so on. `CORPUS` names
each with the words its refusal must hold."""

from __future__ import annotations

import io
import secrets
import struct
import zipfile
import zlib
from collections.abc import Callable

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PACKAGE_RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
TYPES = "http://schemas.openxmlformats.org/package/2006/content-types"
XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
SHEET_PATH = "xl/worksheets/sheet1.xml"
STRINGS_PATH = "xl/sharedStrings.xml"


def sheet_xml(rows: str, dimension: str | None = None, head: str = XML_HEAD) -> bytes:
    declared = f'<dimension ref="{dimension}"/>' if dimension else ""
    return f'{head}<worksheet xmlns="{MAIN}" xmlns:r="{RELS}">{declared}<sheetData>{rows}</sheetData></worksheet>'.encode()


def strings_xml(strings: list[str], head: str = XML_HEAD) -> bytes:
    items = "".join(f"<si><t>{text}</t></si>" for text in strings)
    return f'{head}<sst xmlns="{MAIN}" count="{len(strings)}" uniqueCount="{len(strings)}">{items}</sst>'.encode()


def inline_row(number: int, *values: str, first_column: int = 1) -> str:
    cells = "".join(f'<c r="{column_letter(first_column + index)}{number}" t="inlineStr"><is><t>{value}</t></is></c>'
                    for index, value in enumerate(values))
    return f'<row r="{number}">{cells}</row>'


def column_letter(index: int) -> str:
    letters = ""
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def package_parts(with_strings: bool) -> dict[str, bytes]:
    """Every part of a minimal workbook but its sheet (and shared strings)."""
    strings_type = (f'<Override PartName="/{STRINGS_PATH}" ContentType="application/vnd.openxmlformats-officedocument.'
                    'spreadsheetml.sharedStrings+xml"/>') if with_strings else ""
    strings_rel = (f'<Relationship Id="rId2" Type="{RELS}/sharedStrings" Target="sharedStrings.xml"/>') if with_strings else ""
    return {
        "[Content_Types].xml": (f'{XML_HEAD}<Types xmlns="{TYPES}"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
                                'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" '
                                'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override '
                                f'PartName="/{SHEET_PATH}" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.'
                                f'worksheet+xml"/>{strings_type}</Types>').encode(),
        "_rels/.rels": (f'{XML_HEAD}<Relationships xmlns="{PACKAGE_RELS}"><Relationship Id="rId1" Type="{RELS}/officeDocument" '
                        'Target="xl/workbook.xml"/></Relationships>').encode(),
        "xl/workbook.xml": (f'{XML_HEAD}<workbook xmlns="{MAIN}" xmlns:r="{RELS}"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/>'
                            '</sheets></workbook>').encode(),
        "xl/_rels/workbook.xml.rels": (f'{XML_HEAD}<Relationships xmlns="{PACKAGE_RELS}"><Relationship Id="rId1" Type="{RELS}/worksheet" '
                                       f'Target="worksheets/sheet1.xml"/>{strings_rel}</Relationships>').encode(),
    }


def workbook(sheet: bytes, strings: bytes | None = None, extra: dict[str, bytes] | None = None) -> bytes:
    """A workbook that Excel and openpyxl open, with `sheet` as its only sheet."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in package_parts(strings is not None).items():
            archive.writestr(name, data)
        archive.writestr(SHEET_PATH, sheet)
        if strings is not None:
            archive.writestr(STRINGS_PATH, strings)
        for name, data in (extra or {}).items():
            archive.writestr(name, data)
    return buffer.getvalue()


def raw_zip(members: list[tuple[str, bytes, int, int, int]], flags: int = 0) -> bytes:
    """A zip written byte by byte: (name, stored bytes, method, CRC-32, declared size) per member,
    so a test can declare any size and store any deflate stream."""
    body, directory = io.BytesIO(), io.BytesIO()
    for name, data, method, crc, size in members:
        encoded = name.encode()
        offset = body.tell()
        body.write(struct.pack("<4s5H3L2H", b"PK\x03\x04", 20, flags, method, 0, 0x21, crc, len(data), size, len(encoded), 0))
        body.write(encoded + data)
        directory.write(struct.pack("<4s6H3L5H2L", b"PK\x01\x02", 20, 20, flags, method, 0, 0x21, crc, len(data), size,
                                    len(encoded), 0, 0, 0, 0, 0, offset))
        directory.write(encoded)
    listing = directory.getvalue()
    end = struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, len(members), len(members), len(listing), body.tell(), 0)
    return body.getvalue() + listing + end


def deflated_repeats(head: bytes, block: bytes, times: int) -> tuple[bytes, int]:
    """`head` then `block` repeated `times`, as one raw deflate stream built from one compressed
    block (a full flush resets the compressor, so each copy compresses alike): (stream, CRC-32)."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    start = compressor.compress(head) + compressor.flush(zlib.Z_FULL_FLUSH)
    piece = compressor.compress(block) + compressor.flush(zlib.Z_FULL_FLUSH)
    crc = zlib.crc32(head)
    for _ in range(times):
        crc = zlib.crc32(block, crc)
    return start + piece * times + b"\x03\x00", crc


def zip_bomb(target: str = SHEET_PATH, gigabytes: float = 1.0) -> bytes:
    """A workbook of about 1 MB whose `target` part unpacks to about `gigabytes` GB of XML: its
    head, then spaces (no tail: a reader must stop long before the end)."""
    parts = package_parts(with_strings=target == STRINGS_PATH)
    if target == STRINGS_PATH:
        parts[SHEET_PATH] = sheet_xml(inline_row(1, "question") + '<row r="2"><c r="A2" t="s"><v>0</v></c></row>')
        head = strings_xml([]).split(b"</sst>")[0]
    else:
        head = sheet_xml("").split(b"</sheetData>")[0]
    block, times = b" " * (1 << 20), int(gigabytes * 1024)
    stream, crc = deflated_repeats(head, block, times)
    members = [(name, data, 0, zlib.crc32(data), len(data)) for name, data in parts.items()]
    members.append((target, stream, 8, crc, len(head) + times * len(block)))
    return raw_zip(members)


def far_cell(dimension: str | None = "A1:XFD1048576", row: int = 1_048_576) -> bytes:
    """The issue's 1.5 KB workbook: a header, one cell at A1048576, a declared A1:XFD1048576."""
    return workbook(sheet_xml(inline_row(1, "question") + inline_row(row, "far away"), dimension))


def blank_rows(count: int = 250_000) -> bytes:
    """A header, then `count` rows with nothing in them (about 5 MB of XML unpacked)."""
    rows = "".join(f'<row r="{number}"/>' for number in range(2, count + 2))
    return workbook(sheet_xml(inline_row(1, "question") + rows + inline_row(count + 2, "last")))


def blank_cells(count: int = 200_000) -> bytes:
    """A header, then rows whose cells are there but empty."""
    rows = "".join(f'<row r="{number}"><c r="A{number}"/><c r="B{number}" t="inlineStr"><is><t> </t></is></c></row>' for number in range(2, count + 2))
    return workbook(sheet_xml(inline_row(1, "question") + rows))


def wide_row(columns: int = 16_384) -> bytes:
    cells = "".join(f'<c r="{column_letter(index)}2"><v>{index}</v></c>' for index in range(1, columns + 1))
    return workbook(sheet_xml(inline_row(1, "question") + f'<row r="2">{cells}</row>'))


def empty_cells_in_a_row(count: int = 80_000) -> bytes:
    """One row of 80,000 empty cell elements (under 1 MB: no ratio check), all at column B (no reference moves on)."""
    return workbook(sheet_xml(inline_row(1, "question") + '<row r="2">' + '<c r="B2"/>' * count + "</row>"))


def huge_shared_string(characters: int = 2_000_000) -> bytes:
    """One shared string of random letters (it does not compress, so only its length refuses it)."""
    return workbook(sheet_xml(inline_row(1, "question") + '<row r="2"><c r="A2" t="s"><v>0</v></c></row>'),
                    strings_xml([secrets.token_hex(characters // 2)]))


def many_shared_strings(count: int = 1_000_000) -> bytes:
    return workbook(sheet_xml(inline_row(1, "question") + '<row r="2"><c r="A2" t="s"><v>5</v></c></row>'),
                    strings_xml([f"s{index}" for index in range(count)]))


def missing_shared_string() -> bytes:
    return workbook(sheet_xml(inline_row(1, "question") + '<row r="2"><c r="A2" t="s"><v>7</v></c></row>'), strings_xml(["only one"]))


def entity_expansion() -> bytes:
    """A billion laughs in the shared strings."""
    entities = '<!ENTITY a "aaaaaaaaaa">' + "".join(f'<!ENTITY {chr(98 + n)} "{("&" + chr(97 + n) + ";") * 10}">' for n in range(9))
    head = f'<?xml version="1.0"?><!DOCTYPE sst [{entities}]>'
    strings = f'{head}<sst xmlns="{MAIN}"><si><t>&j;</t></si></sst>'.encode()
    return workbook(sheet_xml(inline_row(1, "question") + '<row r="2"><c r="A2" t="s"><v>0</v></c></row>'), strings)


def deep_xml(depth: int = 100_000) -> bytes:
    """A cell nested in 100,000 elements."""
    return workbook(sheet_xml(inline_row(1, "question") + '<row r="2"><c r="A2" t="inlineStr"><is>' + "<r>" * depth + "<t>x</t>"
                              + "</r>" * depth + "</is></c></row>"))


def lying_sizes() -> bytes:
    """The sheet declares 200 bytes but inflates to 50 MB."""
    parts = package_parts(with_strings=False)
    members = [(name, data, 0, zlib.crc32(data), len(data)) for name, data in parts.items()]
    head = sheet_xml(inline_row(1, "question")).split(b"</sheetData>")[0]
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    stream = compressor.compress(head + b" " * 50_000_000 + b"</sheetData></worksheet>") + compressor.flush()
    members.append((SHEET_PATH, stream, 8, 0, 200))
    return raw_zip(members)


def many_members(count: int = 60_000) -> bytes:
    parts = package_parts(with_strings=False)
    parts[SHEET_PATH] = sheet_xml(inline_row(1, "question") + inline_row(2, "hi"))
    members = [(name, data, 0, zlib.crc32(data), len(data)) for name, data in parts.items()]
    members += [(f"m/{index}", b"", 0, 0, 0) for index in range(count)]
    return raw_zip(members)


def encrypted() -> bytes:
    parts = package_parts(with_strings=False)
    parts[SHEET_PATH] = sheet_xml(inline_row(1, "question") + inline_row(2, "hi"))
    return raw_zip([(name, data, 0, zlib.crc32(data), len(data)) for name, data in parts.items()], flags=1)


def header_only() -> bytes:
    return workbook(sheet_xml(inline_row(1, "question", "expected")))


def far_row_number() -> bytes:
    return workbook(sheet_xml(inline_row(1, "question") + '<row r="99999999999"><c r="A99999999999" t="inlineStr"><is><t>x</t></is></c></row>'))


def not_xml() -> bytes:
    return workbook(b"<worksheet><sheetData><row r='1'><c r='A1' t='inlineStr'><is><t>q</t></is></c></row><row")


def many_empty_cells(rows: int = 1_500) -> bytes:
    """Rows of 200 empty (styled) cells each: under every other limit, but too many cells read."""
    cells = "".join(f'<c r="{column_letter(column)}{{row}}" s="1"/>' for column in range(1, 201))
    return workbook(sheet_xml(inline_row(1, "question") + "".join(f'<row r="{row}">' + cells.format(row=row) + "</row>" for row in range(2, rows))))


def wide_declared_columns() -> bytes:
    return workbook(sheet_xml(inline_row(1, "question") + inline_row(2, "hi"), "A1:XFD3"))


CORPUS: dict[str, tuple[Callable[[], bytes], str]] = {
    "far cell under A1:XFD1048576": (far_cell, "the sheet declares 1,048,576 rows"),
    "far cell, no dimension": (lambda: far_cell(None), "blank rows"),
    "far cell, a small dimension that lies": (lambda: far_cell("A1:A2"), "blank rows"),
    "a 1 GB sheet in 1 MB": (zip_bomb, "unpacks to"),
    "a 1 GB shared strings table in 1 MB": (lambda: zip_bomb(STRINGS_PATH), "unpacks to"),
    "250,000 blank rows": (blank_rows, "blank rows"),
    "200,000 rows of empty cells": (blank_cells, "blank rows"),
    "a row 16,384 cells wide": (wide_row, "cells, but the header has 1"),
    "80,000 empty cells in one row": (empty_cells_in_a_row, "cells in one row"),
    "a 2-million-character shared string": (huge_shared_string, "characters"),
    "a million shared strings": (many_shared_strings, "shared strings"),
    "a cell pointing past the shared strings": (missing_shared_string, "shared string"),
    "a billion laughs": (entity_expansion, "DTD"),
    "100,000 nested elements": (deep_xml, "nested"),
    "sizes that lie": (lying_sizes, "not a readable XLSX workbook"),
    "60,000 members": (many_members, "parts"),
    "an encrypted member": (encrypted, "encrypted"),
    "a header but no rows": (header_only, "a header but no rows"),
    "row 99,999,999,999": (far_row_number, "blank rows"),
    "not XML": (not_xml, "not a readable XLSX workbook"),
    "1,500 rows of 200 empty cells": (many_empty_cells, "cells read"),
    "a declared width of 16,384 columns": (wide_declared_columns, "16,384 columns"),
}
"""Name -> (builder, words its refusal holds)."""
