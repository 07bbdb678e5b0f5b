"""An imported suite's files, bounded before anything is parsed: how many files, each file's and
all files' bytes, UTF-8 text, YAML read without YAML 1.1's surprises (`yes`, `no`, `on`, `off` stay
text, as in promptfoo's YAML 1.2) with its nesting, aliases and nodes counted as it is composed, a
structure's expanded size measured before anything walks it, and the reading's time. `file://`
references resolve only to another file of the same upload, by name; never to the server's disk.
Every refusal is a `SuiteError` naming what and where."""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, ClassVar

import yaml

from playground.client.json_depth import deeper_than
from playground.client.texts import Text
from playground.client.errors import ProblemsError

MAX_FILES = 20
MAX_FILE_BYTES = 20_000_000
MAX_TOTAL_BYTES = 50_000_000
MAX_CONFIG_BYTES = 1_000_000
"""A promptfoo config or an OpenAI eval object (its data may be in a larger CSV or JSONL beside it)."""
MAX_DEPTH = 32
MAX_ALIASES = 100
MAX_NODES = 200_000
SECONDS = 10.0


class SuiteError(ProblemsError):
    """A suite that cannot be imported: every problem, each naming what and where."""


def refuse(problem: str) -> SuiteError:
    return SuiteError([problem])


@dataclass
class SuiteFiles:
    """The files of one upload by name, their bytes read within the limits, and the reading's clock."""

    files: dict[str, bytes]
    started: float = field(default_factory=time.monotonic)

    @classmethod
    def read(cls, paths: list[str | Path]) -> SuiteFiles:
        if not paths:
            raise refuse(Text("import.no_files"))
        if len(paths) > MAX_FILES:
            raise refuse(Text("import.too_many_files", count=len(paths), limit=MAX_FILES))
        files: dict[str, bytes] = {}
        total = 0
        for path in map(Path, paths):
            size = path.stat().st_size
            if size > MAX_FILE_BYTES:
                raise refuse(Text("import.file_too_large", name=path.name, size=size, limit=MAX_FILE_BYTES))
            total += size
            if total > MAX_TOTAL_BYTES:
                raise refuse(Text("import.files_too_large", limit=MAX_TOTAL_BYTES))
            with path.open("rb") as handle:
                data = handle.read(MAX_FILE_BYTES + 1)
            if len(data) > MAX_FILE_BYTES:
                raise refuse(Text("import.file_too_large", name=path.name, size=len(data), limit=MAX_FILE_BYTES))
            if path.name in files:
                raise refuse(Text("import.same_name_twice", name=path.name))
            files[path.name] = data
        return cls(files)

    def check_time(self) -> None:
        if time.monotonic() - self.started > SECONDS:
            raise refuse(Text("import.took_too_long", seconds=SECONDS))

    def text(self, name: str, limit: int = MAX_FILE_BYTES) -> str:
        data = self.files[name]
        if len(data) > limit:
            raise refuse(Text("import.file_too_large", name=name, size=len(data), limit=limit))
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise refuse(Text("import.not_utf8", name=name, byte=error.start + 1)) from None
        if "\x00" in text:
            raise refuse(Text("import.nul_character", name=name))
        return text

    def resolve(self, reference: str, where: str) -> str:
        """The uploaded file a `file://` reference names (by its file name; a directory part is
        allowed but must not climb), or a refusal saying to upload it with the config."""
        raw = reference.removeprefix("file://").split(":", 1)[0].strip()
        path = PurePosixPath(raw.replace("\\", "/"))
        if not raw or path.is_absolute() or ".." in path.parts or any(ch in raw for ch in "*?[") or raw.startswith("~"):
            raise refuse(Text("import.reference_outside", reference=reference[:120], where=where))
        if path.name not in self.files:
            raise refuse(Text("import.reference_missing", reference=reference[:120], where=where, name=path.name))
        return path.name


class _BoundedLoader(yaml.SafeLoader):
    """`yaml.SafeLoader` that counts depth, aliases and nodes while composing and reads booleans
    as YAML 1.2 does (only true/false)."""

    yaml_implicit_resolvers: ClassVar[dict[Any, list[Any]]] = {key: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:bool"]
                               for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()}

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.depth = self.aliases = self.nodes = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            self.aliases += 1
            if self.aliases > MAX_ALIASES:
                raise _TooMuch(Text("import.yaml_aliases", limit=MAX_ALIASES))
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise _TooMuch(Text("import.yaml_nodes", limit=MAX_NODES))
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise _TooMuch(Text("import.yaml_depth", limit=MAX_DEPTH))
        try:
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


_BoundedLoader.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
                                     list("tTfF"))


class _TooMuch(Exception):
    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message)


def load_yaml(text: str, name: str) -> Any:
    """A YAML document within the limits (raises `SuiteError` naming the file and, for a syntax
    error, its line)."""
    if len(text) > MAX_CONFIG_BYTES:
        raise refuse(Text("import.file_too_large", name=name, size=len(text), limit=MAX_CONFIG_BYTES))
    loader = _BoundedLoader(text)
    try:
        document = loader.get_single_data()
    except _TooMuch as error:
        raise refuse(Text("import.yaml_refused", name=name, reason=error.message)) from None
    except yaml.MarkedYAMLError as error:
        line = error.problem_mark.line + 1 if error.problem_mark else 0
        raise refuse(Text("import.yaml_invalid", name=name, line=line, reason=str(error.problem or error)[:120])) from None
    except (yaml.YAMLError, RecursionError, ValueError) as error:
        raise refuse(Text("import.yaml_invalid", name=name, line=0, reason=str(error)[:120])) from None
    finally:
        loader.dispose()
    check_size(document, name)
    return document


def load_json(text: str, name: str, limit: int = MAX_CONFIG_BYTES) -> Any:
    if len(text) > limit:
        raise refuse(Text("import.file_too_large", name=name, size=len(text), limit=limit))
    if deeper_than(text, MAX_DEPTH):
        raise refuse(Text("import.json_depth", name=name, limit=MAX_DEPTH))
    try:
        document = json.loads(text, parse_constant=lambda constant: _no_constant(name, constant))
    except json.JSONDecodeError as error:
        raise refuse(Text("import.json_invalid", name=name, line=error.lineno, reason=error.msg)) from None
    check_size(document, name)
    return document


def _no_constant(name: str, constant: str) -> Any:
    raise refuse(Text("import.json_constant", name=name, constant=constant))


def check_size(document: Any, name: str) -> None:
    """Refuse a structure whose expanded size (aliases counted each time they are used) passes
    `MAX_NODES`, before anything walks it."""
    count, stack = 0, [document]
    while stack:
        item = stack.pop()
        count += 1
        if count > MAX_NODES:
            raise refuse(Text("import.yaml_refused", name=name, reason=Text("import.yaml_nodes", limit=MAX_NODES)))
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def mapping(value: Any) -> dict[str, Any]:
    """`value` when it is a mapping, else an empty one."""
    return value if isinstance(value, dict) else {}


def scalar_text(value: Any) -> str | None:
    """A data value as text (numbers as written, booleans as true/false, dates in ISO form, lists and
    objects as JSON); None for a null."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    if isinstance(value, int):
        return str(value)
    if hasattr(value, "isoformat"):
        return str(value.isoformat())
    return json.dumps(value, ensure_ascii=False, default=str)
