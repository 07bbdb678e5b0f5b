"""`{{name}}` prompt templates: the placeholders a text uses, rendering a row into it, and the
check that names missing and unused variables before anything is sent.

Syntax: `{{name}}` (spaces inside the braces are ignored; a name is any text without braces or
line breaks, so a CSV header such as `product name` works). `\\{{` writes a literal `{{`. A `{{`
that does not start a placeholder is an error with its position, never sent silently.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

from playground.client.texts import Text

THE_PROMPT = Text("batch.template.prompt")
"""What a refusal calls a template when the caller does not name it."""

_TOKEN = re.compile(r"\\\{\{|\{\{([^{}\n]*)\}\}|\{\{")
TOKEN_PATTERN: str = _TOKEN.pattern
"""The syntax as a regular expression (the page derives the Variables panel's key from it, `ui/conversation/draft_keys.py`)."""
MAX_NAME_CHARS = 64
RESERVED = frozenset({"expected"})
"""Data set columns that are never a variable's value by default (the graders read them)."""
GRADER_PREFIX = "__"
"""Columns named `__…` carry a grader's value row by row (an imported suite's per-test assertions)."""


class TemplateError(ValueError):
    """A template that cannot be used, with where and why."""


@dataclass(frozen=True)
class Template:
    pieces: tuple[str | tuple[str], ...]
    """Literal text, or a one-element tuple holding a variable's name."""

    @property
    def names(self) -> list[str]:
        return list(dict.fromkeys(piece[0] for piece in self.pieces if isinstance(piece, tuple)))

    def render(self, values: Mapping[str, str]) -> str:
        """The text with every placeholder replaced (raises `TemplateError` naming a missing one)."""
        out = []
        for piece in self.pieces:
            if isinstance(piece, tuple):
                if piece[0] not in values:
                    raise TemplateError(Text("batch.template.no_value_variable", piece=piece[0]))
                out.append(str(values[piece[0]]))
            else:
                out.append(piece)
        return "".join(out)


def parse(text: str, where: str = THE_PROMPT) -> Template:
    """Split `text` into literals and placeholders (raises `TemplateError` with the position)."""
    return _parse(text or "", where)


@lru_cache(maxsize=32)
def _parse(text: str, where: str) -> Template:
    # a run fills the same few templates for every cell: each is parsed once (a refusal is not cached and is raised again);
    # a few, as a prompt may be long and the process serves many visitors
    pieces: list[str | tuple[str]] = []
    position = 0
    for match in _TOKEN.finditer(text or ""):
        literal = text[position:match.start()]
        position = match.end()
        token = match.group(0)
        if token == "\\{{":
            pieces.append(literal + "{{")
            continue
        if match.group(1) is None:
            line = text.count("\n", 0, match.start()) + 1
            column = match.start() - (text.rfind("\n", 0, match.start()) + 1) + 1
            raise TemplateError(Text("batch.template.line_does_not_start_placeholder", where=where, line=line, column=column))
        name = match.group(1).strip()
        if not name or len(name) > MAX_NAME_CHARS:
            raise TemplateError(Text("batch.template.placeholder_needs_name_1_characters", where=where, max_name_chars=MAX_NAME_CHARS, match=match.start() + 1))
        pieces += [literal, (name,)]
    pieces.append((text or "")[position:])
    return Template(tuple(piece for piece in pieces if piece != ""))


def variables_of(texts: Iterable[str]) -> list[str]:
    """Every variable the texts use, in order of first use (raises `TemplateError`)."""
    names: list[str] = []
    for text in texts:
        names += parse(text).names
    return list(dict.fromkeys(names))


def check_variables(used: Iterable[str], available: Iterable[str]) -> list[str]:
    """Problems to show before sending: variables with no column, columns no placeholder uses
    (`expected`, other reserved columns and `__` grader columns are never reported as unused)."""
    used, available = list(used), list(available)
    problems: list[str] = []
    missing = [name for name in used if name not in available]
    unused = [name for name in available if name not in used and name not in RESERVED and not name.startswith(GRADER_PREFIX)]
    if missing:
        problems.append(Text("batch.template.no_value", value=", ".join(f"{{{{{name}}}}}" for name in missing)))
    if unused:
        problems.append(Text("batch.template.not_used_prompt", value=", ".join(unused)))
    return problems


def fill(text: str, values: Mapping[str, str], where: str = THE_PROMPT) -> str:
    """Parse and render in one step (raises `TemplateError`)."""
    return parse(text, where).render(values)
