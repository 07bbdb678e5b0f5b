"""A prompt version's content: the system prompt, the messages, the `{{variables}}` with their
values, the tools (as the tab's JSON text) and the parameters (the tab's other plain fields),
and the format (tab) it was saved from. Checked whole (every problem named) before anything is
saved, from a tab or a file; names and labels have rules of their own."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from playground.client.texts import Text
from playground.client.validation import is_utf8
from playground.client.errors import ProblemsError

FORMATS = ("chat", "responses", "messages", "native")
ROLES = ("user", "assistant")
MAX_NAME = 60
MAX_TEXT = 100_000
MAX_TOOLS = 200_000
MAX_MESSAGES = 50
MAX_VARIABLES = 64
MAX_PARAMETERS = 40
MAX_LIST = 50
NAME = re.compile(r"^[^\x00-\x1f\x7f]{1,60}$")
LABEL = re.compile(r"^[A-Za-z][A-Za-z0-9._-]{0,31}$")
VERSION_WORD = re.compile(r"^v\d+$")
PLAIN = (str, int, float, bool, type(None))


class PromptError(ProblemsError):
    """What is wrong with a prompt, a name or a library file: every problem named."""


@dataclass(frozen=True)
class PromptContent:
    format: str
    system: str = ""
    messages: list[dict[str, str]] = field(default_factory=list)
    variables: dict[str, str] = field(default_factory=dict)
    tools: str = ""
    parameters: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"format": self.format, "system": self.system, "messages": [dict(m) for m in self.messages],
                "variables": dict(self.variables), "tools": self.tools, "parameters": dict(self.parameters)}

    @property
    def user(self) -> str:
        """The last user message (what a tab's message box opens with)."""
        return next((m["content"] for m in reversed(self.messages) if m["role"] == "user"), "")

    @classmethod
    def from_dict(cls, data: Any, where: str = "") -> PromptContent:
        """Checked whole: raises `PromptError` naming each problem (prefixed with `where`)."""
        problems: list[str] = []
        if not isinstance(data, dict):
            raise PromptError([_at(where, Text("prompts.content_object"))])
        unknown = sorted(set(data) - {"format", "system", "messages", "variables", "tools", "parameters"})
        if unknown:
            problems.append(Text("prompts.unknown_fields", fields=", ".join(str(name) for name in unknown)))
        fmt = data.get("format")
        if fmt not in FORMATS:
            problems.append(Text("prompts.format_one_of", formats=", ".join(FORMATS)))
        system = _text(data.get("system", ""), "system", MAX_TEXT, problems)
        tools = _text(data.get("tools", ""), "tools", MAX_TOOLS, problems)
        messages = _messages(data.get("messages", []), problems)
        variables = _variables(data.get("variables", {}), problems)
        parameters = _parameters(data.get("parameters", {}), problems)
        if problems:
            raise PromptError([_at(where, problem) for problem in problems])
        return cls(str(fmt), system, messages, variables, tools, parameters)


def _at(where: str, problem: str) -> str:
    return Text("prompts.where_problem", where=where, problem=problem) if where else problem


def _text(value: Any, name: str, limit: int, problems: list[str]) -> str:
    if not isinstance(value, str):
        problems.append(Text("prompts.field_text", name=name))
        return ""
    if len(value) > limit:
        problems.append(Text("prompts.field_too_long", name=name, limit=limit))
        return ""
    if not is_utf8(value):
        problems.append(Text("prompts.field_broken_character", name=name))
        return ""
    return value


def _messages(value: Any, problems: list[str]) -> list[dict[str, str]]:
    if not isinstance(value, list) or len(value) > MAX_MESSAGES:
        problems.append(Text("prompts.messages_list", limit=MAX_MESSAGES))
        return []
    messages: list[dict[str, str]] = []
    for index, item in enumerate(value, 1):
        if not isinstance(item, dict) or set(item) != {"role", "content"} or item["role"] not in ROLES:
            problems.append(Text("prompts.message_shape", index=index, roles=", ".join(ROLES)))
            continue
        messages.append({"role": item["role"], "content": _text(item["content"], f"messages[{index}]", MAX_TEXT, problems)})
    return messages


def _variables(value: Any, problems: list[str]) -> dict[str, str]:
    if not isinstance(value, dict) or len(value) > MAX_VARIABLES:
        problems.append(Text("prompts.variables_object", limit=MAX_VARIABLES))
        return {}
    for name, text in value.items():
        if not isinstance(text, str) or not name.strip() or len(text) > MAX_TEXT or not is_utf8(name + text):
            problems.append(Text("prompts.variable_value", name=name[:60] if is_utf8(name) else "?", limit=MAX_TEXT))
            return {}
    return dict(value)


def _plain(value: Any) -> bool:
    if isinstance(value, float) and not math.isfinite(value):
        return False
    if isinstance(value, str):
        return len(value) <= MAX_TEXT and is_utf8(value)
    return isinstance(value, PLAIN)


def _parameters(value: Any, problems: list[str]) -> dict[str, Any]:
    if not isinstance(value, dict) or len(value) > MAX_PARAMETERS:
        problems.append(Text("prompts.parameters_object", limit=MAX_PARAMETERS))
        return {}
    for name, item in value.items():
        fine = _plain(item) or (isinstance(item, list) and len(item) <= MAX_LIST and all(_plain(part) for part in item))
        if not fine or not re.fullmatch(r"[a-z_][a-z0-9_]{0,40}", name):
            problems.append(Text("prompts.parameter_plain", name=name[:40] if is_utf8(name) else "?"))
    return dict(value)


def checked_name(name: Any) -> str:
    """A prompt's or a partial's name, trimmed (raises `PromptError`)."""
    text = name.strip() if isinstance(name, str) else ""
    if not NAME.match(text) or not is_utf8(text):
        raise PromptError([Text("prompts.name_rule", limit=MAX_NAME)])
    return text


def checked_label(label: Any) -> str:
    """A label (`production`, `staging-2`): a letter, then letters, digits, `.`, `_` or `-`; never `v1`-like."""
    text = label.strip() if isinstance(label, str) else ""
    if not LABEL.match(text) or VERSION_WORD.match(text):
        raise PromptError([Text("prompts.label_rule")])
    return text
