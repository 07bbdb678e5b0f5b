"""Fuzzing the data-set readers (issue 35): random bytes as CSV, JSONL and XLSX; JSONL lines with
random JSON in every position (NaN, Infinity, lone surrogates, deep nesting among them); CSV of
random text; random worksheets written cell by cell (any type, reference, row number, value);
random workbooks written by openpyxl; and valid workbooks with random bytes changed or cut. No
exception but `DatasetError` escapes, each refusal can be sent to the page, each reading ends
within its budget, and whatever loads is within the limits and can be sent as it is.

Counts keep each target to a few seconds of CPU on the shared machine; `SECURITY_FUZZ_EXAMPLES`
raises them (500 per target was run out of the suite)."""

from __future__ import annotations

import csv
import io
import json
import os
import random
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl import Workbook

from playground.client.batch.dataset import MAX_COLUMNS, MAX_VALUE_CHARS, Dataset, DatasetError, read_file, read_paste
from tests.security.hostile_files import MAIN, XML_HEAD, column_letter, workbook
from tests.security.test_loader_fuzz import json_values

EXAMPLES = int(os.environ.get("SECURITY_FUZZ_EXAMPLES", "150"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck), database=None)
MAX_ROWS = 20
SECONDS = 5.0
NAMES = ["q", "expected", "a", "b", "{x}", "", " ", "\ud800", "a\x00", "NaN"]


def _check(read: Any) -> None:
    """Run one reading: it refuses with a sendable `DatasetError` or loads a data set within the limits."""
    started = time.monotonic()
    try:
        dataset = read()
    except DatasetError as error:
        orjson.dumps(str(error))
        assert str(error)
        return
    finally:
        assert time.monotonic() - started < SECONDS
    assert isinstance(dataset, Dataset) and 1 <= len(dataset.columns) <= MAX_COLUMNS and 1 <= len(dataset.rows) <= MAX_ROWS
    orjson.dumps({"columns": dataset.columns, "rows": dataset.rows})
    for row in dataset.rows:
        assert list(row) == dataset.columns
        assert all(isinstance(value, str) and "\x00" not in value and len(value) <= MAX_VALUE_CHARS for value in row.values())


def _read(data: bytes, suffix: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"data{suffix}"
        path.write_bytes(data)
        _check(lambda: read_file(path, MAX_ROWS))


@FUZZ
@given(st.binary(max_size=2_000), st.sampled_from([".csv", ".jsonl", ".xlsx"]))
def test_random_bytes_only_ever_refuse(data: bytes, suffix: str) -> None:
    _read(data, suffix)


@FUZZ
@given(st.lists(json_values(NAMES) | st.dictionaries(st.sampled_from(NAMES), json_values(NAMES), max_size=4), min_size=1, max_size=5),
       st.sampled_from(["", "\n", "\n\n", "\r\n"]), st.integers(0, 80))
def test_jsonl_with_random_json_in_every_position(items: list[Any], gap: str, depth: int) -> None:
    lines = [json.dumps(item, allow_nan=True) for item in items]
    lines.insert(len(lines) // 2, '{"q": ' + "[" * depth + "]" * depth + "}")
    _read((gap + "\n").join(lines).encode("utf-8", "surrogatepass"), ".jsonl")
    _check(lambda: read_paste((gap + "\n").join(lines), ["q"], MAX_ROWS))


NO_SURROGATES = st.characters(exclude_categories=["Cs"])
NO_CONTROLS = st.characters(exclude_categories=["Cs", "Cc"])
CELL_TEXT = st.text(alphabet=NO_SURROGATES, max_size=12) | st.sampled_from(["\x00", '"', ",", "\n", "a\"b", "\ufeff"])


@FUZZ
@given(st.lists(st.lists(CELL_TEXT, max_size=5), max_size=8), st.booleans())
def test_csv_of_random_text(rows: list[list[str]], surrogate: bool) -> None:
    buffer = io.StringIO()
    csv.writer(buffer).writerows(rows)
    text = buffer.getvalue() + ("\ud800" if surrogate else "")
    _read(text.encode("utf-8", "surrogatepass"), ".csv")
    _check(lambda: read_paste(text, ["a", "b"], MAX_ROWS))


CELL_TYPES = ["n", "s", "str", "b", "e", "d", "inlineStr", "x", ""]
REFERENCES = st.one_of(st.builds(lambda col, row: f"{column_letter(col)}{row}", st.integers(1, 16_500), st.integers(1, 2_000_000)),
                       st.sampled_from(["", "A", "1", "ZZZZ1", "A0", "A99999999999999", "-1", "A1:B2", "é1", "A²", "A١"]))
VALUES = st.one_of(st.integers(-10**20, 10**20).map(str), st.floats(allow_nan=True, allow_infinity=True).map(repr),
                   st.sampled_from(["", "NaN", "inf", "1e999", "0", "1", "99999", "-1", "abc", " 3 ", "2024-05-01T10:00:00", "#N/A", "²", "١٢", "1_0"]),
                   st.text(alphabet=NO_CONTROLS, max_size=10))


def _cell(kind: str, reference: str, value: str, style: str, inline: bool) -> str:
    attributes = (f' r="{reference}"' if reference else "") + (f' t="{kind}"' if kind else "") + (f' s="{style}"' if style != "0" else "")
    escaped = value.replace("&", "&amp;").replace("<", "&lt;")
    body = f"<is><t>{escaped}</t></is>" if inline else f"<v>{escaped}</v>"
    return f"<c{attributes}>{body}</c>"


@st.composite
def worksheets(draw: st.DrawFn) -> bytes:
    header = "".join(_cell("inlineStr", f"{column_letter(i)}1", name, "0", True) for i, name in enumerate(draw(st.lists(st.sampled_from(NAMES), max_size=4)), 1))
    rows = [f'<row r="1">{header}</row>'] if draw(st.booleans()) or not header else []
    for _ in range(draw(st.integers(0, 6))):
        number = draw(st.one_of(st.integers(1, 30).map(str), st.sampled_from(["", "0", "x", "1048577", "99999999999", "²", "١"])))
        cells = "".join(_cell(draw(st.sampled_from(CELL_TYPES)), draw(REFERENCES), draw(VALUES), draw(st.sampled_from(["0", "1", "2", "3", "²", "x"])), draw(st.booleans()))
                        for _ in range(draw(st.integers(0, 4))))
        rows.append(f'<row r="{number}">{cells}</row>' if number else f"<row>{cells}</row>")
    dimension = draw(st.sampled_from(["", '<dimension ref="A1"/>', '<dimension ref="A1:XFD1048576"/>', '<dimension ref="B2:C5"/>', '<dimension ref="zz"/>']))
    strings = draw(st.lists(CELL_TEXT.map(lambda text: text.replace("&", "&amp;").replace("<", "&lt;").replace("\x00", "")), max_size=4))
    sheet = f'{XML_HEAD}<worksheet xmlns="{MAIN}">{dimension}<sheetData>{"".join(rows)}</sheetData></worksheet>'
    shared = f'{XML_HEAD}<sst xmlns="{MAIN}">' + "".join(f"<si><t>{text}</t></si>" for text in strings) + "</sst>"
    styles = (f'{XML_HEAD}<styleSheet xmlns="{MAIN}"><numFmts><numFmt numFmtId="164" formatCode="yyyy-mm-dd"/></numFmts>'
              '<cellXfs><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="164"/><xf numFmtId="20"/></cellXfs></styleSheet>')
    return workbook(sheet.encode("utf-8", "surrogatepass"), shared.encode("utf-8", "surrogatepass") if draw(st.booleans()) else None,
                    {"xl/styles.xml": styles.encode()})


@FUZZ
@given(worksheets())
def test_random_worksheets_only_ever_refuse(data: bytes) -> None:
    _read(data, ".xlsx")


OPENPYXL_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-10**15, 10**15), st.floats(allow_nan=False, allow_infinity=False),
                            st.text(alphabet=NO_CONTROLS, max_size=20),
                            st.datetimes(), st.dates(), st.times())


@settings(max_examples=max(20, EXAMPLES // 3), deadline=None, derandomize=True, suppress_health_check=list(HealthCheck), database=None)
@given(st.lists(st.lists(OPENPYXL_VALUES, max_size=5), min_size=1, max_size=6))
def test_random_workbooks_written_by_openpyxl_load_or_refuse(rows: list[list[Any]]) -> None:
    book = Workbook()
    for row in rows:
        book.active.append(row)
    buffer = io.BytesIO()
    book.save(buffer)
    _read(buffer.getvalue(), ".xlsx")


_VALID = workbook(f'{XML_HEAD}<worksheet xmlns="{MAIN}"><dimension ref="A1:B3"/><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c>'
                  f'<c r="B1" t="inlineStr"><is><t>b</t></is></c></row><row r="2"><c r="A2" t="s"><v>1</v></c><c r="B2"><v>2.5</v></c></row>'
                  f'</sheetData></worksheet>'.encode(), f'{XML_HEAD}<sst xmlns="{MAIN}"><si><t>a</t></si><si><t>x</t></si></sst>'.encode())


@FUZZ
@given(st.lists(st.tuples(st.integers(0, len(_VALID) - 1), st.integers(0, 255)), min_size=1, max_size=6), st.integers(0, len(_VALID)))
def test_a_valid_workbook_with_bytes_changed_or_cut_only_ever_refuses(changes: list[tuple[int, int]], cut: int) -> None:
    data = bytearray(_VALID)
    for at, byte in changes:
        data[at] = byte
    _read(bytes(data[:cut] if cut < len(data) // 2 else data), ".xlsx")


def test_the_valid_workbook_loads() -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "ok.xlsx"
        path.write_bytes(_VALID)
        assert read_file(path, MAX_ROWS).rows == [{"a": "x", "b": "2.5"}]


def test_a_random_mix_of_hostile_lines_in_one_jsonl_file() -> None:
    rng = random.Random(35)
    pieces = ['{"q": NaN}', '{"q": "\\ud800"}', '{"q": ' + "[" * 5_000 + "]" * 5_000 + "}", '{"q": 1e400}', '{"q": "\\u0000"}',
              "[1]", "{", '{"q": "ok"}', "", " ", '{"q": 1, "r": 2}', '{"' + "k" * 70 + '": 1}']
    for _ in range(200):
        lines = [rng.choice(pieces) for _ in range(rng.randint(1, 6))]
        _read("\n".join(lines).encode(), ".jsonl")
