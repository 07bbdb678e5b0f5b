"""A Batch column that sends a prompt library version instead of the run's prompt: the column's
"prompt from the library" picker (each prompt's versions and labels, as `Name @ v2` or
`Name @ production`, refreshed when it is opened) and, when a run starts, each picked version read
for the run's owner with its partials included, so the plan (and its run file) keeps the very
templates the column sends; and the one-click example that runs "Explain like I'm five" v1 and v2
side by side over three topics."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import gradio as gr

from playground.client.batch.plan import ColumnPrompt, PlanError
from playground.client.prompts.model import PromptError
from playground.ui.conversation.prompt_library import NoOwner, PromptLibrary, example_name
from playground.ui.i18n import say, t

SEPARATOR = " @ "
EXAMPLE_TOPICS = "rain\nthe moon\nrainbows"
EXAMPLE_USER = "What is {{topic}}?"
EXAMPLE_MODEL = "gx-2.5-flash"
RUN_PROMPT = ""
"""The picker's value for "the run's prompt" (no version of the library)."""


def reference(name: str, choice: str) -> str:
    return f"{name}{SEPARATOR}{choice}"


def parse_reference(value: Any) -> tuple[str, str] | None:
    """(prompt name, version or label) of a picker value; None for the run's prompt."""
    text = value.strip() if isinstance(value, str) else ""
    if SEPARATOR not in text:
        return None
    name, choice = text.rsplit(SEPARATOR, 1)
    return name, choice


def prompt_picker(prefix: str, index: int) -> gr.Dropdown:
    """One column's picker (under its own settings)."""
    return gr.Dropdown([(t("batch_col.run_prompt"), RUN_PROMPT)], value=RUN_PROMPT, allow_custom_value=True, label=t("batch_col.prompt"),
                       elem_id=f"{prefix}-col-prompt-{index}")


@dataclass(frozen=True)
class ColumnPrompts:
    library: PromptLibrary

    async def choices(self, current: Any) -> Any:
        """The picker's choices: the run's prompt, then every version and label of the owner's prompts."""
        try:
            listed = await self.library.listed()
        except NoOwner:
            listed = []
        refs = [reference(found.name, f"v{number}") for found in listed for number, _ in reversed(found.versions)]
        refs += [reference(found.name, label) for found in listed for label in sorted(found.labels)]
        return gr.update(choices=[(t("batch_col.run_prompt"), RUN_PROMPT), *((ref, ref) for ref in refs)], value=current if current else RUN_PROMPT)

    async def resolved(self, values: Sequence[Any], positions: Sequence[int]) -> list[Any]:
        """`values` with each picker at `positions` replaced by its `ColumnPrompt` (None for the
        run's prompt); raises `PlanError` naming every column whose version cannot be read."""
        out, problems = list(values), []
        for column, position in enumerate(positions, 1):
            picked = parse_reference(out[position])
            if picked is None:
                out[position] = None
                continue
            try:
                number, content = await self.library.opened(*picked)
            except (PromptError, NoOwner) as error:
                problems += [say("batch_col.say.prompt_refused", number=column, problem=str(problem))
                             for problem in getattr(error, "problems", [str(error)])]
                continue
            out[position] = ColumnPrompt(picked[0], number, content.system, content.user)
        if problems:
            raise PlanError(problems)
        return out


@dataclass(frozen=True)
class PromptVersionsExample:
    """The example: the library's "Explain like I'm five" prompt kept for this owner (once), two
    columns of one model sending its v1 and v2, and three topics as the data set (read as a paste is)."""

    library: PromptLibrary
    load: Callable[..., Awaitable[tuple[Any, ...]]]
    """The tab's paste handler: (state, pasted, system, user) -> (state, what the page shows of the data set)."""
    pickers: int
    """How many format and model pickers the form has (two per column slot)."""
    shown: int
    """How many values the paste handler gives after the state (what the page shows of a data set)."""

    async def fill(self, batch: Any) -> tuple[Any, ...]:
        """(state, what the page shows of the data set (`data_shown`), paste box, system, user, every column picker, every column's prompt picker)."""
        try:
            await self.library.ensure_example("chat")
        except (PromptError, NoOwner) as error:
            problem = getattr(error, "problems", [str(error)])[0]
            return (batch, say("batch_col.say.prompt_refused", number=1, problem=str(problem)),
                    *(gr.skip(),) * (self.shown - 1 + 3 + self.pickers + self.pickers // 2))
        name = example_name("chat")
        loaded = await self.load(batch, EXAMPLE_TOPICS, "", EXAMPLE_USER)
        pickers = ["chat", EXAMPLE_MODEL, "chat", EXAMPLE_MODEL] + [""] * (self.pickers - 4)
        prompts = [reference(name, "v1"), reference(name, "v2")] + [RUN_PROMPT] * (self.pickers // 2 - 2)
        return (*loaded, EXAMPLE_TOPICS, "", EXAMPLE_USER, *pickers, *prompts)
