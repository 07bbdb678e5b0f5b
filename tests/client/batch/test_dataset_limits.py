"""Every data-set reader bounded before it parses and as it goes (issue 35): the file's size, blank
rows counted towards a budget, a JSONL value's nesting checked before `json` recurses, NaN and
Infinity refused rather than read as text, NUL and lone surrogates refused with their line, a
header-only workbook refused like CSV and JSONL, a workbook read without padding (dates as ISO
text, booleans, cached formula results, shared and rich text), a time budget checked as it goes."""

from __future__ import annotations

import re
import time
from dataclasses import replace
from datetime import date, datetime
from pathlib import Path

import pytest
from openpyxl import Workbook

from playground.client.batch.dataset import LIMITS, MAX_LINE_CHARS, DatasetError, read_file, read_paste
from playground.client.json_depth import deeper_than, nesting
from tests.security.hostile_files import MAIN, XML_HEAD, inline_row, sheet_xml, strings_xml, workbook


def _file(folder: Path, name: str, data: bytes | str) -> Path:
    path = folder / name
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return path


def test_a_file_larger_than_the_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    small = replace(LIMITS, file_bytes=1_000)
    for name in ("big.csv", "big.jsonl", "big.xlsx"):
        with pytest.raises(DatasetError, match="^the file has 2,002 bytes; a data set file has at most 1,000 bytes$"):
            read_file(_file(tmp_path, name, b"q\n" + b"x\n" * 1_000), 10, small)
    with pytest.raises(DatasetError, match="the pasted text has 2,001 characters; at most 1,000"):
        read_paste("q\n" + "x\n" * 1_000, ["q"], 10, small)


@pytest.mark.parametrize(("name", "data", "where"), [
    ("blank.csv", "q\n" + "\n" * 1_200 + "x\n", "line 1002"),
    ("blank.csv", "q,r\n" + ",\n" * 1_200 + "x,y\n", "line 1002"),
    ("blank.jsonl", '{"q": 1}\n' + " \n" * 1_200, "line 1002"),
])
def test_blank_lines_count_towards_a_budget_that_names_its_setting(tmp_path: Path, name: str, data: str, where: str) -> None:
    with pytest.raises(DatasetError, match=rf"{where}: more than 1,000 blank rows .*PLAYGROUND_BATCH_MAX_ROWS"):
        read_file(_file(tmp_path, name, data), 10)
    assert len(read_file(_file(tmp_path, "ok.csv", "q\n" + "\n" * 900 + "x\n"), 10).rows) == 1
    assert len(read_file(_file(tmp_path, "many.csv", "q\n" + "\n" * 3_000 + "x\n"), 5_000).rows) == 1, "as many blank rows as a run's rows"


def test_a_jsonl_line_nested_100000_deep_is_refused_in_words_before_json_recurses(tmp_path: Path) -> None:
    deep = '{"q": ' + "[" * 100_000 + "]" * 100_000 + "}"
    started = time.monotonic()
    with pytest.raises(DatasetError, match=r"^line 2: the JSON is nested more than 32 levels deep \(the limit for a data set\)$"):
        read_file(_file(tmp_path, "deep.jsonl", '{"q": 1}\n' + deep + "\n"), 10)
    with pytest.raises(DatasetError, match="nested more than 32 levels"):
        read_file(_file(tmp_path, "open.jsonl", '{"q": ' + "[" * 100_000 + "\n"), 10)
    assert time.monotonic() - started < 5
    kept = read_file(_file(tmp_path, "ok.jsonl", '{"q": ' + "[" * 31 + "]" * 31 + ', "r": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}\n'), 10)
    assert kept.rows[0]["q"] == "[" * 31 + "]" * 31, "32 levels (the object and 31 lists) are allowed; brackets in a string do not count"


def test_nesting_is_measured_on_the_text_in_linear_time() -> None:
    assert nesting('{"a": "[[[[", "b": [1, {"c": []}]}') == 4
    assert nesting('[1, "unclosed [[[[') == 1 and nesting('"a\\"[[[') == 0 and nesting("[" * 100_000) == 100_000
    assert not deeper_than('[[["' + "[" * 1_000 + '"]]]', 3) and deeper_than("[[[[", 3)
    started = time.monotonic()
    for hostile in ('a\\"' * 2_000_000, '[],' * 2_000_000, '"' + '\\"[' * 2_000_000):
        nesting(hostile)
    assert time.monotonic() - started < 5, "no quadratic backtracking on escapes or open strings"


@pytest.mark.parametrize(("line", "words"), [
    ('{"q": NaN}', "NaN is not a number a data set can hold (NaN and Infinity are refused, not read as text)"),
    ('{"q": Infinity}', "Infinity is not a number"),
    ('{"q": [1, -Infinity]}', "-Infinity is not a number"),
    ('{"q": 1e999}', "1e999 is too large for a number (it would be Infinity)"),
    ('{"q": "a\\udc80b"}', "the value of 'q' holds a broken character (a lone surrogate, not valid UTF-8)"),
    ('{"q": {"deep": "\\ud800"}}', "the value of 'q' holds a broken character"),
    ('{"q": "a\\u0000b"}', "the value of 'q' holds a NUL character (code 0)"),
])
def test_values_that_cannot_be_sent_are_refused_with_their_line(tmp_path: Path, line: str, words: str) -> None:
    with pytest.raises(DatasetError, match="^line 2: " + re.escape(words)):
        read_file(_file(tmp_path, "d.jsonl", '{"q": "fine"}\n' + line + "\n"), 10)
    with pytest.raises(DatasetError, match="^line 1: the name of column 1 holds a broken character"):
        read_file(_file(tmp_path, "key.jsonl", '{"q\\udc80": 1}\n'), 10)


def test_a_key_that_cannot_be_shown_is_named_by_its_escape(tmp_path: Path) -> None:
    with pytest.raises(DatasetError) as refused:
        read_file(_file(tmp_path, "d.jsonl", '{"q": 1}\n{"q\\udc80": 2}\n'), 10)
    assert str(refused.value) == "line 2: the keys differ from the first line; missing q; extra q\\udc80"
    str(refused.value).encode("utf-8")


def test_nul_bytes_in_csv_and_pasted_rows_are_refused_with_their_line(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match=r"^line 3: the value of 'q' holds a NUL character \(code 0\), which cannot be sent; remove it$"):
        read_file(_file(tmp_path, "d.csv", b"q\nfine\nbad\x00byte\n"), 10)
    with pytest.raises(DatasetError, match="^line 2: the value of 'q' holds a broken character"):
        read_paste("fine\nbad \udc80\n", ["q"], 10)
    with pytest.raises(DatasetError, match="^line 1: the name of column 2 holds a NUL"):
        read_file(_file(tmp_path, "h.csv", b"q,r\x00\n1,2\n"), 10)


def test_a_jsonl_line_longer_than_64_values_is_refused_before_parsing(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match=f"line 1: the line has {MAX_LINE_CHARS + 11:,} characters; at most {MAX_LINE_CHARS:,}"):
        read_file(_file(tmp_path, "long.jsonl", '{"q": "' + "x" * MAX_LINE_CHARS + '"}' + " " * 2), 10)


def test_jsonl_lines_split_at_line_feeds_only(tmp_path: Path) -> None:
    rows = read_file(_file(tmp_path, "d.jsonl", '{"q": "a\u2028b\u0085c"}\r\n{"q": "d"}\n'), 10).rows
    assert rows == [{"q": "a\u2028b\u0085c"}, {"q": "d"}]


def test_a_header_only_workbook_is_refused_like_csv_and_jsonl(tmp_path: Path) -> None:
    book = Workbook()
    book.active.append(["question", "expected"])
    book.save(tmp_path / "header.xlsx")
    for path in (tmp_path / "header.xlsx", _file(tmp_path, "header.csv", "question,expected\n")):
        with pytest.raises(DatasetError, match="^the file has a header but no rows$"):
            read_file(path, 10)
    with pytest.raises(DatasetError, match="^the pasted text has a header but no rows$"):
        read_paste("question,expected\n", ["question", "expected"], 10)
    with pytest.raises(DatasetError, match="^the file has no rows$"):
        read_file(_file(tmp_path, "empty.jsonl", "\n\n"), 10)
    with pytest.raises(DatasetError, match="^row 1: the first line must name the columns"):
        read_file(_file(tmp_path, "late.xlsx", workbook(sheet_xml(inline_row(3, "question") + inline_row(4, "hi")))), 10)


def test_a_workbook_gives_values_as_openpyxl_data_only_would_dates_as_iso_text(tmp_path: Path) -> None:
    book = Workbook()
    sheet = book.active
    sheet.append(["question", "when", "at", "flag", "n", "formula"])
    sheet.append(["What day?", date(2024, 5, 17), datetime(2024, 5, 17, 9, 30), True, 2.5, "=1+1"])
    sheet.append(["Next", date(1900, 1, 1), None, False, 10 ** 12, None])
    book.save(tmp_path / "types.xlsx")
    rows = read_file(tmp_path / "types.xlsx", 10).rows
    assert rows[0] == {"question": "What day?", "when": "2024-05-17", "at": "2024-05-17 09:30:00", "flag": "true", "n": "2.5", "formula": ""}
    assert rows[1] == {"question": "Next", "when": "1900-01-01", "at": "", "flag": "false", "n": "1000000000000", "formula": ""}


def test_shared_rich_inline_and_cached_formula_text_and_refusals_that_name_the_cell(tmp_path: Path) -> None:
    rows = ('<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="inlineStr"><is><t>expected</t></is></c></row>'
            '<row r="2"><c r="A2" t="s"><v>1</v></c><c r="B2" t="str"><f>A2</f><v>cached</v></c></row>'
            '<row r="4"><c r="A4" t="inlineStr"><is><r><t>ri</t></r><r><t>ch</t></r><rPh><t>ruby</t></rPh></is></c><c r="B4" t="e"><v>#N/A</v></c></row>')
    strings = f'{XML_HEAD}<sst xmlns="{MAIN}"><si><t>question</t></si><si><r><t>two </t></r><r><t>runs</t></r></si></sst>'.encode()
    dataset = read_file(_file(tmp_path, "t.xlsx", workbook(sheet_xml(rows), strings)), 10)
    assert dataset.rows == [{"question": "two runs", "expected": "cached"}, {"question": "rich", "expected": "#N/A"}]
    for bad, words in ((inline_row(1, "q") + '<row r="2"><c r="A2"><v>NaN</v></c></row>', r"row 2: the cell A2 holds 'NaN', which is not a finite number"),
                       (inline_row(1, "q") + '<row r="2"><c r="C2"><v>1e999</v></c></row>', "row 2: the cell C2 holds '1e999'"),
                       (inline_row(1, "q") + '<row r="2"><c r="A2" t="s"><v>3</v></c></row>',
                        "row 2: the cell A2 refers to shared string 3, but the workbook has 0"),
                       (inline_row(1, "q") + '<row r="2"><c r="A2" t="inlineStr"><is><t>' + "x" * 100_001 + "</t></is></c></row>",
                        "row 2: the cell A2 has more than 100,000 characters")):
        with pytest.raises(DatasetError, match="^" + re.escape(words)):
            read_file(_file(tmp_path, "bad.xlsx", workbook(sheet_xml(bad), strings_xml([]))), 10)


def test_a_workbook_row_past_the_header_and_rows_past_the_limit_are_refused(tmp_path: Path) -> None:
    many = inline_row(1, "q") + "".join(inline_row(n, f"v{n}") for n in range(2, 14))
    with pytest.raises(DatasetError, match=r"^row 12: more than 10 rows \(the limit for a run\) \(setting PLAYGROUND_BATCH_MAX_ROWS\)$"):
        read_file(_file(tmp_path, "many.xlsx", workbook(sheet_xml(many))), 10)
    gap = inline_row(1, "q") + inline_row(2, "a") + inline_row(900, "b") + inline_row(2_000, "c")
    with pytest.raises(DatasetError, match="^row 2000: more than 1,000 blank rows"):
        read_file(_file(tmp_path, "gap.xlsx", workbook(sheet_xml(gap))), 10)
    assert len(read_file(_file(tmp_path, "gap.xlsx", workbook(sheet_xml(gap))), 2_000).rows) == 3


def test_the_time_budget_is_checked_as_the_reader_goes(tmp_path: Path) -> None:
    rows = inline_row(1, "question", "expected", "a", "b") + "".join(inline_row(n, f"question {n}", str(n), "x" * 20, "y" * 20) for n in range(2, 10_002))
    path = _file(tmp_path, "slow.xlsx", workbook(sheet_xml(rows)))
    started = time.monotonic()
    with pytest.raises(DatasetError, match=r"reading the file took more than 0\.2 s \(the time limit for reading a data set\)"):
        read_file(path, 10_000, replace(LIMITS, seconds=0.2))
    assert time.monotonic() - started < 2.5
    assert len(read_file(path, 10_000).rows) == 10_000
