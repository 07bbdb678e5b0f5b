"""The "Variables" panel of the conversation tabs: when the message or the system prompt has
`{{name}}` placeholders (the Batch tab's template syntax), a table of their values appears, and
both are sent with them filled in. A placeholder without a value is named and nothing is sent,
so a prompt tried by hand moves to Batch unchanged, and back. The table's headings are part of its value
(Gradio cannot translate a table's headings): every writer of the table writes them in the visitor's
language (`table_value`), and the header's language switch writes them again (`VariablesPanel.reword`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import gradio as gr

from playground.ui.conversation import draft_keys
from playground.ui.i18n import english, say, t

from playground.client.batch.template import TemplateError, parse
from playground.client.errors import RequestValidationError

HEADINGS = ("batch_vars.heading_variable", "batch_vars.heading_value")
"""The catalogue keys of the table's two headings."""


def table_value(rows: list[list[str]]) -> dict[str, Any]:
    """The Variables table's value: `rows` under headings in the visitor's language."""
    return {"headers": [say(key) for key in HEADINGS], "data": rows}


def values_of(table: Any) -> dict[str, str]:
    """The table's {name: value} (rows without a name are ignored)."""
    values: dict[str, str] = {}
    for row in table if isinstance(table, list) else []:
        if isinstance(row, (list, tuple)) and len(row) >= 2 and isinstance(row[0], str) and row[0].strip():
            values[row[0].strip()] = "" if row[1] is None else str(row[1])
    return values


def text_of(draft: Any) -> str:
    return (draft.get("text", "") if isinstance(draft, dict) else draft) or ""


def names_in(texts: Sequence[str]) -> list[str]:
    """The placeholders of `texts` in order of first use (a text with a template error adds none)."""
    names: list[str] = []
    for text in texts:
        try:
            names += [name for name in parse(text or "").names if name not in names]
        except TemplateError:
            continue
    return names


def rows_for(text: str | Sequence[str], table: Any) -> list[list[str]]:
    """The table for the placeholders of `text` (or of several texts), keeping values already typed."""
    known = values_of(table)
    return [[name, known.get(name, "")] for name in names_in([text] if isinstance(text, str) else text)]


def fill_text(text: str, table: Any, where: str) -> str:
    """`text` with its placeholders filled (raises `RequestValidationError` naming what is missing and where)."""
    if "{{" not in (text or ""):
        return text
    try:
        template = parse(text, where)
    except TemplateError as error:
        raise RequestValidationError([str(error)]) from None
    values = {name: value for name, value in values_of(table).items() if value != ""}
    missing = [name for name in template.names if name not in values]
    if missing:
        raise RequestValidationError([f"fill in the Variables panel: no value for {', '.join(f'{{{{{n}}}}}' for n in missing)} in {where}"])
    return template.render(values)


def fill_draft(draft: Any, table: Any) -> Any:
    """The draft with its placeholders filled (raises `RequestValidationError` naming what is missing)."""
    if "{{" not in text_of(draft):
        return draft
    filled = fill_text(text_of(draft), table, "the message")
    return {**draft, "text": filled} if isinstance(draft, dict) else filled


def fill_form(form: Sequence[Any], system_at: int | None, table: Any, where: str = "the system prompt") -> list[Any]:
    """A tab's form values with its system prompt / instructions (at `system_at`) filled; `where`
    names the box in a refusal."""
    values = list(form)
    if system_at is not None and isinstance(values[system_at], str):
        values[system_at] = fill_text(values[system_at], table, where)
    return values


@dataclass
class VariablesPanel:
    group: gr.Accordion
    table: gr.Dataframe
    key: gr.Textbox
    """The placeholders the page sees (`draft_keys`): the panel asks the server only when they change."""
    prefix: str = ""

    @classmethod
    def build(cls, prefix: str) -> VariablesPanel:
        with gr.Accordion(t("batch_vars.variables"), open=True, visible=False, elem_id=f"{prefix}-variables") as group:
            table = gr.Dataframe(headers=[english(key) for key in HEADINGS], column_count=2, type="array", interactive=True, static_columns=[0],
                                 elem_id=f"{prefix}-variables-table", label=t("batch_vars.name_placeholders_in_your"))
        key = draft_keys.key_box(f"{prefix}-variables-key")
        return cls(group, table, key, prefix)

    def watch(self, draft: gr.MultimodalTextbox, system: Any | None = None, session: Any | None = None) -> None:
        """Show the table when the message (or the system box) has placeholders; with the message
        box empty after a send, the last message as typed (`Session.typed`) counts, so its values
        stay. The page derives the placeholders itself: a message without any, typed and sent,
        asks the server nothing (issue 41)."""
        sources = [draft] if system is None else [draft, system]
        self.key.value = draft_keys.initial_variables_key(getattr(system, "value", None))
        draft_keys.watch_variables(self.prefix, sources, self.key)
        inputs = [self.table, session if session is not None else gr.State(None), *sources]
        self.key.change(variables_changed, inputs, [self.group, self.table], queue=False, show_progress="hidden", trigger_mode="always_last")

    def reword(self, switched: Any) -> None:
        """After the header's language switch (`TabParts.after_language`): the table's headings in the new language."""
        switched.then(variables_reworded, self.table, self.table, queue=False, show_progress="hidden")


def variables_changed(table: Any, state: Any, *texts: Any) -> tuple[Any, Any]:
    """(panel, table) when the message or system box changes: the panel shown with a row per
    placeholder (values kept) while there are placeholders; an empty message box counts as the
    last message typed (`state.typed`)."""
    joined = [text_of(text) for text in texts]
    joined[0] = joined[0] if joined[0].strip() else getattr(state, "typed", "")
    rows = rows_for(joined, table) if any("{{" in text for text in joined) else []
    return gr.update(visible=bool(rows)), table_value(rows) if rows else gr.skip()


def variables_reworded(table: Any) -> Any:
    """After the header's language switch: the table's headings in the new language, its rows kept (skipped
    while it has none: the panel is hidden, and whatever shows it writes the headings)."""
    rows = [[name, value] for name, value in values_of(table).items()]
    return table_value(rows) if rows else gr.skip()
