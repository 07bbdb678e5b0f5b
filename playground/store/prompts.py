"""The prompt library in the store: named prompts per owner, each with immutable numbered
versions (created time, content as JSON: what the client's `prompt_library.model` checked),
labels that point at one version of their prompt (moving a label is allowed), and partials
(named snippets a prompt includes), also per owner.

Functions take the connection first and run inside one transaction of `Database`. Every query
names its owner: a hosted visitor reads and writes only their own (locally the owner is "")."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class StoredVersion:
    number: int
    created: float
    content: dict[str, Any]


@dataclass(frozen=True)
class PromptSummary:
    name: str
    versions: list[tuple[int, float]]
    """(number, created) of each version, oldest first."""
    labels: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class LibraryRecords:
    """An owner's whole library, as an export writes it and an import reads it."""

    prompts: dict[str, tuple[list[StoredVersion], dict[str, int]]]
    partials: dict[str, str]


class LibraryFull(Exception):
    """The owner's library already holds as many versions (or partials) as it may: `limit`."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        super().__init__(f"the library holds its limit of {limit}")


def _versions_of(connection: sqlite3.Connection, owner: str) -> int:
    return int(connection.execute("SELECT count(*) FROM prompt_versions v JOIN prompts p ON p.id = v.prompt_id WHERE p.owner = ?",
                                  (owner,)).fetchone()[0])


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=True, separators=(",", ":"), sort_keys=True)


def _prompt_id(connection: sqlite3.Connection, owner: str, name: str, at: float | None = None) -> int | None:
    """The prompt's row id; created (with `at`) when missing and `at` is given."""
    found = connection.execute("SELECT id FROM prompts WHERE owner = ? AND name = ?", (owner, name)).fetchone()
    if found is not None:
        return int(found[0])
    if at is None:
        return None
    cursor = connection.execute("INSERT INTO prompts (owner, name, created) VALUES (?,?,?)", (owner, name, at))
    return int(cursor.lastrowid or 0)


def save_version(connection: sqlite3.Connection, owner: str, name: str, content: dict[str, Any], at: float,
                 max_versions: int | None = None) -> int:
    """Add `content` as the next version of `owner`'s prompt `name` (created when new); its number.
    Raises `LibraryFull` when the owner already keeps `max_versions` versions."""
    if max_versions is not None and _versions_of(connection, owner) >= max_versions:
        raise LibraryFull(max_versions)
    prompt = _prompt_id(connection, owner, name, at)
    latest = connection.execute("SELECT max(number) FROM prompt_versions WHERE prompt_id = ?", (prompt,)).fetchone()[0]
    number = int(latest or 0) + 1
    connection.execute("INSERT INTO prompt_versions (prompt_id, number, created, content) VALUES (?,?,?,?)",
                       (prompt, number, at, _json(content)))
    return number


def load_version(connection: sqlite3.Connection, owner: str, name: str, number: int) -> StoredVersion | None:
    found = connection.execute(
        "SELECT v.created, v.content FROM prompt_versions v JOIN prompts p ON p.id = v.prompt_id "
        "WHERE p.owner = ? AND p.name = ? AND v.number = ?", (owner, name, number)).fetchone()
    return None if found is None else StoredVersion(number, float(found[0]), json.loads(found[1]))


def labelled(connection: sqlite3.Connection, owner: str, name: str, label: str) -> int | None:
    """The version number `label` points at (None when the prompt has no such label)."""
    found = connection.execute(
        "SELECT l.number FROM prompt_labels l JOIN prompts p ON p.id = l.prompt_id WHERE p.owner = ? AND p.name = ? AND l.label = ?",
        (owner, name, label)).fetchone()
    return None if found is None else int(found[0])


def set_label(connection: sqlite3.Connection, owner: str, name: str, label: str, number: int, at: float) -> bool:
    """Point `label` at version `number` (moving it if it pointed elsewhere); False when there is no such version."""
    if load_version(connection, owner, name, number) is None:
        return False
    prompt = _prompt_id(connection, owner, name)
    connection.execute("INSERT INTO prompt_labels (prompt_id, label, number, moved) VALUES (?,?,?,?) "
                       "ON CONFLICT (prompt_id, label) DO UPDATE SET number = excluded.number, moved = excluded.moved",
                       (prompt, label, number, at))
    return True


def list_prompts(connection: sqlite3.Connection, owner: str) -> list[PromptSummary]:
    """`owner`'s prompts by name, each with its versions and labels."""
    versions: dict[str, list[tuple[int, float]]] = {}
    for name, number, created in connection.execute(
            "SELECT p.name, v.number, v.created FROM prompts p JOIN prompt_versions v ON v.prompt_id = p.id "
            "WHERE p.owner = ? ORDER BY p.name, v.number", (owner,)):
        versions.setdefault(name, []).append((int(number), float(created)))
    labels: dict[str, dict[str, int]] = {}
    for name, label, number in connection.execute(
            "SELECT p.name, l.label, l.number FROM prompts p JOIN prompt_labels l ON l.prompt_id = p.id WHERE p.owner = ? ORDER BY l.label",
            (owner,)):
        labels.setdefault(name, {})[label] = int(number)
    return [PromptSummary(name, found, labels.get(name, {})) for name, found in versions.items()]


def save_partial(connection: sqlite3.Connection, owner: str, name: str, text: str, at: float, max_partials: int | None = None) -> None:
    """Keep (or replace) `owner`'s partial `name`; raises `LibraryFull` for a new one past `max_partials`."""
    if max_partials is not None and name not in partials(connection, owner) and len(partials(connection, owner)) >= max_partials:
        raise LibraryFull(max_partials)
    connection.execute("INSERT INTO prompt_partials (owner, name, text, saved) VALUES (?,?,?,?) "
                       "ON CONFLICT (owner, name) DO UPDATE SET text = excluded.text, saved = excluded.saved", (owner, name, text, at))


def partials(connection: sqlite3.Connection, owner: str) -> dict[str, str]:
    return {name: text for name, text in connection.execute("SELECT name, text FROM prompt_partials WHERE owner = ? ORDER BY name", (owner,))}


def export_library(connection: sqlite3.Connection, owner: str) -> LibraryRecords:
    """Everything `owner` keeps in the library."""
    prompts: dict[str, tuple[list[StoredVersion], dict[str, int]]] = {}
    for summary in list_prompts(connection, owner):
        kept = [load_version(connection, owner, summary.name, number) for number, _ in summary.versions]
        prompts[summary.name] = ([version for version in kept if version is not None], dict(summary.labels))
    return LibraryRecords(prompts, partials(connection, owner))


def import_library(connection: sqlite3.Connection, owner: str, records: LibraryRecords, at: float,
                   max_versions: int | None = None, max_partials: int | None = None) -> dict[str, list[int]]:
    """Add an imported library (already checked whole) to `owner`'s, in this one transaction: each
    imported version becomes the next version of the prompt of its name (nothing of before is
    overwritten), a label points at the new number of its version, a partial replaces one of its
    name. The new numbers per prompt; raises `LibraryFull` (nothing imported) past either limit."""
    incoming = sum(len(versions) for versions, _ in records.prompts.values())
    if max_versions is not None and _versions_of(connection, owner) + incoming > max_versions:
        raise LibraryFull(max_versions)
    if max_partials is not None and len(set(partials(connection, owner)) | set(records.partials)) > max_partials:
        raise LibraryFull(max_partials)
    added: dict[str, list[int]] = {}
    for name, (versions, labels) in records.prompts.items():
        renumbered = {version.number: save_version(connection, owner, name, version.content, at) for version in versions}
        added[name] = list(renumbered.values())
        for label, number in labels.items():
            set_label(connection, owner, name, label, renumbered[number], at)
    for name, text in records.partials.items():
        save_partial(connection, owner, name, text, at)
    return added
