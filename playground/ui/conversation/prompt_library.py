"""The prompt library as the text tabs (and Batch) use it: the store opened for the event's
owner (hosted: the visitor, each their own; locally one owner), a tab's form read into a prompt
version's content and a version's content written back into a tab's fields, and the one-click
example ("Explain like I'm five", v1 and v2 with a partial)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playground.client.prompts.model import PromptContent, PromptError, checked_label, checked_name
from playground.client.prompts.partials import resolved
from playground.settings import Settings
from playground.store import prompts as stored
from playground.store.database import Database
from playground.ui.conversation.template_vars import text_of, values_of
from playground.ui.i18n import say
from playground.ui.web.owners import current_owner

SYSTEM_FIELDS = ("system", "instructions")
TOOLS_FIELDS = ("tools_json", "functions_json")
NOT_KEPT = ("auth",)
"""Fields a version does not keep: how the key travels is the visitor's, not the prompt's."""
FOLLOWS_FORMAT = ("model",)
"""Parameters that belong to one format: opened only into a tab of the format they were saved in."""
EXAMPLE_NAME = "Explain like I'm five"
EXAMPLE_PARTIAL = ("friendly-tone", "Be warm and use one everyday comparison a child knows.")
EXAMPLE_VERSIONS = (
    {"system": "Explain {{topic}} like I'm five: short sentences, everyday words.", "user": "What is {{topic}}?", "temperature": 0.3},
    {"system": "Explain {{topic}} like I'm five: short sentences, everyday words.\n{{> friendly-tone}}",
     "user": "What is {{topic}}? Answer in three sentences.", "temperature": 0.7},
)


MAX_VERSIONS = 5_000
"""Versions one owner keeps (a hosted visitor's library is bounded like everything they make)."""
MAX_PARTIALS = 500


class NoOwner(PermissionError):
    """A hosted request that names no visitor: it owns (and may open) nothing."""


def version_choice(value: Any) -> tuple[int | None, str | None]:
    """A version picker's value: (`number`, None) for "v2", (None, label) for a label."""
    text = value.strip() if isinstance(value, str) else ""
    if text[:1] == "v" and text[1:].isdigit():
        return int(text[1:]), None
    return None, text or None


def version_choices(summary: stored.PromptSummary | None) -> list[tuple[str, str]]:
    """The picker's (shown, value) pairs: each version with its labels and date, then each label."""
    if summary is None:
        return []
    by_number: dict[int, list[str]] = {}
    for label, number in summary.labels.items():
        by_number.setdefault(number, []).append(label)
    versions = [(" · ".join([f"v{number}", *by_number.get(number, []), time.strftime("%Y-%m-%d %H:%M", time.gmtime(created))]), f"v{number}")
                for number, created in reversed(summary.versions)]
    return versions + [(f"{label} → v{number}", label) for label, number in sorted(summary.labels.items())]


def content_of_form(tab: str, values: dict[str, Any], draft: Any, table: Any) -> PromptContent:
    """The tab's form as a version's content: its system prompt (instructions), the message box
    as the user message, the Variables panel's values, the tools box and every other plain field
    as a parameter (checked whole; raises `PromptError`)."""
    system = next((values[name] for name in SYSTEM_FIELDS if name in values), "")
    tools = next((values[name] for name in TOOLS_FIELDS if name in values), "")
    parameters = {name: value for name, value in values.items() if name not in SYSTEM_FIELDS + TOOLS_FIELDS + NOT_KEPT}
    user = text_of(draft)
    data = {"format": tab, "system": system or "", "messages": [{"role": "user", "content": user}] if user else [],
            "variables": values_of(table), "tools": tools or "", "parameters": parameters}
    return PromptContent.from_dict(data)


def form_of_content(tab: str, fields: Sequence[str], content: PromptContent) -> dict[str, Any]:
    """The tab's field values a version opens with (only the fields it sets): the system prompt
    into the tab's system box, the tools only into a tab of their format (their shape differs),
    each parameter into the field of its name (the model only within its format)."""
    same = content.format == tab
    values: dict[str, Any] = {}
    for name in fields:
        if name in SYSTEM_FIELDS:
            values[name] = content.system
        elif name in TOOLS_FIELDS:
            if same:
                values[name] = content.tools
        elif name in content.parameters and name not in NOT_KEPT and (same or name not in FOLLOWS_FORMAT):
            values[name] = content.parameters[name]
    return values


def variable_rows(content: PromptContent) -> list[list[str]]:
    return [[name, value] for name, value in content.variables.items()]


@dataclass(frozen=True)
class PromptLibrary:
    """The library in the store of `data_dir`; every method acts for the event's owner."""

    data_dir: Path
    hosted: bool = False

    @classmethod
    def of(cls, settings: Settings) -> PromptLibrary:
        return cls(Path(settings.data_dir), settings.hosted)

    def owner(self) -> str:
        owner = current_owner(self.hosted)
        if owner is None:
            raise NoOwner(say("plib.say.no_owner"))
        return owner

    async def _database(self) -> Database:
        return await asyncio.to_thread(Database.at, self.data_dir)  # the first open migrates: off the event loop

    async def save(self, name: str, content: PromptContent) -> tuple[str, int]:
        name, owner = checked_name(name), self.owner()
        try:
            return name, await (await self._database()).run(stored.save_version, owner, name, content.to_dict(), time.time(), MAX_VERSIONS)
        except stored.LibraryFull as full:
            raise PromptError([say("plib.say.library_full", limit=f"{full.limit:,}")]) from None

    async def listed(self) -> list[stored.PromptSummary]:
        return await (await self._database()).run(stored.list_prompts, self.owner())

    async def summary(self, name: str | None) -> stored.PromptSummary | None:
        return next((found for found in await self.listed() if found.name == name), None)

    async def version(self, name: str | None, choice: Any) -> tuple[int, PromptContent]:
        """(number, content) of the picked version or label of prompt `name` (raises `PromptError`)."""
        database, owner = await self._database(), self.owner()
        number, label = version_choice(choice)
        if not name or (number is None and label is None):
            raise PromptError([say("plib.say.pick_version")])
        if label is not None:
            number = await database.run(stored.labelled, owner, name, label)
        found = None if number is None else await database.run(stored.load_version, owner, name, number)
        if found is None or number is None:
            raise PromptError([say("plib.say.no_such_version", name=name, version=str(choice))])
        return number, PromptContent.from_dict(found.content)

    async def opened(self, name: str | None, choice: Any) -> tuple[int, PromptContent]:
        """The version with its partials included (raises `PromptError` naming a cycle or a missing one)."""
        number, content = await self.version(name, choice)
        partials = await (await self._database()).run(stored.partials, self.owner())
        return number, resolved(content, partials)

    async def label(self, name: str | None, choice: Any, label: str) -> tuple[str, int]:
        number, _ = await self.version(name, choice)
        label = checked_label(label)
        await (await self._database()).run(stored.set_label, self.owner(), name, label, number, time.time())
        return label, number

    async def save_partial(self, name: str, text: str) -> str:
        name = checked_name(name)
        if not isinstance(text, str) or len(text) > 100_000:
            raise PromptError([say("plib.say.partial_too_long")])
        try:
            await (await self._database()).run(stored.save_partial, self.owner(), name, text, time.time(), MAX_PARTIALS)
        except stored.LibraryFull as full:
            raise PromptError([say("plib.say.library_full", limit=f"{full.limit:,}")]) from None
        return name

    async def exported(self) -> stored.LibraryRecords:
        return await (await self._database()).run(stored.export_library, self.owner())

    async def imported(self, records: stored.LibraryRecords) -> dict[str, list[int]]:
        try:
            return await (await self._database()).run(stored.import_library, self.owner(), records, time.time(), MAX_VERSIONS, MAX_PARTIALS)
        except stored.LibraryFull as full:
            raise PromptError([say("plib.say.library_full", limit=f"{full.limit:,}")]) from None

    async def ensure_example(self, tab: str) -> None:
        """The example prompt (v1, v2 and its partial) for this owner and tab's format, once."""
        name = example_name(tab)
        if await self.summary(name) is not None:
            return
        await self.save_partial(*EXAMPLE_PARTIAL)
        for version in EXAMPLE_VERSIONS:
            content = PromptContent(tab, str(version["system"]), [{"role": "user", "content": str(version["user"])}], {"topic": "rain"}, "",
                                    {"temperature": version["temperature"]})
            await self.save(name, content)


def example_name(tab: str) -> str:
    return f"{EXAMPLE_NAME} ({tab})"
