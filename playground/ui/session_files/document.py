"""A saved session's JSON document: written from a tab's state, read back and checked as a whole.

A session file is data from a stranger. Its attachments travel inside it as data (base64, with a
name and media type), are checked like uploads (Pillow with a format list and a pixel cap, or the
document checks; size-capped before decoding) and become new files the app creates
(`shown_files.file_from_data`). A path anywhere in a version 2 file refuses the whole file; a
version 1 file (attachments by path) loads without its attachments, and says so. Every problem is
found before anything is created or shown.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from playground.client.errors import RequestValidationError
from playground.client.validation import problems_from, strict_json
from playground.ui.conversation.branches import valid_branches
from playground.ui.conversation.turns import Session
from playground.ui.web.shown_files import part_path, data_of_file, file_from_data, shown_path

FORMAT = "gateway-playground-session"
VERSION = 2
READABLE = (1, 2)
MAX_FILE_BYTES = 100 * 1024 * 1024
MAX_FILE_DEPTH = 64
PLAIN = (str, int, float, bool, type(None))
V1_NOTE = "[attachment {name} not loaded: version 1 session files refer to files by path, which are never opened]"


def _plain(value: Any) -> bool:
    return isinstance(value, PLAIN) or (isinstance(value, list) and all(isinstance(v, PLAIN) for v in value))


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class TextPart(_Strict):
    type: Literal["text"]
    text: str


class DataPart(_Strict):
    """An attachment carried as data."""

    type: Literal["file"]
    name: str = Field(min_length=1, max_length=200)
    mime_type: str
    data: str


Part = Annotated[TextPart | DataPart, Field(discriminator="type")]


class ShownMessage(_Strict):
    role: Literal["user", "assistant"]
    content: str | list[Part] | None
    metadata: dict[str, str | int | float | None] | None = None
    options: list[dict[str, str]] | None = None


class Conversation(_Strict):
    shown: list[ShownMessage]
    sent: list[dict[str, Any]]


# --- writing ---------------------------------------------------------------------------------

def _saved_part(part: Any) -> Any:
    if isinstance(part, str):
        return {"type": "text", "text": part}
    path = part_path(part)
    if path is not None:
        found = shown_path(path)
        try:
            return data_of_file(found) if found else {"type": "text", "text": "[an attachment that is not on this server any more]"}
        except (OSError, RequestValidationError):
            return {"type": "text", "text": "[an attachment that could not be read]"}
    if isinstance(part, dict) and part.get("type") == "text":
        return {"type": "text", "text": str(part.get("text", ""))}
    return {"type": "text", "text": "[a part this playground does not save]"}


def _saved_message(message: dict[str, Any]) -> dict[str, Any]:
    content = message.get("content")
    if isinstance(content, (list, dict)):
        content = [_saved_part(part) for part in (content if isinstance(content, list) else [content])]
    saved: dict[str, Any] = {"role": message.get("role"), "content": content}
    metadata = {k: v for k, v in (message.get("metadata") or {}).items() if isinstance(v, (str, int, float)) and not isinstance(v, bool)}
    if metadata:
        saved["metadata"] = metadata
    return saved


def session_document(tab: str, form: dict[str, Any], history: list[dict[str, Any]] | None, session: Session | None) -> dict[str, Any]:
    """The file's content: plain form values, what is shown (attachments as data) and what is sent."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "tab": tab,
        "saved_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "form": {name: value for name, value in form.items() if _plain(value)},
        "conversation": _saved_conversation(history, session.messages if session else []),
        **({"branches": {"all": [_saved_conversation(b["shown"], b["sent"]) for b in session.branches], "current": session.branch}}
           if session and session.branches else {}),
    }


def _saved_conversation(shown: list[dict[str, Any]] | None, sent: list[dict[str, Any]]) -> dict[str, Any]:
    return {"shown": [_saved_message(m) for m in shown or [] if isinstance(m, dict)], "sent": list(sent)}


# --- reading ---------------------------------------------------------------------------------

@dataclass
class LoadedSession:
    form: dict[str, Any]
    history: list[dict[str, Any]]
    session: Session
    notes: list[str] = field(default_factory=list)


def _paths_in(value: Any) -> str | None:
    """Where the first `path` key is in `value` (iteratively), or None."""
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        item, where = stack.pop()
        if isinstance(item, dict):
            if "path" in item:
                return where or "the top level"
            stack.extend((child, f"{where}.{key}" if where else str(key)) for key, child in item.items())
        elif isinstance(item, list):
            stack.extend((child, f"{where}[{index}]") for index, child in enumerate(item))
    return None


def _drop_v1_attachments(shown: Any) -> int:
    """Version 1 kept attachments by path: each becomes a note (never opened). Returns how many."""
    dropped = 0
    for message in shown if isinstance(shown, list) else []:
        if not isinstance(message, dict):
            continue
        content = message.get("content")
        parts = content if isinstance(content, list) else [content] if isinstance(content, dict) else []
        kept = []
        for part in parts:
            path = part_path(part)
            if path is None:
                kept.append(part)
                continue
            dropped += 1
            kept.append({"type": "text", "text": V1_NOTE.format(name=str(path).replace("\\", "/").rsplit("/", 1)[-1][:80])})
        if parts:
            message["content"] = kept
    return dropped


def _check_parts(shown: Any) -> None:
    """Say plainly what is wrong with a part that is not text or an attachment carried as data."""
    for index, message in enumerate(shown if isinstance(shown, list) else []):
        content = message.get("content") if isinstance(message, dict) else None
        for number, part in enumerate(content if isinstance(content, list) else [content] if isinstance(content, dict) else []):
            kind = part.get("type") if isinstance(part, dict) else None
            if kind == "text" or (kind == "file" and isinstance(part, dict) and "data" in part):
                continue
            raise RequestValidationError([f"conversation.shown[{index}].content[{number}]: a part must be text or an attachment carried "
                                          "as data (name, mime_type, data); references to files or URLs are never followed, so the "
                                          "file was refused and nothing changed"])


def _header(document: Any, tab: str) -> int:
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise RequestValidationError(["the file is not a saved session of this playground"])
    version = document.get("version")
    if isinstance(version, bool) or version not in READABLE:
        newer = isinstance(version, int) and not isinstance(version, bool) and version > VERSION
        raise RequestValidationError([f"the file is a version {version!r} session; this playground reads versions 1 and {VERSION}"
                                      + (" (it was saved by a newer playground)" if newer else "")])
    if document.get("tab") != tab:
        raise RequestValidationError([f"the file holds a {str(document.get('tab'))[:40]!r} session; open it in that tab"])
    return int(version)


def read_session(raw: bytes, tab: str, fields: list[str]) -> LoadedSession:
    """Check a saved file as a whole and make its attachments into files; raises `RequestValidationError`."""
    if len(raw) > MAX_FILE_BYTES:
        raise RequestValidationError([f"the file is larger than {MAX_FILE_BYTES // 1_000_000} MB"])
    try:
        document = strict_json(raw, MAX_FILE_DEPTH)
    except RequestValidationError as error:
        raise RequestValidationError([f"the file is not a saved session ({problem})" for problem in error.problems]) from None
    version = _header(document, tab)
    form, conversation = document.get("form"), document.get("conversation")
    if not isinstance(form, dict) or not isinstance(conversation, dict):
        raise RequestValidationError(["the file's form or conversation is missing"])
    unknown = sorted(set(form) - set(fields))
    if unknown:
        raise RequestValidationError([f"the file names settings this tab does not have: {', '.join(map(str, unknown))[:300]}"])
    notes = []
    if version == 1:
        dropped = _drop_v1_attachments(conversation.get("shown"))
        if dropped:
            notes.append(f"{dropped} attachment(s) were not loaded: version 1 files refer to files by path, which are never opened")
    where = _paths_in(document)
    if where is not None:
        raise RequestValidationError([f"the file refers to a file on the server by path (at {where}); a session file carries its "
                                      "attachments inside it as data, so this file was refused and nothing changed"])
    branches, current = _branches_of(document.get("branches"))
    history, sent = _loaded_conversation(conversation, "conversation")
    return LoadedSession(form, history, Session(messages=sent, shown=list(history), branches=branches, branch=current), notes)


def _loaded_conversation(conversation: Any, where: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(chatbot history with attachments made into files, messages sent) of one saved conversation."""
    _check_parts(conversation.get("shown") if isinstance(conversation, dict) else None)
    try:
        checked = Conversation.model_validate(conversation)
    except ValidationError as exc:
        raise RequestValidationError([f"{where}.{problem}" for problem in problems_from(exc)][:8]) from None
    history = []
    for index, message in enumerate(checked.shown):
        content: Any = message.content
        if isinstance(content, list):
            content = [{"type": "text", "text": part.text} if isinstance(part, TextPart)
                       else {"path": file_from_data(part.model_dump(), f"{where}.shown[{index}]")} for part in content]
        history.append({"role": message.role, "content": content, **({"metadata": message.metadata} if message.metadata else {})})
    return history, checked.sent


def _branches_of(value: Any) -> tuple[list[dict[str, Any]], int]:
    """The saved branches (`ui.branches`) and which was on screen; raises `RequestValidationError`."""
    if value is None:
        return [], 0
    branches = valid_branches(value.get("all")) if isinstance(value, dict) else None
    current = value.get("current") if isinstance(value, dict) else None
    if branches is None or not isinstance(current, int) or isinstance(current, bool) or not 0 <= current < max(len(branches), 1):
        raise RequestValidationError(["the file's branches are not a list of conversations with the one shown"])
    loaded = [_loaded_conversation(branch, f"branches.all[{index}]") for index, branch in enumerate(branches)]
    return [{"shown": shown, "sent": sent} for shown, sent in loaded], current


def read_session_document(raw: bytes, tab: str, fields: list[str]) -> tuple[dict[str, Any], list[dict[str, Any]], Session]:
    """(form values, chatbot history, session) from a saved file; raises `RequestValidationError`."""
    loaded = read_session(raw, tab, fields)
    return loaded.form, loaded.history, loaded.session
