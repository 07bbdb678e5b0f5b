"""Checked conversion of user files to what the gateway takes (data URLs), with size caps."""

from __future__ import annotations

from playground.client.texts import Text

import base64
import binascii
import hashlib
import io
import os
import re
import shutil
import tempfile
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, UnidentifiedImageError

from playground.client.errors import RequestValidationError

MAX_UPLOAD_BYTES = 50 * 1024 * 1024
MAX_IMAGE_PIXELS = 40_000_000
IMAGE_FORMATS = ("PNG", "JPEG", "WEBP", "GIF")
_MIME = {"PNG": "image/png", "JPEG": "image/jpeg", "WEBP": "image/webp", "GIF": "image/gif"}


def image_data_url(path: str | Path, max_bytes: int = MAX_UPLOAD_BYTES) -> str:
    """Read an uploaded image, check it is a real image within the caps, return a data URL."""
    file = Path(path)
    name = file.name
    try:
        size = file.stat().st_size
    except OSError:
        raise RequestValidationError([Text("media.attachment_gone", name=name)]) from None
    if size > max_bytes:
        raise RequestValidationError([Text("media.image_too_large", name=name, megabytes=size / 1e6, limit=max_bytes / 1e6)])
    try:
        data = file.read_bytes()
    except OSError:
        raise RequestValidationError([Text("media.attachment_gone", name=name)]) from None
    image_format, _, _ = verified_image(data, name)
    encoded = base64.b64encode(data).decode("ascii")
    return f"data:{_MIME[image_format]};base64,{encoded}"


def image_mime(image_format: str) -> str:
    """`image/png` for "PNG" (the formats `verified_image` accepts)."""
    return _MIME.get(image_format.upper(), "application/octet-stream")


FILE_TYPES = {".pdf": "application/pdf", ".txt": "text/plain", ".md": "text/markdown", ".csv": "text/csv", ".json": "application/json"}


def file_data_url(path: str | Path, max_bytes: int = MAX_UPLOAD_BYTES) -> str:
    """A document attachment (PDF or text) as a data URL, checked for type and size; images go
    through `image_data_url`."""
    file = Path(path)
    media = FILE_TYPES.get(file.suffix.lower())
    if media is None:
        return image_data_url(file, max_bytes)
    try:
        size = file.stat().st_size
        if size > max_bytes:
            raise RequestValidationError([Text("media.file_too_large", name=file.name, megabytes=size / 1e6, limit=max_bytes / 1e6)])
        data = file.read_bytes()
    except OSError:
        raise RequestValidationError([Text("media.attachment_gone", name=file.name)]) from None
    if media == "application/pdf" and not data.startswith(b"%PDF"):
        raise RequestValidationError([Text("media.not_pdf", name=file.name)])
    return f"data:{media};base64,{base64.b64encode(data).decode('ascii')}"


MAX_INLINE_IMAGE_BYTES = 20 * 1024 * 1024
_EXTENSIONS = {"PNG": ".png", "JPEG": ".jpg", "WEBP": ".webp", "GIF": ".gif"}


def media_directory(kind: str) -> Path:
    """Where saved results of one kind live: under GRADIO_TEMP_DIR (or the system's temp dir)."""
    root = Path(os.environ.get("GRADIO_TEMP_DIR") or Path(tempfile.gettempdir()) / "gradio")
    return root / "gateway-playground" / kind


def verified_image(data: bytes, name: str = Text("media.the_image")) -> tuple[str, int, int]:
    """(format, width, height) of image bytes, opened with an explicit format list and a pixel cap."""
    try:
        with Image.open(io.BytesIO(data), formats=IMAGE_FORMATS) as image:
            if image.width * image.height > MAX_IMAGE_PIXELS:
                raise RequestValidationError([Text("media.too_many_pixels", name=name, width=image.width, height=image.height, limit=MAX_IMAGE_PIXELS)])
            image.verify()
            return image.format or "PNG", image.width, image.height
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, Image.DecompressionBombError):
        raise RequestValidationError([Text("media.not_readable_image", name=name)]) from None


@dataclass(frozen=True)
class StoredImage:
    """An image saved with its original bytes: where, what format, how many pixels and bytes."""

    path: Path
    format: str
    width: int
    height: int
    size: int


def decode_inline_image(encoded: str, max_bytes: int = MAX_INLINE_IMAGE_BYTES, name: str = Text("media.gateway_image")) -> bytes:
    """Base64 image data from a gateway, size checked before decoding and decoded strictly."""
    if len(encoded) * 3 // 4 > max_bytes:
        raise RequestValidationError([Text("media.gateway_image_too_large", name=name, limit=max_bytes // 1_000_000)])
    try:
        return base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        raise RequestValidationError([Text("media.gateway_image_broken_base64", name=name)]) from None


def store_image(data: bytes, directory: Path, name: str = Text("media.generated_image")) -> StoredImage:
    """Verify image bytes (format list, pixel cap) and save them unchanged under a name derived
    from their content (the same image is stored once)."""
    image_format, width, height = verified_image(data, name)
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / (hashlib.sha256(data).hexdigest()[:24] + _EXTENSIONS[image_format])
    if not path.exists():
        path.write_bytes(data)
    return StoredImage(path, image_format, width, height, len(data))


def save_inline_image(encoded: str, directory: Path, max_bytes: int = MAX_INLINE_IMAGE_BYTES) -> Path:
    """Decode a base64 image the gateway sent (size checked before decoding), verify it, and save
    its original bytes under a name derived from its content."""
    return store_image(decode_inline_image(encoded, max_bytes), directory).path


def safe_stem(text: str, limit: int = 48, fallback: str = "image") -> str:
    """A file-name stem from free text (a prompt): lower-case ASCII letters and digits joined by
    hyphens, never a path, a dot or an empty name."""
    ascii_text = unicodedata.normalize("NFKD", text or "").encode("ascii", "ignore").decode().lower()
    stem = "-".join(re.findall(r"[a-z0-9]+", ascii_text))[:limit].strip("-")
    return stem or fallback


def named_copies(paths: list[Path], stem: str, kind: str = "downloads") -> list[Path]:
    """Copies of files the app saved, named `<stem>-<n><ext>` (n from 1) in a fresh directory of
    their own (hard links where the file system allows), for download lists that show names."""
    root = media_directory(kind)
    root.mkdir(parents=True, exist_ok=True)
    directory = Path(tempfile.mkdtemp(prefix="set-", dir=root))
    copies = []
    for number, path in enumerate(paths, start=1):
        target = directory / f"{safe_stem(stem)}-{number}{path.suffix.lower()}"
        try:
            os.link(path, target)
        except OSError:
            shutil.copyfile(path, target)
        copies.append(target)
    return copies
