"""Checked conversion of user files to what the gateway takes (data URLs), with size caps."""

from __future__ import annotations

import base64
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
        raise RequestValidationError([f"the attachment {name} is no longer on the server; attach it again"]) from None
    if size > max_bytes:
        raise RequestValidationError([f"{name} is {size / 1e6:.1f} MB; images may be at most {max_bytes / 1e6:.0f} MB"])
    try:
        with Image.open(file, formats=IMAGE_FORMATS) as image:
            if image.width * image.height > MAX_IMAGE_PIXELS:
                raise RequestValidationError([f"{name} has {image.width}x{image.height} pixels, more than {MAX_IMAGE_PIXELS:,}"])
            image.verify()
            image_format = image.format or "PNG"
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, Image.DecompressionBombError):
        raise RequestValidationError([f"{name} is not a readable PNG, JPEG, WebP or GIF image"]) from None
    try:
        encoded = base64.b64encode(file.read_bytes()).decode("ascii")
    except OSError:
        raise RequestValidationError([f"the attachment {name} is no longer on the server; attach it again"]) from None
    return f"data:{_MIME[image_format]};base64,{encoded}"


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
            raise RequestValidationError([f"{file.name} is {size / 1e6:.1f} MB; files may be at most {max_bytes / 1e6:.0f} MB"])
        data = file.read_bytes()
    except OSError:
        raise RequestValidationError([f"the attachment {file.name} is no longer on the server; attach it again"]) from None
    if media == "application/pdf" and not data.startswith(b"%PDF"):
        raise RequestValidationError([f"{file.name} is not a PDF file"])
    return f"data:{media};base64,{base64.b64encode(data).decode('ascii')}"
