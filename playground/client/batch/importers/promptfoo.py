"""A promptfoo config (`promptfooconfig.yaml`, or JSON) as a Batch suite: its first prompt (inline,
or a `file://` text, YAML or JSON chat prompt of the same upload), its providers as columns, its
tests as rows (vars; list values expanded as promptfoo does; tests from an uploaded CSV, YAML,
JSON or JSONL file), and its assertions as graders: `defaultTest`'s for every row, a test's own as
graders whose value each row carries in a `__` column (empty where the test did not ask).
What cannot be mapped is named with where it is."""

from __future__ import annotations

import csv
import io
import itertools
import re
from collections.abc import Iterator
from typing import Any

from playground.client.batch.dataset import Dataset
from playground.client.batch.graders import GraderSpec
from playground.client.batch.importers.bounds import (MAX_CONFIG_BYTES, SuiteError, SuiteFiles, load_json, load_yaml, mapping,
                                                      refuse, scalar_text)
from playground.client.batch.importers.promptfoo_asserts import Assertion, Context, map_assertion
from playground.client.batch.importers.promptfoo_tests import CSV_ASSERTION, csv_assertion
from playground.client.batch.importers.providers import column_of, columns_of
from playground.client.batch.importers.suite import DEFAULT_GRADING_MODEL, Suite
from playground.client.texts import Text

KNOWN_QUIET = frozenset({"description", "outputPath", "sharing", "evaluateOptions", "commandLineOptions", "metadata", "tags",
                         "writeLatestResults", "nunjucksFilters", "extensions", "redteam", "derivedMetrics", "$schema"})
READ = frozenset({"prompts", "providers", "targets", "tests", "defaultTest", "assertionTemplates", "env"})
NUNJUCKS = re.compile(r"\{%|\{\{[^{}]*\|[^{}]*\}\}|\{#")


def _document(files: SuiteFiles, name: str) -> Any:
    text = files.text(name, MAX_CONFIG_BYTES)
    return load_json(text, name) if name.endswith(".json") else load_yaml(text, name)


def import_promptfoo(files: SuiteFiles, config: str, max_rows: int, prices: str = "") -> Suite:
    """The suite of promptfoo config `config` (one of `files`), checked whole (raises `SuiteError`)."""
    document = _document(files, config)
    if not isinstance(document, dict):
        raise refuse(Text("import.promptfoo_not_mapping", name=config))
    unmapped: list[str] = []
    for key in document:
        if key == "scenarios":
            unmapped.append(Text("import.promptfoo_scenarios"))
        elif key == "env":
            unmapped.append(Text("import.promptfoo_env"))
        elif key not in READ and key not in KNOWN_QUIET:
            unmapped.append(Text("import.promptfoo_key", key=str(key)[:40]))
    system, user = _prompt(files, document.get("prompts"), unmapped)
    columns = columns_of(document.get("providers", document.get("targets")), "providers", unmapped)
    default = _default_test(files, document.get("defaultTest"), unmapped)
    grading = _grading_provider(mapping(default.get("options"))) or DEFAULT_GRADING_MODEL
    templates = mapping(document.get("assertionTemplates"))
    ctx = Context(files, templates, grading, prices)
    tests = _tests(files, document.get("tests"), max_rows)
    files.check_time()
    suite = Suite("promptfoo", str(document.get("description") or config)[:120], user, system, unmapped=unmapped)
    suite.columns = [column for column, _ in columns]
    suite.column_settings = [settings for _, settings in columns]
    rows, row_asserts = _rows(tests, default, max_rows, ctx, unmapped)
    default_asserts = [found for index, item in enumerate(_list(default.get("assert")))
                       if (found := map_assertion(item, f"defaultTest.assert[{index}]", ctx, unmapped)) is not None]
    suite.graders = [_spec(found, found.value) for found in default_asserts]
    extra_columns, graders = _row_graders(row_asserts)
    suite.graders += graders
    names = list(dict.fromkeys(name for row in rows for name in row))
    for row, extra in zip(rows, extra_columns):
        row.update(extra)
    names += list(dict.fromkeys(name for extra in extra_columns for name in extra))
    suite.dataset = Dataset(names, [{name: row.get(name, "") for name in names} for row in rows], f"promptfoo {config}")
    return suite


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [] if value is None else [value]


def _grading_provider(options: dict[str, Any]) -> str:
    provider = options.get("provider")
    provider_id = provider if isinstance(provider, str) else provider.get("id") if isinstance(provider, dict) else None
    if isinstance(provider_id, str):
        column = column_of(provider_id)
        if isinstance(column, tuple):
            return column[1]
    return ""


def _prompt(files: SuiteFiles, prompts: Any, unmapped: list[str]) -> tuple[str, str]:
    """(system, user) of the first prompt; the others are named as not run."""
    found: list[tuple[str, str]] = []
    for index, item in enumerate(_list(prompts)):
        where = f"prompts[{index}]"
        raw = item.get("raw", item.get("id")) if isinstance(item, dict) else item
        if not isinstance(raw, str) or not raw.strip():
            raise refuse(Text("import.promptfoo_prompt_shape", where=where))
        if raw.startswith("file://"):
            if raw.split(":")[-1] and raw.removeprefix("file://").split(":")[0].endswith((".js", ".ts", ".py", ".mjs", ".cjs")):
                raise refuse(Text("import.promptfoo_prompt_code", where=where))
            found += _prompt_file(files, files.resolve(raw, where), where)
        else:
            found.append(("", raw))
    if not found:
        raise refuse(Text("import.promptfoo_no_prompt"))
    for index, (_, text) in enumerate(found[1:], 2):
        unmapped.append(Text("import.promptfoo_more_prompts", number=index, text=text.strip()[:60]))
    system, user = found[0]
    for text, where in ((system, "system"), (user, "prompt")):
        if NUNJUCKS.search(text):
            raise refuse(Text("import.promptfoo_nunjucks", where=where))
    return system, user


def _prompt_file(files: SuiteFiles, name: str, where: str) -> list[tuple[str, str]]:
    text = files.text(name, MAX_CONFIG_BYTES)
    if name.endswith((".json", ".yaml", ".yml")):
        document = load_json(text, name) if name.endswith(".json") else load_yaml(text, name)
        messages = document.get("messages") if isinstance(document, dict) else document
        return [_chat_prompt(messages, f"{where} ({name})")]
    return [("", part.strip("\n")) for part in re.split(r"\n-{3,}\n", text) if part.strip()]


def _content(content: Any) -> str | None:
    if isinstance(content, str):
        return content
    if isinstance(content, list) and all(isinstance(part, dict) and part.get("type") in ("text", "input_text") and isinstance(part.get("text"), str)
                                         for part in content):
        return "\n".join(part["text"] for part in content)
    return None


def _chat_prompt(messages: Any, where: str) -> tuple[str, str]:
    """A chat prompt of system messages and one user message as (system, user)."""
    if not isinstance(messages, list) or not all(isinstance(m, dict) for m in messages):
        raise refuse(Text("import.promptfoo_chat_shape", where=where))
    system: list[str] = []
    users: list[str] = []
    for message in messages:
        text = _content(message.get("content"))
        if text is None or message.get("role") not in ("system", "developer", "user"):
            raise refuse(Text("import.promptfoo_chat_shape", where=where))
        (system if message["role"] in ("system", "developer") else users).append(text)
    if len(users) != 1:
        raise refuse(Text("import.promptfoo_chat_turns", where=where))
    return "\n\n".join(system), users[0]


def _default_test(files: SuiteFiles, default: Any, unmapped: list[str]) -> dict[str, Any]:
    if isinstance(default, str) and default.startswith("file://"):
        default = _document(files, files.resolve(default, "defaultTest"))
    if default is None:
        return {}
    if not isinstance(default, dict):
        raise refuse(Text("import.promptfoo_test_shape", where="defaultTest"))
    if "transform" in mapping(default.get("options")):
        unmapped.append(Text("import.promptfoo_transform", where="defaultTest"))
    return default


def _tests(files: SuiteFiles, tests: Any, max_rows: int) -> list[tuple[str, dict[str, Any]]]:
    """(where, test) for every test, those in uploaded files read in place; more tests than rows
    a run may have are refused as they are read (every test is at least one row)."""
    found: list[tuple[str, dict[str, Any]]] = []
    for index, item in enumerate(_list(tests)):
        where = f"tests[{index}]"
        if isinstance(item, str) and item.startswith("file://"):
            found += _test_file(files, files.resolve(item, where), max_rows - len(found))
        elif isinstance(item, dict):
            found.append((where, item))
        else:
            raise refuse(Text("import.promptfoo_test_shape", where=where))
        if len(found) > max_rows:
            raise SuiteError([Text("import.too_many_rows", limit=max_rows)])
        files.check_time()
    return found


def _bounded(items: Iterator[tuple[str, dict[str, Any]]], room: int) -> list[tuple[str, dict[str, Any]]]:
    found: list[tuple[str, dict[str, Any]]] = []
    for item in items:
        found.append(item)
        if len(found) > room:
            break
    return found


def _test_file(files: SuiteFiles, name: str, room: int) -> list[tuple[str, dict[str, Any]]]:
    """The tests of an uploaded file, at most one more than `room` (the caller refuses that one)."""
    text = files.text(name)
    if name.endswith(".csv"):
        reader = csv.DictReader(io.StringIO(text, newline=""))
        try:
            return _bounded(((f"{name} line {reader.line_num}", _csv_test(row, f"{name} line {reader.line_num}")) for row in reader), room)
        except csv.Error as error:
            raise refuse(Text("import.csv_invalid", name=name, line=reader.line_num, reason=str(error)[:80])) from None
    if name.endswith(".jsonl"):
        return _bounded(((f"{name} line {number}", _test_dict(load_json(line, name), f"{name} line {number}"))
                         for number, line in enumerate(text.splitlines(), 1) if line.strip()), room)
    if name.endswith((".yaml", ".yml", ".json")):
        document = load_json(text, name) if name.endswith(".json") else load_yaml(text, name)
        return _bounded(((f"{name}[{index}]", _test_dict(item, f"{name}[{index}]")) for index, item in enumerate(_list(document))), room)
    raise refuse(Text("import.promptfoo_test_file", name=name))


def _test_dict(item: Any, where: str) -> dict[str, Any]:
    if not isinstance(item, dict):
        raise refuse(Text("import.promptfoo_test_shape", where=where))
    return item


def _csv_test(row: dict[str | None, Any], where: str) -> dict[str, Any]:
    if None in row:
        raise refuse(Text("import.csv_fields", where=where))
    test: dict[str, Any] = {"vars": {}, "assert": [], "unread": []}
    for name, value in row.items():
        assert name is not None
        if CSV_ASSERTION.fullmatch(name):
            if value and value.strip():
                test["assert"].append(csv_assertion(value.strip()))
        elif name.startswith("__"):
            if name != "__description" and value:
                test["unread"].append(name)
        else:
            test["vars"][name] = value
    return test


def _rows(tests: list[tuple[str, dict[str, Any]]], default: dict[str, Any], max_rows: int, ctx: Context,
          unmapped: list[str]) -> tuple[list[dict[str, str]], list[list[Assertion]]]:
    """Each test's rows (list values expanded), and the graders the test asks for on each."""
    defaults = mapping(default.get("vars"))
    rows: list[dict[str, str]] = []
    asserts: list[list[Assertion]] = []
    for where, test in tests:
        for key in ("provider", "providers", "threshold", "options", "unread"):
            if test.get(key):
                unmapped.append(Text("import.promptfoo_test_field", where=where, field=key if key != "unread" else ", ".join(test[key])))
        own = mapping(test.get("vars"))
        if test.get("vars") is not None and not isinstance(test.get("vars"), dict):
            raise refuse(Text("import.promptfoo_vars_shape", where=where))
        merged = {**defaults, **own}
        mapped = [found for index, item in enumerate(_list(test.get("assert")))
                  if (found := map_assertion(item, f"{where}.assert[{index}]", ctx, unmapped)) is not None]
        for values in _expand(merged, where, ctx):
            if len(rows) >= max_rows:
                raise SuiteError([Text("import.too_many_rows", limit=max_rows)])
            rows.append(values)
            asserts.append(mapped)
    if not rows:
        raise refuse(Text("import.promptfoo_no_tests"))
    return rows, asserts


def _expand(variables: dict[str, Any], where: str, ctx: Context) -> list[dict[str, str]]:
    """One row per combination of the list values (promptfoo's product), each value as text."""
    names = list(variables)
    choices: list[list[str]] = []
    for name in names:
        value = variables[name]
        options = value if isinstance(value, list) else [value]
        texts = []
        for option in options:
            if isinstance(option, str) and option.startswith("file://"):
                if option.removeprefix("file://").split(":")[0].endswith((".js", ".ts", ".py", ".mjs", ".cjs")):
                    raise refuse(Text("import.promptfoo_var_code", where=f"{where}.vars.{name}"))
                option = ctx.files.text(ctx.files.resolve(option, f"{where}.vars.{name}"))
            texts.append(scalar_text(option) or "")
        choices.append(texts)
    return [dict(zip(names, combination)) for combination in itertools.product(*choices)]


def _spec(found: Assertion, value: str) -> GraderSpec:
    return GraderSpec(found.kind, value, model=found.model, threshold=found.threshold, prices=found.prices)


def _row_graders(asserts: list[list[Assertion]]) -> tuple[list[dict[str, str]], list[GraderSpec]]:
    """Per-test assertions grouped by kind and options: one grader each, whose per-row value is a
    `__` column (the same value in every row: a plain grader, no column)."""
    groups: dict[tuple[Any, ...], dict[int, str]] = {}
    for row, found in enumerate(asserts):
        seen: dict[tuple[Any, ...], int] = {}
        for item in found:
            count = seen.get(item.options, 0) + 1
            seen[item.options] = count
            groups.setdefault((*item.options, count), {})[row] = item.value or "yes"
    extra: list[dict[str, str]] = [{} for _ in asserts]
    graders: list[GraderSpec] = []
    taken: dict[str, int] = {}
    for key, values in groups.items():
        kind, threshold, model, prices, _ = key
        template = Assertion(kind, "", threshold, model, prices)
        if len(values) == len(asserts) and len(set(values.values())) == 1:
            only = next(iter(values.values()))
            graders.append(_spec(template, "" if only == "yes" and kind in ("json", "contains_json", "latency", "cost") else only))
            continue
        taken[kind] = taken.get(kind, 0) + 1
        column = f"__{kind}" + (f" {taken[kind]}" if taken[kind] > 1 else "")
        for row in range(len(asserts)):
            extra[row][column] = values.get(row, "")
        graders.append(_spec(template, "{{" + column + "}}"))
    return extra, graders
