"""Templates (names, escapes, missing and unused variables) and every data set format with its errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from openpyxl import Workbook

from playground.client.batch.dataset import DatasetError, read_file, read_paste
from playground.client.batch.template import TemplateError, check_variables, fill, parse, variables_of


def test_placeholders_names_in_order_with_spaces_and_escapes() -> None:
    template = parse("Hi {{ name }}, about {{product name}}: {{name}} \\{{literal}} and }} alone")
    assert template.names == ["name", "product name"]
    assert template.render({"name": "Ada", "product name": "lamp"}) == "Hi Ada, about lamp: Ada {{literal}} and }} alone"


def test_a_bare_double_brace_is_refused_with_its_line_and_position() -> None:
    with pytest.raises(TemplateError, match=r"line 2: “\{\{” at character 6 does not start a placeholder"):
        parse("first\nopen {{ here", "the user prompt")
    with pytest.raises(TemplateError, match="needs a name"):
        parse("empty {{ }}")


def test_missing_variable_names_it_and_unused_columns_are_named() -> None:
    with pytest.raises(TemplateError, match=r"no value for the variable \{\{city\}\}"):
        fill("Weather in {{city}}", {"town": "Paris"})
    assert check_variables(["city", "day"], ["city", "extra", "expected"]) == ["no value for {{day}}", "not used by the prompt: extra"]
    assert variables_of(["{{a}} {{b}}", "{{b}} {{c}}"]) == ["a", "b", "c"]


def test_csv_with_expected_column_bom_quotes_and_blank_lines(tmp_path: Path) -> None:
    path = tmp_path / "d.csv"
    path.write_bytes('\ufeffquestion,expected\n"Hello, world",1\n\n"multi\nline",2\n'.encode())
    dataset = read_file(path, 100)
    assert dataset.columns == ["question", "expected"]
    assert dataset.rows == [{"question": "Hello, world", "expected": "1"}, {"question": "multi\nline", "expected": "2"}]


@pytest.mark.parametrize(("text", "message"), [
    ("a,b\n1,2\n3\n", "line 3: 1 fields, but the header has 2"),
    ("a,a\n1,2\n", "line 1: the column 'a' appears twice"),
    (",b\n1,2\n", "line 1: column 1 has no name"),
    ("a\n", "the file has a header but no rows"),
    ("a,{b}\n1,2\n", "cannot be a variable"),
])
def test_csv_errors_name_the_line_and_reason(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DatasetError, match=message):
        read_file(path, 100)


def test_csv_not_utf8_and_too_many_rows(tmp_path: Path) -> None:
    path = tmp_path / "latin.csv"
    path.write_bytes(b"a\nok\ncaf\xe9\n")
    with pytest.raises(DatasetError, match="line 3: not UTF-8"):
        read_file(path, 100)
    many = tmp_path / "many.csv"
    many.write_text("a\n" + "x\n" * 11, encoding="utf-8")
    with pytest.raises(DatasetError, match="line 12: more than 10 rows"):
        read_file(many, 10)


def test_jsonl_values_become_text_and_errors_name_the_line(tmp_path: Path) -> None:
    path = tmp_path / "d.jsonl"
    path.write_text('{"q": "hi", "n": 2, "ok": true, "x": null, "obj": {"a": 1}}\n\n{"q": "yo", "n": 3.5, "ok": false, "x": "", "obj": []}\n')
    dataset = read_file(path, 10)
    assert dataset.rows[0] == {"q": "hi", "n": "2", "ok": "true", "x": "", "obj": '{"a": 1}'}
    for text, message in (('{"q": 1}\n[1]\n', "line 2: each line must be a JSON object"), ('{"q": 1}\n{"q": \n', "line 2: not valid JSON"),
                          ('{"q": 1}\n{"r": 2}\n', "line 2: the keys differ from the first line; missing q; extra r")):
        path.write_text(text)
        with pytest.raises(DatasetError, match=message):
            read_file(path, 10)


def test_xlsx_reads_the_first_sheet_and_refuses_bad_rows(tmp_path: Path) -> None:
    book = Workbook()
    sheet = book.active
    sheet.append(["question", "expected"])
    sheet.append(["What is 2+2?", 4])
    sheet.append([None, None])
    sheet.append(["Capital of France?", "Paris"])
    path = tmp_path / "d.xlsx"
    book.save(path)
    dataset = read_file(path, 10)
    assert dataset.rows == [{"question": "What is 2+2?", "expected": "4"}, {"question": "Capital of France?", "expected": "Paris"}]
    sheet.append(["a", "b", "c"])
    book.save(path)
    with pytest.raises(DatasetError, match="row 5: 3 cells, but the header has 2"):
        read_file(path, 10)
    broken = tmp_path / "broken.xlsx"
    broken.write_bytes(b"PK\x03\x04 not really a workbook")
    with pytest.raises(DatasetError, match="not a readable XLSX workbook"):
        read_file(broken, 10)


def test_pasted_rows_one_per_line_for_one_variable_csv_or_jsonl_otherwise(tmp_path: Path) -> None:
    assert read_paste("first\n\n second \n", ["q"], 10).rows == [{"q": "first"}, {"q": "second"}]
    assert read_paste("a,b\n1,2\n", ["a", "b"], 10).rows == [{"a": "1", "b": "2"}]
    assert read_paste('{"a": "x"}\n', ["a"], 10).rows == [{"a": "x"}]
    with pytest.raises(DatasetError, match="paste some rows"):
        read_paste("  ", ["q"], 10)
    with pytest.raises(DatasetError, match="upload a .csv, .jsonl or .xlsx"):
        read_file(tmp_path / "d.txt", 10)
    assert json.loads(json.dumps(read_paste("x\ny\n", ["q"], 10).rows))


def test_a_pasted_csv_with_the_prompts_one_variable_in_its_header_keeps_its_other_columns() -> None:
    pasted = read_paste("country,expected\nFrance,Paris\nJapan,Tokyo\n", ["country"], 10)
    assert pasted.columns == ["country", "expected"] and pasted.rows == [{"country": "France", "expected": "Paris"},
                                                                        {"country": "Japan", "expected": "Tokyo"}]
    assert read_paste("country\nFrance\nJapan\n", ["country"], 10).rows == [{"country": "France"}, {"country": "Japan"}]
    assert read_paste("What is 2, 3?\nWhy, q?\n", ["q"], 10).rows == [{"q": "What is 2, 3?"}, {"q": "Why, q?"}]  # a value, not a header
