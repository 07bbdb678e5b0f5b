"""A prompt library file: exported and read back unchanged; bounded before it is parsed (size,
nesting) and checked whole, every problem named, so a file with one bad version saves nothing."""

from __future__ import annotations

import json

import pytest

from playground.client.prompts.files import KIND, MAX_FILE_BYTES, export_bytes, read_library
from playground.client.prompts.model import PromptError
from playground.store.prompts import LibraryRecords, StoredVersion

CONTENT = {"format": "messages", "system": "Be brief.", "messages": [{"role": "user", "content": "Hi"}], "variables": {}, "tools": "",
           "parameters": {"max_tokens": 256}}


def _file(**changes: object) -> bytes:
    document: dict[str, object] = {"kind": KIND, "version": 1, "prompts": [{"name": "Brief", "versions": [{"number": 1, "created": 1.0,
                                                                                                        "content": CONTENT}],
                                                                          "labels": {"production": 1}}], "partials": {"tone": "warm"}}
    document.update(changes)
    return json.dumps(document).encode()


def test_an_exported_library_reads_back_the_same() -> None:
    records = LibraryRecords({"Brief": ([StoredVersion(1, 1.0, CONTENT), StoredVersion(2, 2.0, {**CONTENT, "system": "Be very brief."})],
                                        {"production": 2})}, {"tone": "warm"})
    assert read_library(export_bytes(records)) == records


def test_a_file_is_bounded_before_it_is_parsed() -> None:
    with pytest.raises(PromptError, match="larger than"):
        read_library(b" " * (MAX_FILE_BYTES + 1))
    with pytest.raises(PromptError, match="levels deep"):
        read_library(b"[" * 100_000)
    with pytest.raises(PromptError, match="not UTF-8"):
        read_library(b"\xff\xfe")
    with pytest.raises(PromptError, match="not a prompt library file"):
        read_library(b'{"kind": "gateway-playground/batch"}')


def test_every_problem_in_a_file_is_named_and_refuses_it_whole() -> None:
    bad = _file(prompts=[
        {"name": "Brief", "versions": [{"number": 1, "created": 1.0, "content": {**CONTENT, "format": "fax"}}], "labels": {"production": 3}},
        {"name": "Brief", "versions": [{"number": 1, "created": 1.0, "content": CONTENT}]},
        {"name": "", "versions": []},
    ], partials={"tone": 5})
    with pytest.raises(PromptError) as refused:
        read_library(bad)
    text = " | ".join(refused.value.problems)
    for part in ("“Brief” v1: format must be one of", "the label production points at version 3", "is in the file twice",
                 "prompt 3: a name is 1 to 60", "the partial “tone” must be text"):
        assert part in text, part
