"""The prompt library in the store: versions are numbered and never change, a label points at
one version and moves, each owner sees only their own prompts and partials, an import lands in
one transaction, and what was saved survives a process killed with SIGKILL."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

from playground.store import prompts as stored
from playground.store.database import Database

ROOT = Path(__file__).resolve().parents[2]


def _content(system: str) -> dict[str, object]:
    return {"format": "chat", "system": system, "messages": [{"role": "user", "content": "Why is the sky blue?"}], "variables": {},
            "tools": "", "parameters": {"temperature": 0.2}}


def test_versions_are_numbered_in_order_and_an_old_one_never_changes(tmp_path: Path) -> None:
    database = Database.at(tmp_path)
    assert database.call(stored.save_version, "", "ELI5", _content("one"), 10.0) == 1
    assert database.call(stored.save_version, "", "ELI5", _content("two"), 20.0) == 2
    assert database.call(stored.save_version, "", "Other", _content("x"), 30.0) == 1, "numbers count per prompt"
    first = database.call(stored.load_version, "", "ELI5", 1)
    assert first is not None and first.content["system"] == "one" and first.created == 10.0
    assert database.call(stored.load_version, "", "ELI5", 3) is None
    assert [(s.name, s.versions) for s in database.call(stored.list_prompts, "")] == [("ELI5", [(1, 10.0), (2, 20.0)]), ("Other", [(1, 30.0)])]


def test_a_label_points_at_one_version_and_moves(tmp_path: Path) -> None:
    database = Database.at(tmp_path)
    for text in ("one", "two"):
        database.call(stored.save_version, "", "ELI5", _content(text), 1.0)
    assert database.call(stored.set_label, "", "ELI5", "production", 1, 2.0)
    assert database.call(stored.labelled, "", "ELI5", "production") == 1
    assert database.call(stored.set_label, "", "ELI5", "production", 2, 3.0)
    assert database.call(stored.labelled, "", "ELI5", "production") == 2
    assert not database.call(stored.set_label, "", "ELI5", "production", 9, 4.0), "no label on a version that does not exist"
    assert database.call(stored.list_prompts, "")[0].labels == {"production": 2}


def test_each_owner_sees_only_their_own_prompts_and_partials(tmp_path: Path) -> None:
    database = Database.at(tmp_path)
    database.call(stored.save_version, "visitor:a", "ELI5", _content("a's"), 1.0)
    database.call(stored.save_partial, "visitor:a", "tone", "warm", 1.0)
    assert database.call(stored.list_prompts, "visitor:b") == []
    assert database.call(stored.load_version, "visitor:b", "ELI5", 1) is None
    assert database.call(stored.partials, "visitor:b") == {}
    assert not database.call(stored.set_label, "visitor:b", "ELI5", "production", 1, 2.0)
    assert database.call(stored.save_version, "visitor:b", "ELI5", _content("b's"), 3.0) == 1, "the same name is another prompt"
    mine = database.call(stored.load_version, "visitor:a", "ELI5", 1)
    assert mine is not None and mine.content["system"] == "a's"
    assert list(database.call(stored.export_library, "visitor:b").prompts) == ["ELI5"]
    assert database.call(stored.export_library, "visitor:b").prompts["ELI5"][0][0].content["system"] == "b's"


def test_an_import_adds_new_versions_and_moves_labels_to_them(tmp_path: Path) -> None:
    database = Database.at(tmp_path)
    database.call(stored.save_version, "", "ELI5", _content("kept"), 1.0)
    records = stored.LibraryRecords({"ELI5": ([stored.StoredVersion(1, 5.0, _content("imported 1")), stored.StoredVersion(2, 6.0, _content("imported 2"))],
                                              {"production": 1})}, {"tone": "warm"})
    assert database.call(stored.import_library, "", records, 9.0) == {"ELI5": [2, 3]}
    assert database.call(stored.labelled, "", "ELI5", "production") == 2
    kept = database.call(stored.load_version, "", "ELI5", 1)
    assert kept is not None and kept.content["system"] == "kept"
    assert database.call(stored.partials, "") == {"tone": "warm"}


def test_an_owners_library_is_bounded_and_a_refused_import_adds_nothing(tmp_path: Path) -> None:
    database = Database.at(tmp_path)
    for text in ("one", "two"):
        database.call(stored.save_version, "visitor:a", "Full", _content(text), 1.0, 2)
    with pytest.raises(stored.LibraryFull):
        database.call(stored.save_version, "visitor:a", "Full", _content("three"), 1.0, 2)
    assert database.call(stored.save_version, "visitor:b", "Full", _content("b"), 1.0, 2) == 1, "the limit is per owner"
    records = stored.LibraryRecords({"More": ([stored.StoredVersion(1, 1.0, _content("x"))], {})}, {"tone": "warm"})
    with pytest.raises(stored.LibraryFull):
        database.call(stored.import_library, "visitor:a", records, 2.0, 2, 10)
    assert [s.name for s in database.call(stored.list_prompts, "visitor:a")] == ["Full"] and database.call(stored.partials, "visitor:a") == {}
    database.call(stored.save_partial, "visitor:a", "tone", "warm", 1.0, 1)
    database.call(stored.save_partial, "visitor:a", "tone", "warmer", 1.0, 1)  # replacing one is not adding one
    with pytest.raises(stored.LibraryFull):
        database.call(stored.save_partial, "visitor:a", "other", "x", 1.0, 1)


WORKER = """
import sys
from playground.store import prompts
from playground.store.database import Database
database = Database.at(sys.argv[1])
number = 0
while True:
    number = database.call(prompts.save_version, "", "kept", {"format": "chat", "system": f"version {number + 1}"}, float(number))
    print(number, flush=True)
"""


def test_saved_versions_survive_a_process_killed_with_sigkill(tmp_path: Path) -> None:
    worker = subprocess.Popen([sys.executable, "-c", WORKER, str(tmp_path)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert worker.stdout is not None
    confirmed = [int(worker.stdout.readline()) for _ in range(25)]
    worker.send_signal(signal.SIGKILL)
    worker.wait()
    database = Database.at(tmp_path)
    listed = database.call(stored.list_prompts, "")
    numbers = [number for number, _ in listed[0].versions]
    assert numbers[:25] == confirmed and numbers == list(range(1, len(numbers) + 1)), "every confirmed version is there, none half-written"
    for number in numbers:
        version = database.call(stored.load_version, "", "kept", number)
        assert version is not None and version.content["system"] == f"version {number}"
    assert database.call(stored.save_version, "", "kept", {"format": "chat"}, 1.0) == len(numbers) + 1
