"""What the prompt library's events run in a text tab (`PromptHandlers`, bound to the tab, its
field names, the tab's request check and the library; the tests call the same methods): save the
form as a new version, pick a prompt, open a version or label into the form (partials included,
the values checked against the controls and the tab's request before anything changes), set a
label, diff two versions, save a partial, export and import the library file, and the example."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import gradio as gr

from playground.client.errors import RequestValidationError
from playground.client.prompts.diff import diff_text, diff_versions
from playground.client.prompts.files import MAX_FILE_BYTES, export_bytes, read_library
from playground.client.prompts.model import PromptError
from playground.gradio_compat import current_request
from playground.ui.conversation.prompt_library import (
    NoOwner, PromptLibrary, content_of_form, example_name, form_of_content, variable_rows, version_choices,
)
from playground.ui.conversation.template_vars import table_value
from playground.ui.i18n import say
from playground.ui.i18n.client_words import word_list
from playground.ui.shared.form_check import RequestCheck, check_whole
from playground.ui.shared.render import plain
from playground.ui.web.owned_files import owned_folder

LIBRARY_FILE = "prompt-library.json"


def refused(error: Exception) -> str:
    problems = getattr(error, "problems", None) or [str(error)]
    return say("plib.say.refused", problems=plain(word_list(problems)))


@dataclass
class PromptHandlers:
    tab: str
    fields: dict[str, Any]
    """The tab's form components by field name, in the order the events send their values."""
    library: PromptLibrary
    check: RequestCheck | None = None

    @property
    def names(self) -> list[str]:
        return list(self.fields)

    def _pickers(self, summary: Any, value: str | None = None) -> tuple[Any, Any, Any]:
        """(version picker, diff from, diff to) for a prompt's versions and labels."""
        choices = version_choices(summary)
        newest = choices[0][1] if choices else None
        older = choices[1][1] if len(choices) > 1 and choices[1][1].startswith("v") else newest
        return (gr.update(choices=choices, value=value or newest), gr.update(choices=choices, value=older),
                gr.update(choices=choices, value=newest))

    async def prompt_names(self) -> Any:
        """The prompt picker's choices (on focus: another tab may have saved one)."""
        try:
            return gr.update(choices=[found.name for found in await self.library.listed()])
        except NoOwner:
            return gr.update(choices=[])

    async def pick(self, name: str | None) -> tuple[Any, ...]:
        """A prompt picked: its versions and labels in the version and diff pickers."""
        try:
            return self._pickers(await self.library.summary(name))
        except NoOwner:
            return self._pickers(None)

    async def save(self, name: str, draft: Any, table: Any, *values: Any) -> tuple[Any, ...]:
        """(status, prompt picker, version picker, diff from, diff to) after saving the form as the next version of `name`."""
        try:
            content = content_of_form(self.tab, dict(zip(self.names, values)), draft, table)
            saved, number = await self.library.save(name, content)
            summary = await self.library.summary(saved)
            names = [found.name for found in await self.library.listed()]
        except (PromptError, NoOwner) as error:
            return (refused(error), *(gr.skip(),) * 4)
        return (say("plib.say.saved", name=plain(saved), number=number), gr.update(choices=names, value=saved), *self._pickers(summary, f"v{number}"))

    async def open(self, name: str | None, choice: Any, *current: Any) -> tuple[Any, ...]:
        """(every field, message box, Variables table, Variables panel, status): the version (or the
        label's) opened into the form, partials included; nothing changes when any value is refused."""
        skipped = (*(gr.skip(),) * (len(self.names) + 3),)
        try:
            number, content = await self.library.opened(name, choice)
            opened = form_of_content(self.tab, self.names, content)
            check_whole(self.fields, {**dict(zip(self.names, current)), **opened}, [], self.check)
        except (PromptError, RequestValidationError, NoOwner) as error:
            return (*skipped, refused(error))
        rows = variable_rows(content)
        note = say("plib.say.opened", name=plain(name or ""), number=number)
        if len(content.messages) > 1:
            note += " " + say("plib.say.earlier_messages", count=len(content.messages) - 1)
        if content.format != self.tab:
            note += " " + say("plib.say.other_format", saved=content.format)
        return (*(opened.get(field, gr.skip()) for field in self.names), {"text": content.user, "files": []}, table_value(rows),
                gr.update(visible=bool(rows)), note)

    async def label(self, name: str | None, choice: Any, label: str) -> tuple[Any, ...]:
        """(status, version picker, diff from, diff to) after pointing `label` at the picked version."""
        try:
            label, number = await self.library.label(name, choice, label)
            summary = await self.library.summary(name)
        except (PromptError, NoOwner) as error:
            return (refused(error), *(gr.skip(),) * 3)
        return (say("plib.say.labelled", label=plain(label), name=plain(name or ""), number=number), *self._pickers(summary, f"v{number}"))

    async def diff(self, name: str | None, before: Any, after: Any) -> tuple[Any, Any]:
        """(the difference as text, status) of two versions (or labels) of a prompt, as saved (partials not included)."""
        try:
            old_number, old = await self.library.version(name, before)
            new_number, new = await self.library.version(name, after)
        except (PromptError, NoOwner) as error:
            return gr.skip(), refused(error)
        changes = diff_versions(old, new, f"v{old_number}", f"v{new_number}")
        if not changes:
            return "", say("plib.say.same", before=old_number, after=new_number)
        return diff_text(changes), say("plib.say.differ", count=len(changes), before=old_number, after=new_number)

    async def save_partial(self, name: str, text: str) -> str:
        try:
            saved = await self.library.save_partial(name, text)
        except (PromptError, NoOwner) as error:
            return refused(error)
        return say("plib.say.partial_saved", name=plain(saved))

    async def export(self) -> tuple[Any, str]:
        """(the library file to download, status): every prompt, version, label and partial of the owner."""
        try:
            owner = self.library.owner()
            records = await self.library.exported()
        except NoOwner as error:
            return gr.skip(), refused(error)
        folder = owned_folder("prompts", owner, current_request())
        path = folder / LIBRARY_FILE
        path.write_bytes(export_bytes(records))
        return gr.update(value=str(path), visible=True), say("plib.say.exported", count=len(records.prompts))

    async def import_file(self, upload: Any) -> tuple[str, Any]:
        """(status, prompt picker) after importing a library file, read bounded and checked whole
        (a problem anywhere saves nothing); each imported version is added after the ones kept."""
        path = upload if isinstance(upload, str) else getattr(upload, "name", None)
        try:
            with open(str(path), "rb") as handle:
                data = handle.read(MAX_FILE_BYTES + 1)
            records = read_library(data)
            added = await self.library.imported(records)
            names = [found.name for found in await self.library.listed()]
        except OSError:
            return say("plib.say.unreadable"), gr.skip()
        except (PromptError, NoOwner) as error:
            return refused(error), gr.skip()
        versions = sum(len(numbers) for numbers in added.values())
        return say("plib.say.imported", prompts=len(added), versions=versions, partials=len(records.partials)), gr.update(choices=names)

    async def example(self, *current: Any) -> tuple[Any, ...]:
        """The one-click example: "Explain like I'm five" v1 and v2 (with a partial) kept for this
        owner once, v2 opened into the form and its difference from v1 shown."""
        try:
            await self.library.ensure_example(self.tab)
        except (PromptError, NoOwner) as error:
            return (*(gr.skip(),) * (len(self.names) + 3), refused(error), *(gr.skip(),) * 6)
        name = example_name(self.tab)
        opened = await self.open(name, "v2", *current)
        summary = await self.library.summary(name)
        names = [found.name for found in await self.library.listed()]
        versions = version_choices(summary)
        shown, _ = await self.diff(name, "v1", "v2")
        return (*opened, gr.update(choices=names, value=name), gr.update(choices=versions, value="v2"),
                gr.update(choices=versions, value="v1"), gr.update(choices=versions, value="v2"), shown, name)

