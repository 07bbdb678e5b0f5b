"""The only files the UI shows: ones this app created, under its own media directory.

Every value handed to a Gradio file component (image, file, video, gallery, chatbot file parts,
downloads) passes through here. Files are *created* here (`new_file`, `adopt_upload`,
`file_from_data`) or by the client's savers under the same root (`client.media.media_directory`);
a path is *shown* only if `shown_path` finds it, after resolving links, inside that root. A path
that came from the browser, a session file or a gateway is never trusted: Gradio would copy any
file under the working or temp directory into its cache and serve it.
"""

from __future__ import annotations

import base64
import binascii
import os
import re
import tempfile
from pathlib import Path
from typing import Any

from playground.client.errors import RequestValidationError
from playground.client.media import FILE_TYPES, MAX_UPLOAD_BYTES, image_mime, media_directory, verified_image

ATTACHMENT_NOTE = "[attachment {name} is not shown: only files this playground created can be shown]"
_SAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")


def media_root() -> Path:
    """The app's own media directory (under GRADIO_TEMP_DIR); every file the app creates lives below it."""
    return media_directory("")


def gradio_cache() -> Path:
    """Gradio's own cache (where it copied files it already served; a chatbot value coming back
    from the page points there, and Gradio checked that on the way in)."""
    return Path(os.environ.get("GRADIO_TEMP_DIR") or Path(tempfile.gettempdir()) / "gradio")


def _clean_name(name: str, fallback: str = "file") -> str:
    cleaned = _SAFE_NAME.sub("-", Path(str(name)).name).strip(".-")[:80]
    return cleaned or fallback


def new_file(kind: str, name: str, data: bytes | str) -> str:
    """Write `data` to a new file (in a fresh folder of its own under the media root) and return
    its path, ready for a file component."""
    folder = media_root() / _clean_name(kind, "files")
    folder.mkdir(parents=True, exist_ok=True)
    path = Path(tempfile.mkdtemp(dir=folder)) / _clean_name(name)
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    else:
        path.write_bytes(data)
    return str(path)


def shown_path(value: Any) -> str | None:
    """`value` as a path a component may show, or None when it is not a regular file inside the
    media root or Gradio's cache (after resolving `..` and symbolic links)."""
    if not isinstance(value, (str, Path)) or not str(value) or "\x00" in str(value):
        return None
    try:
        resolved = Path(os.path.realpath(str(value)))
        roots = [Path(os.path.realpath(root)) for root in (media_root(), gradio_cache())]
        if not any(resolved.is_relative_to(root) for root in roots) or not resolved.is_file():
            return None
    except (OSError, ValueError):
        return None
    return str(resolved)


def adopt_upload(path: str, kind: str = "uploads") -> str:
    """A copy, made by the app, of a file a visitor uploaded (already checked by the caller), so the
    chatbot shows the app's file and never the upload path itself."""
    if shown_path(path) is not None and Path(os.path.realpath(path)).is_relative_to(os.path.realpath(media_root())):
        return str(path)
    try:
        return new_file(kind, Path(path).name, Path(path).read_bytes())
    except OSError:
        raise RequestValidationError([f"the attachment {Path(path).name} is no longer on the server; attach it again"]) from None


def part_path(part: Any) -> Any:
    """The path a chatbot content part refers to, if any (`{"path"}` or `{"file": {"path"}}`)."""
    if not isinstance(part, dict):
        return None
    if "path" in part:
        return part["path"]
    inner = part.get("file")
    return inner.get("path") if isinstance(inner, dict) else None


def _shown_part(part: Any) -> Any:
    if not isinstance(part, dict) or part_path(part) is None:
        return part
    path = shown_path(part_path(part))
    if path is None:
        return {"type": "text", "text": ATTACHMENT_NOTE.format(name=_clean_name(str(part_path(part))))}
    return {"path": path}


def shown_history(history: list[Any] | None) -> list[Any]:
    """Chatbot messages with every file part checked by `shown_path` (others become a note). A
    message with nothing to change is kept as the same object, so what remembers its processed
    form by identity (`ui.chatbot`) finds it on the next turn."""
    checked = []
    for message in history or []:
        if not isinstance(message, dict):
            continue
        content = message.get("content")
        if isinstance(content, list):
            parts = [_shown_part(part) for part in content]
            if any(new is not old for new, old in zip(parts, content)):
                message = {**message, "content": parts}
        elif isinstance(content, dict) and (part := _shown_part(content)) is not content:
            message = {**message, "content": part}
        checked.append(message)
    return checked


def shown_paths(values: list[Any] | None) -> list[str]:
    """The paths among `values` a component may show; the rest are left out."""
    return [path for path in (shown_path(value) for value in values or []) if path is not None]


# --- attachments carried as data (session files) -------------------------------------------

MAX_ATTACHMENT_BYTES = MAX_UPLOAD_BYTES


def data_of_file(path: str) -> dict[str, Any]:
    """An attachment the app created, as data for a session file: name, media type, base64."""
    file = Path(path)
    data = file.read_bytes()
    media = FILE_TYPES.get(file.suffix.lower())
    if media is None:
        image_format, _, _ = verified_image(data, file.name)
        media = image_mime(image_format)
    return {"type": "file", "name": file.name, "mime_type": media, "data": base64.b64encode(data).decode("ascii")}


def file_from_data(part: dict[str, Any], where: str) -> str:
    """Decode an attachment carried as data (size capped before decoding, checked with Pillow or
    the document checks) into a new file the app creates; raises `RequestValidationError`."""
    name, encoded, media = part.get("name"), part.get("data"), part.get("mime_type")
    if not isinstance(name, str) or not isinstance(encoded, str) or not isinstance(media, str):
        raise RequestValidationError([f"{where}: an attachment needs a name, a mime_type and its data (base64) as text"])
    if len(encoded) * 3 // 4 > MAX_ATTACHMENT_BYTES:
        raise RequestValidationError([f"{where}: the attachment {name!r} is larger than {MAX_ATTACHMENT_BYTES // 1_000_000} MB"])
    try:
        data = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        raise RequestValidationError([f"{where}: the attachment {name!r} is not valid base64"]) from None
    safe = _clean_name(name)
    documents = {value: key for key, value in FILE_TYPES.items()}
    if media in documents:
        if media == "application/pdf" and not data.startswith(b"%PDF"):
            raise RequestValidationError([f"{where}: the attachment {name!r} is not a PDF file"])
        if media != "application/pdf":
            try:
                data.decode("utf-8")
            except UnicodeDecodeError:
                raise RequestValidationError([f"{where}: the attachment {name!r} is not UTF-8 text"]) from None
        suffix = documents[media]
    else:
        image_format, _, _ = verified_image(data, f"{where}: the attachment {name!r}")
        suffix = {"PNG": ".png", "JPEG": ".jpg", "WEBP": ".webp", "GIF": ".gif"}[image_format]
    return new_file("session-files", Path(safe).stem + suffix, data)
