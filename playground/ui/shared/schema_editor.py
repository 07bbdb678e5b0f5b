"""The schema editor of the text tabs' structured output (Chat, Responses, Native): the JSON box
a send reads and, beside it, the same schema as a table of fields with an "Add field" row;
editing either rewrites the other (`schema_form`), the format's rules are named before sending,
and a line under the chat says whether an answer matches the schema."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

import gradio as gr

from playground.client.schema.fields import ITEM_TYPES, TYPES
from playground.ui.i18n import t
from playground.ui.shared import schema_form
from playground.ui.shared.schema_form import STRICT_FORMATS


@dataclass
class SchemaEditor:
    fmt: str
    json: gr.Code
    table: gr.Dataframe
    closed: gr.Checkbox
    strict: gr.Checkbox
    note: gr.Markdown
    example: gr.Button
    new_field: tuple[gr.Textbox, gr.Dropdown, gr.Dropdown, gr.Textbox, gr.Checkbox, gr.Textbox, gr.Textbox]
    add: gr.Button

    @staticmethod
    def verdict_line(prefix: str) -> gr.Markdown:
        """The line under a chat that says whether the last structured answer matches the schema."""
        return gr.Markdown(elem_id=f"{prefix}-schema-verdict", elem_classes=["metrics-line"])

    @classmethod
    def build(cls, prefix: str, fmt: str, label: str) -> SchemaEditor:
        """Lay out the JSON box (`label`, elem_id `<prefix>-schema`) and the form view under it."""
        json_box = gr.Code("", language="json", label=t(label), interactive=True, max_lines=18, elem_id=f"{prefix}-schema")
        example = gr.Button(t("schema_editor.example"), size="sm", elem_id=f"{prefix}-schema-example")
        note = gr.Markdown(elem_id=f"{prefix}-schema-note")
        with gr.Accordion(t("schema_editor.form"), open=True, elem_id=f"{prefix}-schema-form"):
            gr.Markdown(t("schema_editor.form_info"), elem_classes=["example-explains"])
            table = gr.Dataframe(value=schema_form.table_value(None), type="array", interactive=True, wrap=True,
                                 datatype=["str", "str", "str", "str", "bool", "str", "str"], column_count=len(schema_form.COLUMNS),
                                 elem_id=f"{prefix}-schema-fields")
            with gr.Row():
                closed = gr.Checkbox(fmt != "native", label=t("schema_editor.closed"), elem_id=f"{prefix}-schema-closed")
                strict = gr.Checkbox(False, label=t("schema_editor.strict"), visible=fmt in STRICT_FORMATS, elem_id=f"{prefix}-schema-strict")
            with gr.Row():
                name = gr.Textbox(label=t("schema_editor.new.name"), elem_id=f"{prefix}-schema-new-name", min_width=120)
                kind = gr.Dropdown(list(TYPES), value="string", label=t("schema_editor.new.type"), elem_id=f"{prefix}-schema-new-type", min_width=110)
                items = gr.Dropdown(["", *ITEM_TYPES], value="", label=t("schema_editor.new.items"), elem_id=f"{prefix}-schema-new-items", min_width=110)
                parent = gr.Textbox(label=t("schema_editor.new.parent"), elem_id=f"{prefix}-schema-new-parent", min_width=120)
            with gr.Row():
                required = gr.Checkbox(True, label=t("schema_editor.new.required"), elem_id=f"{prefix}-schema-new-required")
                enum = gr.Textbox(label=t("schema_editor.new.enum"), elem_id=f"{prefix}-schema-new-enum", min_width=120)
                description = gr.Textbox(label=t("schema_editor.new.description"), elem_id=f"{prefix}-schema-new-description", min_width=160)
            add = gr.Button(t("schema_editor.add"), size="sm", elem_id=f"{prefix}-schema-add")
        return cls(fmt, json_box, table, closed, strict, note, example, (name, kind, items, parent, required, enum, description), add)

    def wire(self) -> None:
        """Either view rewrites the other. The box's `change` covers what fills it from elsewhere
        (examples, presets, session files, curl imports); the table's edits are a person's (`input`)."""
        fmt = self.fmt
        self.json.change(partial(schema_form.schema_json_changed, fmt=fmt), self.json, [self.table, self.closed, self.strict, self.note],
                         queue=False)
        settings = [self.table, self.closed, self.strict, self.json]
        for event in (self.table.input, self.closed.input, self.strict.input):
            event(partial(schema_form.schema_table_edited, fmt=fmt), settings, [self.json, self.note], queue=False)
        self.add.click(partial(schema_form.schema_field_added, fmt=fmt), [*self.new_field, *settings], [self.json, self.new_field[0], self.note],
                       queue=False)
        self.example.click(partial(schema_form.schema_example, fmt), None, self.json, queue=False)

    def after(self, event: Any) -> None:
        """After the page's load and the header's language switch: the table drawn again from the
        box, its headings in the visitor's language (Gradio cannot translate a table's headings)."""
        event.then(partial(schema_form.schema_json_changed, fmt=self.fmt), self.json, [self.table, self.closed, self.strict, self.note],
                   queue=False)
