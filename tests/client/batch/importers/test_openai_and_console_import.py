"""The OpenAI Evals importer (the guide's eval, rows and run; the graders guide's criteria) and the
Console CSV importer, and what each refuses or names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from playground.client.batch.importers import SuiteError, read_suite
from tests.client.batch.importers.fixtures import imported, upload


def test_the_guides_eval_rows_and_run_make_the_suite() -> None:
    suite = imported("openai-evals")
    assert suite.source == "openai-evals" and suite.name == "IT Ticket Categorization"
    assert suite.system.startswith("You are an expert in categorizing IT support tickets") and suite.user == "{{ticket_text}}"
    assert suite.dataset.columns == ["ticket_text", "correct_label"] and suite.dataset.rows[1]["correct_label"] == "Software"
    assert [(g.kind, g.value) for g in suite.graders] == [("equals", "{{correct_label}}")]
    assert suite.unmapped == []


def test_the_graders_guides_criteria() -> None:
    suite = imported("openai-graders")
    score, label, similar = suite.graders
    assert (score.kind, score.minimum, score.maximum, score.threshold, score.model) == ("model", 0, 1, 0.5, "o4-mini-2025-04-16")
    assert "Reference: {{reference_answer}}. Model answer: (the answer below)" in score.value
    assert (label.kind, label.labels, label.passing) == ("label", ("good", "bad"), ("good",))
    assert (similar.kind, similar.value, similar.threshold, similar.model) == ("similar", "{{reference_answer}}", 0.8, "text-embedding-3-large")
    assert "testing_criteria[4]: a python grader runs code: refused" in suite.unmapped
    assert any(text.startswith("testing_criteria[3] “name_grader”: the fuzzy_match metric is not computed here") for text in suite.unmapped)
    assert any(text.startswith("no run in the upload: the prompt is {{reference_answer}}") for text in suite.unmapped)


def test_an_eval_without_rows_and_a_prompt_that_reads_the_sample_are_refused(tmp_path: Path) -> None:
    evaluation = next(path for path in upload("openai-evals") if path.name == "it-ticket-eval.json")
    with pytest.raises(SuiteError, match="no rows: upload the eval's data source as JSONL"):
        read_suite([evaluation], 10)
    run = {"data_source": {"type": "completions", "model": "gpt-4.1", "input_messages": {"type": "template", "template": [
        {"role": "user", "content": "Check {{ sample.output_text }}"}]}, "source": {"type": "file_content", "content": [{"item": {"a": "1"}}]}}}
    (tmp_path / "run.json").write_text(json.dumps(run))
    with pytest.raises(SuiteError, match=r"input_messages.template\[0\]: the prompt uses the sample namespace"):
        read_suite([evaluation, tmp_path / "run.json"], 10)


def test_inline_rows_sampling_params_and_operations(tmp_path: Path) -> None:
    evaluation = {"name": "ops", "testing_criteria": [
        {"type": "string_check", "name": "like", "input": "{{ sample.output_text }}", "operation": "like", "reference": "Paris"},
        {"type": "string_check", "name": "ne", "input": "{{ sample.output_text }}", "operation": "ne", "reference": "x"},
        {"type": "string_check", "name": "json", "input": "{{ sample.output_json.city }}", "operation": "eq", "reference": "{{ item.city }}"}]}
    run = {"data_source": {"type": "completions", "model": "gpt-4o-mini", "sampling_params": {"temperature": 0.2, "max_completion_tokens": 50, "seed": 1},
                           "input_messages": {"type": "template", "template": [{"role": "user", "content": {"type": "input_text", "text": "City of {{ item.country }}?"}}]},
                           "source": {"type": "file_content", "content": [{"item": {"country": "France", "city": "Paris"}}]}}}
    (tmp_path / "eval.json").write_text(json.dumps(evaluation))
    (tmp_path / "run.json").write_text(json.dumps(run))
    suite = read_suite([tmp_path / "eval.json", tmp_path / "run.json"], 10)
    assert suite.user == "City of {{country}}?" and suite.columns == [("chat", "gpt-4o-mini")]
    assert (suite.column_settings[0].temperature, suite.column_settings[0].max_tokens) == (0.2, 50)
    assert [(g.kind, g.value) for g in suite.graders] == [("regex", "Paris")]
    assert "testing_criteria[1] “ne”: the ne operation has no grader here (eq, like and ilike map)" in suite.unmapped
    assert "testing_criteria[2] “json”: grades something other than the answer's text (sample.output_text)" in suite.unmapped
    assert "sampling_params seed not sent" in suite.unmapped


def test_the_console_csv() -> None:
    suite = imported("anthropic-console")
    assert suite.dataset.columns == ["question", "expected"] and suite.dataset.rows[1]["expected"] == "the Sun"
    assert suite.user == "{{question}}" and suite.graders[0].kind == "model" and "{{expected}}" in suite.graders[0].value
    assert suite.unmapped[1] == "earlier outputs and grades (Model Response, Grade) are not imported: the run makes its own"


def test_a_csv_without_an_ideal_output_and_an_unknown_upload_are_named(tmp_path: Path) -> None:
    (tmp_path / "data.csv").write_text("question,answer_given\nq,a\n")
    with pytest.raises(SuiteError, match="data.csv has no ideal-output column"):
        read_suite([tmp_path / "data.csv"], 10)
    (tmp_path / "notes.txt").write_text("hello")
    with pytest.raises(SuiteError, match=r"not a suite this playground reads \(notes.txt\)"):
        read_suite([tmp_path / "notes.txt"], 10)
