"""The importers never raise anything but `SuiteError`, whatever shape a stranger's config, eval or
rows take: each real fixture with one value replaced by another shape, many times over."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import yaml

from playground.client.batch.importers import SuiteError, read_suite
from tests.client.batch.importers.fixtures import FIXTURES

LEAVES: list[Any] = [None, True, 0, -1, 1.5, "", "x", "{{", "{{ item.x }}", "file://prompts.txt", "file://../x", "javascript", "contains",
                     "openai:chat:m", "$ref", [], {}, [["a"]], [{"type": "contains"}], {"type": "regex", "value": "("}, 10**30]
KEYS = ["type", "value", "vars", "assert", "prompts", "providers", "tests", "id", "config", "input", "reference", "operation", "range",
        "labels", "passing_labels", "model", "threshold", "role", "content", "item", "template", "data_source", "testing_criteria"]


def _value(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if depth > 2 or roll < 0.55:
        return rng.choice(LEAVES)
    if roll < 0.75:
        return [_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    return {rng.choice(KEYS): _value(rng, depth + 1) for _ in range(rng.randint(0, 3))}


def _paths(document: Any) -> list[tuple[Any, Any]]:
    """Every (container, key) in a document, to replace one value."""
    found: list[tuple[Any, Any]] = []
    stack = [document]
    while stack:
        item = stack.pop()
        pairs = item.items() if isinstance(item, dict) else enumerate(item) if isinstance(item, list) else []
        for key, value in pairs:
            found.append((item, key))
            stack.append(value)
    return found


def _mutated(rng: random.Random, document: Any) -> Any:
    copy = json.loads(json.dumps(document))
    places = _paths(copy)
    for _ in range(rng.randint(1, 3)):
        if places:
            container, key = rng.choice(places)
            container[key] = _value(rng)
    return copy


def test_mutated_promptfoo_configs_and_openai_evals_are_imported_or_refused(tmp_path: Path) -> None:
    rng = random.Random(38)
    config = yaml.safe_load((FIXTURES / "promptfoo" / "claude-vs-gpt" / "promptfooconfig.yaml").read_text())
    evaluation = json.loads((FIXTURES / "openai-graders" / "graders-eval.json").read_text())
    run = json.loads((FIXTURES / "openai-evals" / "it-ticket-run.json").read_text())
    (tmp_path / "prompt.yaml").write_text((FIXTURES / "promptfoo" / "claude-vs-gpt" / "prompt.yaml").read_text())
    (tmp_path / "prompts.txt").write_text("Say {{riddle}}")
    (tmp_path / "rows.jsonl").write_text('{"item": {"reference_answer": "a", "x": "b"}}\n')
    for attempt in range(400):
        (tmp_path / "promptfooconfig.yaml").write_text(yaml.safe_dump(_mutated(rng, config)))
        promptfoo = [tmp_path / "promptfooconfig.yaml", tmp_path / "prompt.yaml", tmp_path / "prompts.txt"]
        (tmp_path / "eval.json").write_text(json.dumps(_mutated(rng, evaluation)))
        (tmp_path / "run.json").write_text(json.dumps(_mutated(rng, run)))
        openai = [tmp_path / "eval.json", tmp_path / "run.json", tmp_path / "rows.jsonl"]
        for paths in (promptfoo, openai):
            try:
                suite = read_suite(list(paths), 50)
            except SuiteError:
                continue
            except Exception as error:
                raise AssertionError(f"attempt {attempt}: {type(error).__name__}: {error}\n{paths[0].read_text()[:2000]}") from error
            suite.plan([("chat", "m")]).problems(50, 8)
