"""Save a tab's state (form, conversation, attachments by reference) as a JSON file and load it
back, in this or a fresh browser. The file is versioned; a file of another version, another tab
or a broken one is refused with a clear message and changes nothing. Keys are never saved."""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gradio as gr

from playground.client.errors import GatewayError, RequestValidationError
from playground.ui.branches import valid_branches
from playground.ui.conversation import Session
from playground.ui.i18n import t
from playground.ui.render import error_text

FORMAT = "gateway-playground-session"
VERSION = 1
MAX_FILE_BYTES = 100 * 1024 * 1024
PLAIN = (str, int, float, bool, type(None))


def _plain(value: Any) -> bool:
    return isinstance(value, PLAIN) or (isinstance(value, list) and all(isinstance(v, PLAIN) for v in value))


def session_document(tab: str, form: dict[str, Any], history: list[dict[str, Any]] | None, session: Session | None) -> dict[str, Any]:
    """The file's content: plain form values, what is shown and what is sent (files by path)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "tab": tab,
        "saved_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "form": {name: value for name, value in form.items() if _plain(value)},
        "conversation": {"shown": list(history or []), "sent": list(session.messages) if session else []},
        **({"branches": {"all": session.branches, "current": session.branch}} if session and session.branches else {}),
    }


def _shown_with_missing_files(shown: list[Any]) -> list[dict[str, Any]]:
    """Chatbot messages whose attached files (referenced by path) may be gone in this browser."""
    checked = []
    for message in shown:
        content = message.get("content")
        if isinstance(content, list):
            content = [part if not (isinstance(part, dict) and part.get("path")) or Path(str(part["path"])).is_file()
                       else {"type": "text", "text": f"[attachment {Path(str(part['path'])).name} is not on this server any more]"}
                       for part in content]
        checked.append({**message, "content": content})
    return checked


def read_session_document(raw: bytes, tab: str, fields: list[str]) -> tuple[dict[str, Any], list[dict[str, Any]], Session]:
    """(form values, chatbot history, session) from a saved file; raises `RequestValidationError`."""
    if len(raw) > MAX_FILE_BYTES:
        raise RequestValidationError([f"the file is larger than {MAX_FILE_BYTES // 1_000_000} MB"])
    try:
        document = json.loads(raw)
    except (ValueError, RecursionError):
        raise RequestValidationError(["the file is not a saved session (not JSON)"]) from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise RequestValidationError(["the file is not a saved session of this playground"])
    version = document.get("version")
    if version != VERSION:
        newer = isinstance(version, int) and version > VERSION
        raise RequestValidationError([f"the file is a version {version} session; this playground reads version {VERSION}"
                                      + (" (it was saved by a newer playground)" if newer else "")])
    if document.get("tab") != tab:
        raise RequestValidationError([f"the file holds a {document.get('tab')!r} session; open it in that tab"])
    form, conversation = document.get("form"), document.get("conversation")
    if not isinstance(form, dict) or not isinstance(conversation, dict):
        raise RequestValidationError(["the file's form or conversation is missing"])
    shown, sent = conversation.get("shown"), conversation.get("sent")
    if not isinstance(shown, list) or not isinstance(sent, list) or not all(isinstance(m, dict) for m in [*shown, *sent]):
        raise RequestValidationError(["the file's conversation is not a list of messages"])
    unknown = sorted(set(form) - set(fields))
    if unknown:
        raise RequestValidationError([f"the file names settings this tab does not have: {', '.join(unknown)}"])
    branches, current = _branches_of(document.get("branches"))
    return form, _shown_with_missing_files(shown), Session(messages=sent, branches=branches, branch=current)


def _branches_of(value: Any) -> tuple[list[dict[str, Any]], int]:
    """The saved branches (`ui.branches`) and which was on screen; raises `RequestValidationError`."""
    if value is None:
        return [], 0
    branches = valid_branches(value.get("all")) if isinstance(value, dict) else None
    current = value.get("current") if isinstance(value, dict) else None
    if branches is None or not isinstance(current, int) or isinstance(current, bool) or not 0 <= current < max(len(branches), 1):
        raise RequestValidationError(["the file's branches are not a list of conversations with the one shown"])
    return [{"shown": _shown_with_missing_files(b["shown"]), "sent": b["sent"]} for b in branches], current


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

    @classmethod
    def build(cls, tab: str) -> SessionFileBar:
        with gr.Accordion(t("session.panel"), open=False, elem_id=f"{tab}-session-file"):
            with gr.Row():
                save = gr.Button(t("session.save"), size="sm", elem_id=f"{tab}-session-save")
                load = gr.UploadButton(t("session.load"), file_types=[".json"], size="sm", elem_id=f"{tab}-session-load")
            download = gr.File(label=t("session.download"), visible=False, elem_id=f"{tab}-session-download")
            status = gr.Markdown(elem_id=f"{tab}-session-status")
        return cls(tab, save, download, load, status)

    def wire(self, fields: dict[str, Any], chatbot: gr.Chatbot | None = None, session: gr.State | None = None,
             arrival: Arrival | None = None) -> None:
        """A tab with a conversation passes its chatbot and session; a form-only tab does not.
        A tab whose fields depend on one another (Video) passes how a loaded form arrives."""
        names, components = list(fields), list(fields.values())
        conversation = [chatbot, session] if chatbot is not None and session is not None else []
        marker = list(arrival.outputs) if arrival is not None else []

        def on_save(*values: Any) -> tuple[Any, ...]:
            history, state = (values[0], values[1]) if conversation else (None, None)
            document = session_document(self.tab, dict(zip(names, values[len(conversation):])), history, state)
            path = Path(tempfile.mkdtemp(prefix="playground-session-")) / f"{self.tab}-session.json"
            path.write_text(json.dumps(document, indent=2, ensure_ascii=False), encoding="utf-8")
            return gr.update(value=str(path), visible=True), "Saved: download the file to keep it."

        def on_load(upload: Any) -> tuple[Any, ...]:
            path = upload if isinstance(upload, str) else getattr(upload, "name", None) or (upload or {}).get("path")
            try:
                form, history, state = read_session_document(Path(str(path)).read_bytes(), self.tab, names)
            except (GatewayError, OSError) as error:
                shown = error_text(error) if isinstance(error, GatewayError) else "**Please check the request** — the file could not be read."
                return (shown, *(gr.skip(),) * (len(components) + len(conversation) + len(marker)))
            extra: list[Any] = []
            if arrival is not None:
                form, extra = arrival.arrive(form)
            values = [form.get(name, gr.skip()) for name in names]
            return ("Loaded the saved session.", *((history, state) if conversation else ()), *values, *extra)

        self.save.click(on_save, [*conversation, *components], [self.download, self.status], queue=False)
        self.load.upload(on_load, self.load, [self.status, *conversation, *components, *marker], queue=False)
