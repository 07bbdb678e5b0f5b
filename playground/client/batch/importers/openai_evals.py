"""An OpenAI Evals export as a Batch suite: the eval's JSON (the object the API returns, or the body
that created it) for its testing criteria, its data source rows as JSONL (`{"item": {...}}` lines
or plain objects), and optionally a run's JSON for the prompt template, model and sampling
settings. `{{ item.x }}` becomes `{{x}}`; the answer (`{{ sample.output_text }}`) is what every
grader grades. Criteria map to graders (`string_check`, `text_similarity` with the cosine
metric, `score_model`, `label_model`); `python` and the others are named with why."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from playground.client.batch.dataset import Dataset
from playground.client.batch.graders import MAX_PATTERN_CHARS, GraderSpec
from playground.client.batch.importers.bounds import MAX_DEPTH, SuiteError, SuiteFiles, load_json, mapping, refuse, scalar_text
from playground.client.batch.importers.suite import Suite
from playground.client.batch.plan import ColumnSettings
from playground.client.texts import Text

import regex

ITEM = re.compile(r"\{\{\s*item\.([^{}]+?)\s*\}\}")
ANSWER = re.compile(r"\{\{\s*sample\.output_text\s*\}\}")
SAMPLE = re.compile(r"\{\{\s*sample\.[^{}]*\}\}")
EMBEDDING_MODEL = "text-embedding-3-large"
"""The model OpenAI's `cosine` metric embeds with."""
FORMATS = {"completions": "chat", "responses": "responses"}


def _json(files: SuiteFiles, name: str) -> Any:
    return load_json(files.text(name), name)


def is_eval(files: SuiteFiles, name: str) -> bool:
    document = _json(files, name)
    return isinstance(document, dict) and isinstance(document.get("testing_criteria"), list)


def import_openai_evals(files: SuiteFiles, eval_name: str, max_rows: int) -> Suite:
    """The suite of eval `eval_name` with the rows and run of the same upload (raises `SuiteError`)."""
    evaluation = _json(files, eval_name)
    unmapped: list[str] = []
    runs = [name for name in files.files if name.endswith(".json") and name != eval_name
            and isinstance(doc := _json(files, name), dict) and isinstance(doc.get("data_source"), dict)]
    run = mapping(mapping(_json(files, runs[0])).get("data_source")) if runs else {}
    rows = _rows(files, run, max_rows, unmapped)
    files.check_time()
    columns = list(dict.fromkeys(name for row in rows for name in row))
    dataset = Dataset(columns, [{name: row.get(name, "") for name in columns} for row in rows], Text("import.openai_evals_source", name=eval_name))
    suite = Suite("openai-evals", str(evaluation.get("name") or eval_name)[:120], "", dataset=dataset, unmapped=unmapped)
    suite.system, suite.user = _prompt(run, columns, unmapped)
    if isinstance(run.get("model"), str) and run["model"].strip():
        kind = run.get("type")
        suite.columns = [(FORMATS.get(kind, "chat") if isinstance(kind, str) else "chat", run["model"].strip())]
        suite.column_settings = [_settings(run.get("sampling_params"), unmapped)]
    for index, criterion in enumerate(evaluation["testing_criteria"]):
        name = criterion.get("name") if isinstance(criterion, dict) else None
        where = f"testing_criteria[{index}]" + (f" “{str(name)[:40]}”" if name else "")
        mapped = _criterion(criterion, where)
        if isinstance(mapped, GraderSpec):
            suite.graders.append(mapped)
        else:
            unmapped.append(Text("import.unmapped_at", where=where, reason=mapped))
    return suite


def _rows(files: SuiteFiles, run: dict[str, Any], max_rows: int, unmapped: list[str]) -> list[dict[str, str]]:
    source = mapping(run.get("source"))
    lines: Iterator[tuple[str, Any]]
    if source.get("type") == "file_content" and isinstance(source.get("content"), list):
        lines = ((f"data_source.source.content[{n}]", item) for n, item in enumerate(source["content"]))
    else:
        names = [name for name in files.files if name.endswith(".jsonl")]
        if not names:
            raise refuse(Text("import.openai_no_rows"))
        lines = ((f"{name} line {number}", load_json(text, name)) for name in names  # parsed one at a time: the rows' bound stops it
                 for number, text in enumerate(files.text(name).splitlines(), 1) if text.strip())
    rows: list[dict[str, str]] = []
    samples = False
    for where, line in lines:
        if not isinstance(line, dict):
            raise refuse(Text("import.openai_row_shape", where=where))
        item = line.get("item", line) if "item" in line else line
        samples = samples or "sample" in line
        if not isinstance(item, dict):
            raise refuse(Text("import.openai_row_shape", where=where))
        if len(rows) >= max_rows:
            raise SuiteError([Text("import.too_many_rows", limit=max_rows)])
        rows.append(dict(_flat(item, "", 0)))
        files.check_time()
    if samples:
        unmapped.append(Text("import.openai_samples"))
    if not rows:
        raise refuse(Text("import.openai_no_rows"))
    return rows


def _flat(item: dict[str, Any], prefix: str, depth: int) -> list[tuple[str, str]]:
    """An item's fields as (name, text); an object's fields as `name.field` too."""
    found: list[tuple[str, str]] = []
    for key, value in item.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict) and depth < MAX_DEPTH:
            found += _flat(value, name + ".", depth + 1)
        found.append((name, scalar_text(value) or ""))
    return found


def _content(content: Any) -> str | None:
    if isinstance(content, str):
        return content
    if isinstance(content, dict) and content.get("type") in ("input_text", "text", "output_text") and isinstance(content.get("text"), str):
        return content["text"]
    if isinstance(content, list):
        parts = [_content(part) for part in content]
        return None if any(part is None for part in parts) else "\n".join(p for p in parts if p is not None)
    return None


def _prompt(run: dict[str, Any], columns: list[str], unmapped: list[str]) -> tuple[str, str]:
    messages = run.get("input_messages") if isinstance(run.get("input_messages"), dict) else None
    if messages is None:
        first = next((name for name in ("input", "question", "prompt", "ticket_text") if name in columns), columns[0] if columns else "input")
        unmapped.append(Text("import.openai_no_run", column=first))
        return "", "{{" + first + "}}"
    if messages.get("type") == "item_reference" and isinstance(messages.get("item_reference"), str):
        field = messages["item_reference"].removeprefix("item.")
        unmapped.append(Text("import.openai_item_reference", field=field))
        return "", "{{" + field + "}}"
    system: list[str] = []
    users: list[str] = []
    template = messages.get("template")
    if not isinstance(template, list):
        raise refuse(Text("import.openai_template", where="input_messages.template"))
    for index, message in enumerate(template):
        text = _content(message.get("content")) if isinstance(message, dict) else None
        role = message.get("role") if isinstance(message, dict) else None
        if text is None or role not in ("system", "developer", "user"):
            raise refuse(Text("import.openai_template", where=f"input_messages.template[{index}]"))
        if SAMPLE.search(text):
            raise refuse(Text("import.openai_template_sample", where=f"input_messages.template[{index}]"))
        (system if role != "user" else users).append(ITEM.sub(r"{{\1}}", text))
    if len(users) != 1:
        raise refuse(Text("import.openai_template_turns"))
    return "\n\n".join(system), users[0]


def _settings(params: Any, unmapped: list[str]) -> ColumnSettings:
    if not isinstance(params, dict):
        return ColumnSettings()
    temperature = _number(params.get("temperature"))
    tokens = params.get("max_completion_tokens", params.get("max_output_tokens", params.get("max_completions_tokens")))
    ok_temperature = temperature is not None and 0 <= temperature <= 2
    ok_tokens = isinstance(tokens, int) and not isinstance(tokens, bool) and 1 <= tokens <= 1_000_000
    others = sorted(set(params) - {"temperature", "max_completion_tokens", "max_output_tokens", "max_completions_tokens"})
    if others:
        unmapped.append(Text("import.openai_sampling", names=", ".join(others)[:120]))
    return ColumnSettings(temperature if ok_temperature else None, tokens if ok_tokens else None, None)


def _reference(text: str) -> str:
    return ITEM.sub(r"{{\1}}", text)


def _rubric(messages: Any) -> str | None:
    """A model grader's messages as one rubric (`{{ sample.output_text }}` read as the answer shown below)."""
    if isinstance(messages, str):
        messages = [{"role": "user", "content": messages}]
    if not isinstance(messages, list):
        return None
    parts = []
    for message in messages:
        text = _content(message.get("content")) if isinstance(message, dict) else None
        if text is None:
            return None
        text = ANSWER.sub("(the answer below)", _reference(text))
        if SAMPLE.search(text):
            return None
        parts.append(text.strip())
    return "\n\n".join(part for part in parts if part) or None


def _criterion(criterion: Any, where: str) -> GraderSpec | str:
    if not isinstance(criterion, dict) or not isinstance(criterion.get("type"), str):
        return Text("import.openai_criterion_shape")
    kind = criterion["type"]
    if kind == "python":
        return Text("import.openai_python")
    if kind == "string_check":
        return _string_check(criterion)
    if kind == "text_similarity":
        metric = criterion.get("evaluation_metric")
        reference = _answer_and_other(criterion)
        if metric != "cosine":
            return Text("import.openai_metric", metric=str(metric)[:30])
        if reference is None:
            return Text("import.openai_not_answer")
        return GraderSpec("similar", _reference(reference), model=EMBEDDING_MODEL, threshold=_number(criterion.get("pass_threshold")))
    if kind in ("score_model", "label_model"):
        rubric, model = _rubric(criterion.get("input")), criterion.get("model")
        if rubric is None:
            return Text("import.openai_model_input")
        if not isinstance(model, str) or not model.strip():
            return Text("import.openai_model_missing")
        if kind == "label_model":
            labels, passing = criterion.get("labels"), criterion.get("passing_labels")
            if not (isinstance(labels, list) and isinstance(passing, list) and all(isinstance(x, str) for x in labels + passing)):
                return Text("import.openai_labels")
            return GraderSpec("label", rubric, model=model, labels=tuple(labels), passing=tuple(passing))
        scale = criterion.get("range", [0, 1])
        if not (isinstance(scale, list) and len(scale) == 2 and all(isinstance(x, (int, float)) and not isinstance(x, bool)
                                                                     and float(x).is_integer() and x >= 0 for x in scale) and scale[0] < scale[1]):
            return Text("import.openai_range")
        return GraderSpec("model", rubric, int(scale[0]), int(scale[1]), model, _number(criterion.get("pass_threshold")))
    return Text("import.openai_kind", kind=kind[:40])


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _answer_and_other(criterion: dict[str, Any]) -> str | None:
    """The side of a two-sided grader that is not the answer (None when neither side is the answer)."""
    given, reference = criterion.get("input"), criterion.get("reference")
    if not isinstance(given, str) or not isinstance(reference, str):
        return None
    if ANSWER.fullmatch(given.strip()) and not SAMPLE.search(reference):
        return reference
    if ANSWER.fullmatch(reference.strip()) and not SAMPLE.search(given):
        return given
    return None


def _string_check(criterion: dict[str, Any]) -> GraderSpec | str:
    other = _answer_and_other(criterion)
    if other is None:
        return Text("import.openai_not_answer")
    operation, value = criterion.get("operation"), _reference(other)
    if operation == "eq":
        return GraderSpec("equals", value)
    if operation == "ilike":
        return GraderSpec("contains", value)
    if operation == "like":
        if "{{" in value:
            return GraderSpec("contains", value)
        pattern = str(regex.escape(value, special_only=True, literal_spaces=True))
        return GraderSpec("regex", pattern) if len(pattern) <= MAX_PATTERN_CHARS else GraderSpec("contains", value)
    return Text("import.openai_operation", operation=str(operation)[:20])
