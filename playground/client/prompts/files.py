"""The prompt library as a file: an owner's prompts (every version with its content, the labels)
and partials in one JSON document, and reading one back. A file is bounded before it is parsed
(size, nesting measured on the text) and as it is read (prompts, versions, labels, partials), and
checked whole: one problem refuses it all and nothing is saved."""

from __future__ import annotations

import json
from typing import Any

from playground.client.json_depth import deeper_than
from playground.client.prompts.model import PromptContent, PromptError, checked_label, checked_name
from playground.client.texts import Text
from playground.client.validation import strict_json
from playground.client.errors import RequestValidationError
from playground.store.prompts import LibraryRecords, StoredVersion

KIND = "gateway-playground/prompts"
MAX_FILE_BYTES = 5_000_000
MAX_FILE_DEPTH = 8
MAX_PROMPTS = 200
MAX_VERSIONS = 100
"""Versions of one prompt in a file."""
MAX_ALL_VERSIONS = 2_000
MAX_LABELS = 20
MAX_PARTIALS = 200
MAX_PARTIAL = 100_000


def export_document(records: LibraryRecords) -> dict[str, Any]:
    return {"kind": KIND, "version": 1,
            "prompts": [{"name": name, "versions": [{"number": v.number, "created": v.created, "content": v.content} for v in versions],
                         "labels": dict(labels)} for name, (versions, labels) in records.prompts.items()],
            "partials": dict(records.partials)}


def export_bytes(records: LibraryRecords) -> bytes:
    return json.dumps(export_document(records), ensure_ascii=False, indent=1).encode("utf-8")


def read_library(data: bytes) -> LibraryRecords:
    """A library file's prompts and partials, checked whole (raises `PromptError`, every problem named)."""
    if len(data) > MAX_FILE_BYTES:
        raise PromptError([Text("prompts.file_too_large", limit=MAX_FILE_BYTES // 1_000_000)])
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise PromptError([Text("prompts.file_not_utf8")]) from None
    if deeper_than(text, MAX_FILE_DEPTH):
        raise PromptError([Text("prompts.file_too_deep", limit=MAX_FILE_DEPTH)])
    try:
        document = strict_json(text, MAX_FILE_DEPTH)
    except RequestValidationError as error:
        raise PromptError(list(error.problems)) from None
    if not isinstance(document, dict) or document.get("kind") != KIND or document.get("version") != 1:
        raise PromptError([Text("prompts.file_kind", kind=KIND)])
    problems: list[str] = []
    prompts = _prompts(document.get("prompts", []), problems)
    partials = _partials(document.get("partials", {}), problems)
    if problems:
        raise PromptError(problems[:20])
    return LibraryRecords(prompts, partials)


def _prompts(value: Any, problems: list[str]) -> dict[str, tuple[list[StoredVersion], dict[str, int]]]:
    if not isinstance(value, list) or len(value) > MAX_PROMPTS:
        problems.append(Text("prompts.file_prompts_list", limit=MAX_PROMPTS))
        return {}
    if sum(len(item.get("versions") or []) if isinstance(item, dict) and isinstance(item.get("versions"), list) else 0
           for item in value) > MAX_ALL_VERSIONS:
        problems.append(Text("prompts.file_too_many_versions", limit=MAX_ALL_VERSIONS))
        return {}
    prompts: dict[str, tuple[list[StoredVersion], dict[str, int]]] = {}
    for index, item in enumerate(value, 1):
        where = Text("prompts.file_prompt_at", index=index)
        if not isinstance(item, dict):
            problems.append(Text("prompts.where_problem", where=where, problem=Text("prompts.content_object")))
            continue
        try:
            name = checked_name(item.get("name"))
        except PromptError as error:
            problems += [Text("prompts.where_problem", where=where, problem=problem) for problem in error.problems]
            continue
        if name in prompts:
            problems.append(Text("prompts.file_prompt_twice", name=name))
            continue
        prompts[name] = (_versions(item.get("versions"), name, problems), _labels(item.get("labels", {}), name, problems))
        known = {version.number for version in prompts[name][0]}
        for label, number in prompts[name][1].items():
            if number not in known:
                problems.append(Text("prompts.file_label_no_version", name=name, label=label, number=number))
    return prompts


def _versions(value: Any, name: str, problems: list[str]) -> list[StoredVersion]:
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_VERSIONS:
        problems.append(Text("prompts.file_versions_list", name=name, limit=MAX_VERSIONS))
        return []
    versions: list[StoredVersion] = []
    for item in value:
        number = item.get("number") if isinstance(item, dict) else None
        created = item.get("created", 0.0) if isinstance(item, dict) else None
        if isinstance(number, bool) or not isinstance(number, int) or number < 1 or any(v.number == number for v in versions) \
                or isinstance(created, bool) or not isinstance(created, (int, float)):
            problems.append(Text("prompts.file_version_number", name=name))
            continue
        try:
            content = PromptContent.from_dict(item.get("content"), Text("prompts.file_version_at", name=name, number=number))
        except PromptError as error:
            problems += error.problems
            continue
        versions.append(StoredVersion(number, float(created), content.to_dict()))
    return sorted(versions, key=lambda version: version.number)


def _labels(value: Any, name: str, problems: list[str]) -> dict[str, int]:
    if not isinstance(value, dict) or len(value) > MAX_LABELS:
        problems.append(Text("prompts.file_labels_object", name=name, limit=MAX_LABELS))
        return {}
    labels: dict[str, int] = {}
    for label, number in value.items():
        try:
            labels[checked_label(label)] = number if isinstance(number, int) and not isinstance(number, bool) else -1
        except PromptError as error:
            problems += error.problems
    return labels


def _partials(value: Any, problems: list[str]) -> dict[str, str]:
    if not isinstance(value, dict) or len(value) > MAX_PARTIALS:
        problems.append(Text("prompts.file_partials_object", limit=MAX_PARTIALS))
        return {}
    partials: dict[str, str] = {}
    for name, text in value.items():
        try:
            partials[checked_name(name)] = text
        except PromptError as error:
            problems += error.problems
            continue
        if not isinstance(text, str) or len(text) > MAX_PARTIAL:
            problems.append(Text("prompts.file_partial_text", name=name, limit=MAX_PARTIAL))
    return partials

