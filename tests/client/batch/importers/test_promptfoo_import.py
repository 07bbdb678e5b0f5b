"""The promptfoo importer on the fixtures (providers to columns, tests to rows, assertions to
graders, what it cannot map named with where) and its refusals: files outside the upload,
code, Nunjucks, YAML bombs, too many rows."""

from __future__ import annotations

from pathlib import Path

import pytest

from playground.client.batch.importers import SuiteError, read_suite
from playground.client.batch.importers.providers import column_of
from playground.client.batch.plan import ColumnSettings
from tests.client.batch.importers.fixtures import FIXTURES, imported


def write(tmp_path: Path, text: str, name: str = "promptfooconfig.yaml", **others: str) -> list[str | Path]:
    (tmp_path / name).write_text(text, encoding="utf-8")
    for other, content in others.items():
        (tmp_path / other.replace("_", ".")).write_text(content, encoding="utf-8")
    return [tmp_path / name] + [tmp_path / other.replace("_", ".") for other in others]


def refusal(paths: list[str | Path], max_rows: int = 100) -> str:
    with pytest.raises(SuiteError) as raised:
        read_suite(paths, max_rows)
    return "; ".join(raised.value.problems)


def test_claude_vs_gpt_maps_the_id_and_config_form_and_default_assertions() -> None:
    suite = imported("promptfoo/claude-vs-gpt", prices="model,input,output\ngpt-4o,2.5,10\n")
    assert suite.columns == [("messages", "cl-3-5-sonnet-20241022"), ("chat", "gpt-4o")]  # claude-…: the gateway's neutral token
    assert suite.column_settings == [ColumnSettings(0.0, 1024, None), ColumnSettings()]
    assert [(g.kind, g.threshold) for g in suite.graders[:2]] == [("cost", 0.01), ("latency", 3000.0)]
    assert suite.graders[0].prices.startswith("model,input")
    assert [g.kind for g in suite.graders[2:]] == ["contains", "model", "regex"]
    assert len(suite.dataset.rows) == 15 and suite.dataset.rows[4]["__regex"] == "(?i)(?:fire|flame)"
    assert suite.dataset.rows[13]["__regex"] == "David" and suite.dataset.rows[12]["__contains"] == ""
    assert "defaultTest.assert[2]: a javascript assertion runs code: refused" in suite.unmapped
    assert "providers[0]: config cache_control not sent (a Batch column sends temperature and max tokens)" in suite.unmapped


def test_simple_test_reads_its_prompt_file_and_keeps_yes_as_text() -> None:
    suite = imported("promptfoo/simple-test")
    assert suite.user == "Rephrase this from English to Pirate: {{body}}"
    assert suite.dataset.rows[0]["body"] == "Yes"  # YAML 1.2, as promptfoo reads it: not True
    assert suite.dataset.rows[4]["__contains"] == "arrr"  # the $ref to assertionTemplates, resolved
    assert any("prompt 2" in text and "is not run" in text for text in suite.unmapped)
    assert "tests[3].assert[0]: a javascript assertion runs code: refused" in suite.unmapped
    assert "tests[3].assert[1]: a python assertion runs code: refused" in suite.unmapped
    assert suite.plan([("chat", "gpt-4.1")]).problems(100, 8) == ([], [])  # the __ columns are graders', not unused variables


def test_json_output_schema_per_row_and_transforms_refused() -> None:
    suite = imported("promptfoo/json-output")
    assert [g.kind for g in suite.graders] == ["json", "schema"]
    assert '"required": ["color", "countries"]' in suite.dataset.rows[1]["__schema"] and suite.dataset.rows[0]["__schema"] == ""
    assert "tests[1].assert[2]: the contains-any assertion transforms the output with JavaScript: refused" in suite.unmapped
    assert "tests[1]: options not imported" in suite.unmapped


def test_a_file_reference_that_was_not_uploaded_is_named() -> None:
    problem = refusal(list((FIXTURES / "promptfoo" / "configuration-guide").iterdir()))
    assert problem == "prompts[0]: file://prompt1.txt was not uploaded: add prompt1.txt to the upload"


@pytest.mark.parametrize("reference", ["file:///etc/passwd", "file://../secrets.txt", "file://prompts/*.txt", "file://~/.ssh/id_rsa"])
def test_file_references_never_reach_the_servers_disk(tmp_path: Path, reference: str) -> None:
    (tmp_path.parent / "secrets.txt").write_text("secret {{x}}")
    problem = refusal(write(tmp_path, f"prompts: ['{reference}']\nproviders: [openai:chat:gpt-4.1]\ntests: [{{vars: {{x: 1}}}}]\n"))
    assert problem.startswith(f"prompts[0]: {reference} points outside the uploaded files")


def test_a_file_of_the_upload_is_read_by_name(tmp_path: Path) -> None:
    paths = write(tmp_path, "prompts: [file://prompts/q.txt]\ntests: file://cases.csv\n", q_txt="Q: {{q}}", cases_csv="q,__expected\nhi,contains: hi\nho,grade: says ho\n")
    suite = read_suite(paths, 10)
    assert suite.user == "Q: {{q}}" and suite.columns == []
    assert [row["q"] for row in suite.dataset.rows] == ["hi", "ho"]
    assert [(g.kind, g.value) for g in suite.graders] == [("regex", "{{__regex}}"), ("model", "{{__model}}")]


def test_code_and_nunjucks_are_refused(tmp_path: Path) -> None:
    assert "a prompt function is code" in refusal(write(tmp_path, "prompts: [file://prompt.js]\ntests: [{vars: {a: 1}}]\n", prompt_js="x"))
    assert "Nunjucks" in refusal(write(tmp_path, "prompts: ['{{ messages | dump }}']\ntests: [{vars: {messages: 1}}]\n"))
    assert "Nunjucks" in refusal(write(tmp_path, "prompts: ['{% if a %}x{% endif %}']\ntests: [{vars: {a: 1}}]\n"))
    assert "a variable from a script is code" in refusal(write(tmp_path, "prompts: ['{{a}}']\ntests: [{vars: {a: file://v.py}}]\n", v_py="x"))


def test_yaml_bombs_are_refused_before_anything_walks_them(tmp_path: Path) -> None:
    laughs = "a: &a ['lol','lol','lol','lol','lol','lol','lol','lol','lol']\n" + "".join(
        f"{chr(98 + n)}: &{chr(98 + n)} [*{chr(97 + n)},*{chr(97 + n)},*{chr(97 + n)},*{chr(97 + n)},*{chr(97 + n)},*{chr(97 + n)},*{chr(97 + n)},*{chr(97 + n)},*{chr(97 + n)}]\n"
        for n in range(8))
    assert "values (aliases counted each time they are used)" in refusal(write(tmp_path, "prompts: ['x']\n" + laughs))
    many = "prompts: ['x']\nk: &k 1\nl: [" + ",".join(["*k"] * 101) + "]\n"
    assert "more than 100 aliases" in refusal(write(tmp_path, many))
    assert "nested more than 32 levels" in refusal(write(tmp_path, "prompts: ['x']\ndeep: " + "[" * 40 + "]" * 40 + "\n"))
    assert "is not valid YAML (line 3)" in refusal(write(tmp_path, "prompts: ['x']\ntests: [\n"))


def test_rows_are_bounded_as_list_values_expand(tmp_path: Path) -> None:
    text = "prompts: ['{{a}} {{b}}']\ntests:\n  - vars: {a: [1, 2, 3, 4], b: [1, 2, 3]}\n"
    assert refusal(write(tmp_path, text), max_rows=11) == "more than 11 rows (PLAYGROUND_BATCH_MAX_ROWS)"
    assert len(read_suite(write(tmp_path, text), 12).dataset.rows) == 12


def test_files_are_bounded_before_reading(tmp_path: Path) -> None:
    from playground.client.batch.importers import bounds
    assert "a suite is at most 20 files" in refusal([tmp_path / f"f{n}.txt" for n in range(21)])
    big = tmp_path / "promptfooconfig.yaml"
    big.write_bytes(b"prompts: ['x']\n" + b"#" * bounds.MAX_CONFIG_BYTES)
    assert "at most 1,000,000 are read" in refusal([big])
    (tmp_path / "latin.yaml").write_bytes("prompts: ['caf\xe9']\n".encode("latin-1"))
    assert refusal([tmp_path / "latin.yaml"]) == "latin.yaml is not UTF-8 text (byte 15)"


@pytest.mark.parametrize(("provider", "column"), [
    ("openai:chat:gpt-4.1", ("chat", "gpt-4.1")), ("openai:gpt-4o-mini", ("chat", "gpt-4o-mini")),
    ("openai:responses:o4-mini", ("responses", "o4-mini")), ("anthropic:messages:cl-haiku-4-5-20251001", ("messages", "cl-haiku-4-5-20251001")),
    ("google:gx-2.5-flash", ("native", "gx-2.5-flash")), ("vertex:gemini-2.0-flash-exp", ("native", "gx-2.0-flash-exp")),
    ("anthropic:messages:claude-sonnet-4-5-20250929", ("messages", "cl-sonnet-4-5-20250929")), ("anthropic:messages:claude", ("messages", "claude")),
])
def test_provider_ids_map_to_a_format_and_a_model(provider: str, column: tuple[str, str]) -> None:
    assert column_of(provider) == column


@pytest.mark.parametrize("provider", ["openai:embedding:text-embedding-3-small", "exec:python run.py", "file://provider.js", "ollama:llama3", "https://example.com"])
def test_other_providers_are_named_not_guessed(provider: str) -> None:
    assert isinstance(column_of(provider), str) and provider[:20] in column_of(provider)


def test_a_test_file_is_bounded_as_it_is_read(tmp_path: Path) -> None:
    rows = "q\n" + "".join(f"row {n}\n" for n in range(5000))
    paths = write(tmp_path, "prompts: ['{{q}}']\ntests: file://many.csv\n", many_csv=rows)
    assert refusal(paths, max_rows=100) == "more than 100 rows (PLAYGROUND_BATCH_MAX_ROWS)"
    assert len(read_suite(paths, 5000).dataset.rows) == 5000
