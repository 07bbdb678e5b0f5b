"""Partials: a snippet kept by name and included in a prompt's system prompt or messages as
`{{> name}}`, resolved when a version is opened (so a change to a partial reaches every prompt
that includes it). A partial may include others, at most `MAX_DEPTH` deep; a cycle, a missing
partial and a result longer than `MAX_RESOLVED` characters are refused, each named."""

from __future__ import annotations

import re
from collections.abc import Mapping

from playground.client.prompts.model import PromptContent, PromptError
from playground.client.texts import Text

INCLUDE = re.compile(r"\{\{>\s*([^{}\s][^{}]*?)\s*\}\}")
MAX_DEPTH = 8
MAX_RESOLVED = 200_000


def included(text: str) -> list[str]:
    """The partial names `text` includes, in order of first use."""
    names: list[str] = []
    for name in INCLUDE.findall(text or ""):
        if name not in names:
            names.append(name)
    return names


def resolve_text(text: str, partials: Mapping[str, str], where: str) -> str:
    """`text` with every `{{> name}}` replaced by its partial (recursively); raises `PromptError`."""
    return _resolve(text, partials, where, ())


def _resolve(text: str, partials: Mapping[str, str], where: str, chain: tuple[str, ...]) -> str:
    if "{{>" not in text:
        return text
    if len(chain) >= MAX_DEPTH:
        raise PromptError([Text("prompts.partials_too_deep", where=where, limit=MAX_DEPTH, chain=" → ".join(chain))])
    pieces: list[str] = []
    size, last = 0, 0
    for match in INCLUDE.finditer(text):
        name = match.group(1)
        if name in chain:
            raise PromptError([Text("prompts.partial_cycle", where=where, chain=" → ".join((*chain, name)))])
        if name not in partials:
            raise PromptError([Text("prompts.partial_missing", where=where, name=name)])
        inner = _resolve(partials[name], partials, where, (*chain, name))
        pieces += [text[last:match.start()], inner]
        size += match.start() - last + len(inner)
        last = match.end()
        if size > MAX_RESOLVED:
            raise PromptError([Text("prompts.partials_too_long", where=where, limit=MAX_RESOLVED)])
    pieces.append(text[last:])
    resolved = "".join(pieces)
    if len(resolved) > MAX_RESOLVED:
        raise PromptError([Text("prompts.partials_too_long", where=where, limit=MAX_RESOLVED)])
    return resolved


def resolved(content: PromptContent, partials: Mapping[str, str]) -> PromptContent:
    """`content` with its partials included in the system prompt and every message (raises
    `PromptError` naming every problem)."""
    problems: list[str] = []

    def one(text: str, where: str) -> str:
        try:
            return resolve_text(text, partials, where)
        except PromptError as error:
            problems.extend(error.problems)
            return text

    system = one(content.system, Text("prompts.in_system"))
    messages = [{"role": m["role"], "content": one(m["content"], Text("prompts.in_message", index=index))}
                for index, m in enumerate(content.messages, 1)]
    if problems:
        raise PromptError(problems)
    return PromptContent(content.format, system, messages, dict(content.variables), content.tools, dict(content.parameters))
