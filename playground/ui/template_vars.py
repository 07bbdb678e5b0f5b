"""The "Variables" panel of the conversation tabs: when the message has `{{name}}` placeholders
(the Batch tab's template syntax), a table of their values appears, and the message is sent
with them filled in. A placeholder without a value is named and nothing is sent, so a prompt
tried by hand moves to Batch unchanged, and back."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import gradio as gr

from playground.ui.i18n import t

from playground.client.batch.template import TemplateError, parse
from playground.client.errors import RequestValidationError

HEADERS = ["variable", "value"]


def _values(table: Any) -> dict[str, str]:
    values: dict[str, str] = {}
    for row in table if isinstance(table, list) else []:
        if isinstance(row, (list, tuple)) and len(row) >= 2 and isinstance(row[0], str) and row[0].strip():
            values[row[0].strip()] = "" if row[1] is None else str(row[1])
    return values


def rows_for(text: str, table: Any) -> list[list[str]]:
    """The table for `text`'s placeholders, keeping values already typed."""
    try:
        names = parse(text or "").names
    except TemplateError:
        return []
    known = _values(table)
    return [[name, known.get(name, "")] for name in names]


def fill_draft(draft: Any, table: Any) -> Any:
    """The draft with its placeholders filled (raises `RequestValidationError` naming what is missing)."""
    text = draft.get("text", "") if isinstance(draft, dict) else (draft or "")
    if "{{" not in text:
        return draft
    try:
        template = parse(text, "the message")
    except TemplateError as error:
        raise RequestValidationError([str(error)]) from None
    values = {name: value for name, value in _values(table).items() if value != ""}
    missing = [name for name in template.names if name not in values]
    if missing:
        raise RequestValidationError(["fill in the Variables panel: no value for " + ", ".join(f"{{{{{n}}}}}" for n in missing)])
    filled = template.render(values)
    return {**draft, "text": filled} if isinstance(draft, dict) else filled


@dataclass
class VariablesPanel:
    group: gr.Accordion
    table: gr.Dataframe

    @classmethod
    def build(cls, prefix: str) -> VariablesPanel:
        with gr.Accordion(t("batch_vars.variables"), open=True, visible=False, elem_id=f"{prefix}-variables") as group:
            table = gr.Dataframe(headers=HEADERS, column_count=2, type="array", interactive=True, static_columns=[0],
                                 elem_id=f"{prefix}-variables-table", label=t("batch_vars.name_placeholders_in_your"))
        return cls(group, table)

    def watch(self, draft: gr.MultimodalTextbox) -> None:
        def changed(value: Any, table: Any) -> tuple[Any, Any]:
            text = value.get("text", "") if isinstance(value, dict) else (value or "")
            rows = rows_for(text, table) if "{{" in text else []
            return gr.update(visible=bool(rows)), rows if rows else gr.skip()

        draft.change(changed, [draft, self.table], [self.group, self.table], queue=False, show_progress="hidden", trigger_mode="always_last")
