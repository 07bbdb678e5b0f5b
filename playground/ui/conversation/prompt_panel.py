"""The "Prompt library" section of a text tab: save the form as a version of a named prompt, pick
a prompt and a version (or a label) and open it into the form, set a label, diff two versions,
keep a partial, export and import the library file, and a one-click example; wired to
`prompt_handlers.PromptHandlers`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import gradio as gr

from playground.ui.conversation.panel import ConversationPanel
from playground.ui.conversation.prompt_handlers import PromptHandlers
from playground.ui.conversation.prompt_library import PromptLibrary
from playground.ui.i18n import t
from playground.ui.shared.form_check import RequestCheck


@dataclass
class PromptPanel:
    prefix: str
    name: gr.Textbox
    save: gr.Button
    example: gr.Button
    prompt: gr.Dropdown
    version: gr.Dropdown
    open: gr.Button
    label: gr.Textbox
    set_label: gr.Button
    before: gr.Dropdown
    after: gr.Dropdown
    compare: gr.Button
    diff: gr.Code
    partial_name: gr.Textbox
    partial_text: gr.Textbox
    partial_save: gr.Button
    export: gr.Button
    download: gr.File
    load: gr.UploadButton
    status: gr.Markdown

    @classmethod
    def build(cls, prefix: str) -> PromptPanel:
        """Lay out the section (call inside the tab's settings column)."""
        with gr.Accordion(t("plib.panel"), open=False, elem_id=f"{prefix}-plib"):
            gr.Markdown(t("plib.explains"))
            with gr.Row():
                name = gr.Textbox(label=t("plib.name"), placeholder=t("plib.name_example"), scale=3, elem_id=f"{prefix}-plib-name")
                save = gr.Button(t("plib.save"), size="sm", variant="primary", scale=1, elem_id=f"{prefix}-plib-save")
            example = gr.Button(t("plib.example"), size="sm", elem_id=f"{prefix}-plib-example")
            with gr.Row():
                prompt = gr.Dropdown([], value=None, label=t("plib.prompt"), scale=2, elem_id=f"{prefix}-plib-prompt")
                version = gr.Dropdown([], value=None, label=t("plib.version"), scale=2, elem_id=f"{prefix}-plib-version")
            with gr.Row():
                open_ = gr.Button(t("plib.open"), size="sm", elem_id=f"{prefix}-plib-open")
                label = gr.Textbox(label=t("plib.label"), placeholder=t("plib.label_example"), scale=2, elem_id=f"{prefix}-plib-label")
                set_label = gr.Button(t("plib.set_label"), size="sm", elem_id=f"{prefix}-plib-set-label")
            with gr.Row():
                before = gr.Dropdown([], value=None, label=t("plib.diff_from"), elem_id=f"{prefix}-plib-before")
                after = gr.Dropdown([], value=None, label=t("plib.diff_to"), elem_id=f"{prefix}-plib-after")
            compare = gr.Button(t("plib.diff"), size="sm", elem_id=f"{prefix}-plib-diff-button")
            diff = gr.Code("", language=None, label=t("plib.diff_shown"), interactive=False, elem_id=f"{prefix}-plib-diff")
            with gr.Accordion(t("plib.partials"), open=False):
                partial_name = gr.Textbox(label=t("plib.partial_name"), placeholder=t("plib.partial_name_example"), elem_id=f"{prefix}-plib-partial-name")
                partial_text = gr.Textbox(label=t("plib.partial_text"), lines=2, elem_id=f"{prefix}-plib-partial-text")
                partial_save = gr.Button(t("plib.partial_save"), size="sm", elem_id=f"{prefix}-plib-partial-save")
            with gr.Row():
                export = gr.Button(t("plib.export"), size="sm", elem_id=f"{prefix}-plib-export")
                load = gr.UploadButton(t("plib.import"), file_types=[".json"], size="sm", elem_id=f"{prefix}-plib-import")
            download = gr.File(label=t("plib.download"), visible=False, elem_id=f"{prefix}-plib-download")
            status = gr.Markdown(elem_id=f"{prefix}-plib-status")
        return cls(prefix, name, save, example, prompt, version, open_, label, set_label, before, after, compare, diff, partial_name,
                   partial_text, partial_save, export, download, load, status)

    def wire(self, fields: dict[str, Any], conversation: ConversationPanel, library: PromptLibrary,
             check: RequestCheck | None = None) -> PromptHandlers:
        """Connect the events: `fields` are the tab's form components by name (what a version
        keeps and opens), `check` the tab's request check (an opened version must build one)."""
        assert conversation.variables is not None
        handlers = PromptHandlers(self.prefix, fields, library, check)
        form = list(fields.values())
        variables = [conversation.variables.table, conversation.variables.group]
        pickers = [self.version, self.before, self.after]
        self.prompt.focus(handlers.prompt_names, None, self.prompt, concurrency_limit=None, show_progress="hidden")
        self.prompt.change(handlers.pick, self.prompt, pickers, concurrency_limit=None, show_progress="hidden")
        self.save.click(handlers.save, [self.name, conversation.draft, conversation.variables.table, *form],
                        [self.status, self.prompt, *pickers], concurrency_limit=None)
        self.open.click(handlers.open, [self.prompt, self.version, *form], [*form, conversation.draft, *variables, self.status],
                        concurrency_limit=None)
        self.set_label.click(handlers.label, [self.prompt, self.version, self.label], [self.status, *pickers], concurrency_limit=None)
        self.compare.click(handlers.diff, [self.prompt, self.before, self.after], [self.diff, self.status], concurrency_limit=None)
        self.partial_save.click(handlers.save_partial, [self.partial_name, self.partial_text], self.status, concurrency_limit=None)
        self.export.click(handlers.export, None, [self.download, self.status], concurrency_limit=None)
        self.load.upload(handlers.import_file, self.load, [self.status, self.prompt], concurrency_limit=None)
        self.example.click(handlers.example, form, [*form, conversation.draft, *variables, self.status, self.prompt, *pickers, self.diff, self.name],
                           concurrency_limit=None)
        return handlers
