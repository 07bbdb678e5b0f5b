"""Save a tab's state (form, conversation, attachments as data) as a JSON file and load it back,
in this or a fresh browser. The file is versioned (`session_document`); a file of another
version, another tab, a broken one, or one whose values the tab could not send as they are is
refused as a whole with a clear message and changes nothing. Keys are never saved."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gradio as gr

from playground.client.errors import GatewayError, RequestValidationError
from playground.ui.conversation.panel import ConversationPanel
from playground.ui.i18n.client_words import word
from playground.ui.shared.form_check import RequestCheck, check_whole, unchanged_problems, values_problems
from playground.ui.i18n import t, say
from playground.ui.shared.render import error_text
from playground.ui.session_files.document import VERSION, read_session, read_session_document, session_document
from playground.ui.web.shown_files import new_file

__all__ = ["VERSION", "Arrival", "SessionFileBar", "read_session_document", "session_document"]

@dataclass(frozen=True)
class Arrival:
    """How a loaded form reaches a tab: `arrive(form)` gives the values by field name (updates
    allowed) and the values of `outputs`, components the tab sets besides its fields."""

    outputs: list[Any]
    arrive: Callable[[dict[str, Any]], tuple[dict[str, Any], list[Any]]]


@dataclass
class SessionFileBar:
    tab: str
    save: gr.Button
    download: gr.File
    load: gr.UploadButton
    status: gr.Markdown
    fields: dict[str, Any] = field(default_factory=dict)
    """What `wire` got: the form's fields by name, how a loaded form arrives, the request check."""
    arrival: Arrival | None = None
    check: RequestCheck | None = None
    conversation: bool = False
    skipped: int = 0
    """How many outputs follow the status (left as they are when a file is refused)."""

    @classmethod
    def build(cls, tab: str) -> SessionFileBar:
        with gr.Accordion(t("session.panel"), open=False, elem_id=f"{tab}-session-file"):
            with gr.Row():
                save = gr.Button(t("session.save"), size="sm", elem_id=f"{tab}-session-save")
                load = gr.UploadButton(t("session.load"), file_types=[".json"], size="sm", elem_id=f"{tab}-session-load")
            download = gr.File(label=t("session.download"), visible=False, elem_id=f"{tab}-session-download")
            status = gr.Markdown(elem_id=f"{tab}-session-status")
        return cls(tab, save, download, load, status)

    def wire(self, fields: dict[str, Any], panel: ConversationPanel | None = None,
             arrival: Arrival | None = None, check: RequestCheck | None = None) -> None:
        """A tab with a conversation passes its panel (a loaded file fills its chat and session, and is one of the
        panel's `changed` events); a form-only tab does not. A tab whose fields depend on one another (Video) passes
        how a loaded form arrives; `check` is the tab's request check (the values must build the request a send would build)."""
        self.fields, self.arrival, self.check = fields, arrival, check
        conversation = [panel.chatbot, panel.session] if panel is not None else []
        self.conversation = bool(conversation)
        marker = list(arrival.outputs) if arrival is not None else []
        components = list(fields.values())
        self.skipped = len(components) + len(conversation) + len(marker)
        self.save.click(self.on_save, [*conversation, *components], [self.download, self.status], queue=False)
        loaded = self.load.upload(self.on_load, [self.load, *components], [self.status, *conversation, *components, *marker], queue=False)
        if panel is not None:
            panel.changed.append(loaded)

    def on_save(self, *values: Any) -> tuple[Any, ...]:
        """(the file to download, the status) for the conversation (when the tab has one) and the form's `values`."""
        history, state = (values[0], values[1]) if self.conversation else (None, None)
        form = dict(zip(self.fields, values[2 if self.conversation else 0:]))
        document = session_document(self.tab, form, history, state)
        path = new_file("sessions", f"{self.tab}-session.json", json.dumps(document, indent=2, ensure_ascii=False))
        return gr.update(value=path, visible=True), say("session.say.saved_download_file_keep")

    def loaded_values(self, upload: Any, current: tuple[Any, ...]) -> tuple[str, list[Any]]:
        """(status, outputs) of an uploaded session file, checked whole; raises what refuses it."""
        names, fields, arrival = list(self.fields), self.fields, self.arrival
        path = upload if isinstance(upload, str) else getattr(upload, "name", None) or (upload or {}).get("path")
        loaded = read_session(Path(str(path)).read_bytes(), self.tab, names)
        values = {**dict(zip(names, current)), **loaded.form}
        extra: list[Any] = []
        if arrival is not None:  # the values' types first: arriving reads them (the choices come with the model)
            problems = values_problems(fields, loaded.form, check_choices=False)
            if problems:
                raise RequestValidationError(problems)
            values, extra = arrival.arrive(values)
            changed = unchanged_problems(loaded.form, values, values.get("model", ""))
            if changed:
                raise RequestValidationError(changed)
        check_whole(fields, values, loaded.session.messages, self.check)
        status = say("session.say.loaded_saved_session") + "".join(say("session.say.note", note=word(note)) for note in loaded.notes)
        shown = [values.get(name, gr.skip()) for name in names]
        return status, [*((loaded.history, loaded.session) if self.conversation else ()), *shown, *extra]

    def on_load(self, upload: Any, *current: Any) -> tuple[Any, ...]:
        """(status, the conversation, the form, the arrival's outputs) from an uploaded file, or
        the refusal and nothing changed."""
        try:
            status, outputs = self.loaded_values(upload, current)
        except (GatewayError, OSError) as error:
            shown = error_text(error) if isinstance(error, GatewayError) else say("session.say.please_check_request_file_could")
            return (shown, *(gr.skip(),) * self.skipped)
        return (status, *outputs)
