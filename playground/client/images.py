"""Image generation: `POST /v1/images/generations`, its request rules, and reading whatever
shape the answer comes in.

    api = ImagesAPI(transport, directory)
    result, exchange = await api.generate(conn, ImageRequest.build(model=..., prompt=..., size="16:9"))
    result.images[0].path, .format, .width, .height, .size, .revised_prompt

The spec does not show the answer's shape. The OpenAI images shape (`{created, data: [{b64_json
| url, revised_prompt}]}`) is read, and so is any envelope around it: image items are found
wherever the body carries them (see `find_image_items`). Each image is decoded strictly (size
checked first), opened with Pillow (format list, pixel cap) and saved with its original bytes;
a `url` item is fetched without credentials, under the same cap, and checked the same way.
The call is paid for: it is never resent once the gateway may have accepted it.
"""

from __future__ import annotations

from playground.client.texts import Items, Text, joined

import asyncio
import base64
import binascii
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import httpx
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from playground.client.errors import (
    GatewayError,
    RequestValidationError,
    UnexpectedResponseError,
    error_in_answer,
)
from playground.client.media import (
    MAX_INLINE_IMAGE_BYTES,
    MAX_UPLOAD_BYTES,
    decode_inline_image,
    image_data_url,
    image_mime,
    media_directory,
    store_image,
)
from playground.client.transport import Connection, Exchange, Transport, read_error
from playground.client.validation import RequestModel

IMAGES_PATH = "/v1/images/generations"
MAX_IMAGES_PER_CALL = 4
"""Upper bound on `n`: the spec gives none; the vendor's image models return at most 4 per call."""
IMAGE_SIZES = ("1K", "2K", "3K")
TIER_PIXELS = {"1K": 1024, "2K": 2048, "3K": 3072}
MAX_RESULT_IMAGES = 16
INLINE_KEYS = ("b64_json", "b64", "base64", "image")
ECHO_KEYS = frozenset({"contents", "request", "input"})
"""Keys under which some gateways echo the request: the images there are ours, not results."""
_RATIO = re.compile(r"^\s*(\d{1,5})\s*:\s*(\d{1,5})\s*$")
_MIME_TYPE = re.compile(r"^image/[a-z0-9][a-z0-9.+-]*$")
_DATA_URL = re.compile(r"^data:(?P<type>[\w.+-]+/[\w.+-]+)?(;[\w=.+-]+)*;base64,(?P<data>.*)$", re.DOTALL)
_MODALITIES = frozenset({"image", "text"})
_CHUNK = 256 * 1024


def parse_ratio(text: str | None) -> tuple[int, int] | None:
    """(W, H) of a `W:H` aspect ratio with positive whole numbers, else None."""
    match = _RATIO.match(text or "")
    if not match or int(match[1]) <= 0 or int(match[2]) <= 0:
        return None
    return int(match[1]), int(match[2])


def _checked_image_string(value: str) -> str:
    """A part's image: a data URL or plain base64, well-formed and within the upload cap."""
    match = _DATA_URL.match(value)
    if value.startswith("data:") and (not match or not (match["type"] or "").startswith("image/")):
        raise ValueError(Text("images.part_not_image_data_url"))
    payload = match["data"] if match else value
    if len(payload) * 3 // 4 > MAX_UPLOAD_BYTES:
        raise ValueError(Text("images.part_too_large", megabytes=MAX_UPLOAD_BYTES // 1_000_000))
    try:
        base64.b64decode(payload, validate=True)
    except (binascii.Error, ValueError):
        raise ValueError(Text("images.part_not_base64")) from None
    if not payload:
        raise ValueError(Text("images.part_empty"))
    return value


class ContentPart(BaseModel):
    """One part of a turn: `{text}` or `{image}` (data URL or base64)."""

    model_config = ConfigDict(extra="forbid")
    text: str | None = None
    image: str | None = None

    @field_validator("image")
    @classmethod
    def _image(cls, value: str | None) -> str | None:
        return None if value is None else _checked_image_string(value)

    @model_validator(mode="after")
    def _one_kind(self) -> ContentPart:
        if (self.text is None) == (self.image is None):
            raise ValueError(Text("images.part_text_or_image"))
        return self


class ContentTurn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    role: Literal["user", "model"]
    parts: list[ContentPart] = Field(min_length=1)


class ImageRequest(RequestModel):
    """The body of `POST /v1/images/generations` with the spec's rules (the model is free text)."""

    model: str = Field(min_length=1)
    prompt: str | None = None
    size: str | None = None
    quality: str | None = Field(default=None, min_length=1, max_length=40)
    n: int | None = Field(default=None, ge=1, le=MAX_IMAGES_PER_CALL, strict=True)
    response_format: str | None = None
    image_size: Literal["1K", "2K", "3K"] | None = None
    mime_type: str | None = None
    response_modalities: str | None = None
    contents: list[ContentTurn] | None = None

    @field_validator("model")
    @classmethod
    def _model(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("name a model")
        return value.strip()

    @field_validator("size")
    @classmethod
    def _size(cls, value: str | None) -> str | None:
        if value is not None and parse_ratio(value) is None:
            raise ValueError(Text("images.size_not_ratio"))
        return value.replace(" ", "") if value is not None else None

    @field_validator("response_format")
    @classmethod
    def _format(cls, value: str | None) -> str | None:
        if value is not None and value != "b64_json":
            raise ValueError(Text("images.only_b64_json"))
        return value

    @field_validator("mime_type")
    @classmethod
    def _mime(cls, value: str | None) -> str | None:
        if value is not None and not _MIME_TYPE.match(value):
            raise ValueError(Text("images.mime_type_not_image"))
        return value

    @field_validator("response_modalities")
    @classmethod
    def _modalities(cls, value: str | None) -> str | None:
        if value is None:
            return None
        words = {word.strip().lower() for word in value.split(",") if word.strip()}
        if not words or not words <= _MODALITIES or "image" not in words:
            raise ValueError(Text("images.modalities_without_image"))
        return value

    @model_validator(mode="after")
    def _turns(self) -> ImageRequest:
        if self.contents:
            if self.contents[-1].role != "user":
                raise ValueError(Text("images.last_turn_not_user"))
        elif not (self.prompt or "").strip():
            raise ValueError(Text("images.prompt_needed"))
        return self


def user_turn(text: str, image_urls: list[str] | None = None) -> dict[str, Any]:
    """A user turn: the text first, then each image (data URL)."""
    parts: list[dict[str, Any]] = [{"text": text}] if text.strip() else []
    return {"role": "user", "parts": parts + [{"image": url} for url in image_urls or []]}


def refine_contents(previous: list[dict[str, Any]] | None, previous_prompt: str, image_path: str | Path,
                    instruction: str) -> list[dict[str, Any]]:
    """Multi-turn editing: the turns so far (or the earlier prompt), the chosen image as the
    model's turn, then the new instruction. The image is read and checked like an upload."""
    turns = [dict(turn) for turn in previous] if previous else [user_turn(previous_prompt)]
    turns.append({"role": "model", "parts": [{"image": image_data_url(image_path)}]})
    turns.append(user_turn(instruction))
    return turns


@dataclass(frozen=True)
class GeneratedImage:
    """One saved result: its file (original bytes), what it is, and how it arrived."""

    path: Path
    format: str
    width: int
    height: int
    size: int
    revised_prompt: str | None = None
    delivered_as: str = "b64_json"

    @property
    def mime_type(self) -> str:
        return image_mime(self.format)


@dataclass
class ImagesResult:
    images: list[GeneratedImage]
    created: int | None = None
    problems: list[str] = field(default_factory=list)
    """Images of the answer that could not be used (the others are kept)."""
    fetches: list[Exchange] = field(default_factory=list, repr=False)
    """The calls that fetched `url` items."""


def _image_value(item: dict[str, Any]) -> tuple[str, str] | None:
    """(key, value) of the field of an item that carries the image."""
    for key in INLINE_KEYS + ("url",):
        if isinstance(item.get(key), str) and item[key].strip():
            return key, item[key]
    inline = item.get("inlineData") or item.get("inline_data")
    if isinstance(inline, dict) and isinstance(inline.get("data"), str):
        return "inlineData", inline["data"]
    return None


def find_image_items(body: Any, limit: int = 10_000) -> list[dict[str, Any]]:
    """Every image item in an answer, in order: dicts with `b64_json`, `b64`, `base64`, `image`,
    `url` (or native `inlineData`) as a string, and bare `data:image/...` strings, at any depth,
    except under keys that echo the request (`contents`, `request`, `input`)."""
    found: list[dict[str, Any]] = []
    stack: list[Any] = [body]
    while stack and len(found) < limit:
        node = stack.pop()
        if isinstance(node, dict):
            if _image_value(node) is not None:
                found.append(node)
                continue
            stack.extend(reversed([value for key, value in node.items() if key not in ECHO_KEYS]))
        elif isinstance(node, list):
            stack.extend(reversed(node))
        elif isinstance(node, str) and node.startswith("data:image/"):
            found.append({"url": node})
    return found


def _without_image_data(body: Any, consumed: set[int]) -> Any:
    """The answer as the inspector keeps it: each inline image replaced by its length (urls stay)."""
    if isinstance(body, dict):
        return {k: _without_image_data(v, consumed) for k, v in body.items()}
    if isinstance(body, list):
        return [_without_image_data(v, consumed) for v in body]
    if isinstance(body, str) and id(body) in consumed and not body.startswith(("http://", "https://")):
        return f"<{len(body):,} characters of image data: saved as a file>"
    return body


class ImagesAPI:
    def __init__(self, transport: Transport, directory: Path | None = None, max_image_bytes: int = MAX_INLINE_IMAGE_BYTES) -> None:
        self.transport = transport
        self.directory = directory or media_directory("images")
        self.max_image_bytes = max_image_bytes

    async def generate(self, conn: Connection, request: ImageRequest, extra: dict[str, Any] | None = None) -> tuple[ImagesResult, Exchange]:
        """Send once (never resent after the gateway may have accepted it), then read, check and
        save every image of the answer. Raises when the answer holds no usable image. `extra`
        fields (ones the spec does not name) are sent as they are."""
        body = {**(extra or {}), **request.to_body()}
        data, exchange = await self.transport.request_json(conn, "POST", IMAGES_PATH, body, retry_after_accept=False)
        try:
            result = await self._read(data, exchange)
        except GatewayError as error:
            error.exchange = exchange
            exchange.finish(str(error))
            raise
        return result, exchange

    async def _read(self, data: Any, exchange: Exchange) -> ImagesResult:
        items = find_image_items(data, MAX_RESULT_IMAGES + 1)
        if not items:
            embedded = error_in_answer(data)
            if embedded is not None:
                raise embedded
            raise UnexpectedResponseError(Text("images.answer_without_image"))
        result = ImagesResult([], data.get("created") if isinstance(data, dict) and isinstance(data.get("created"), int) else None)
        if len(items) > MAX_RESULT_IMAGES:
            result.problems.append(Text("images.too_many_images", limit=MAX_RESULT_IMAGES))
        consumed: set[int] = set()
        for number, item in enumerate(items[:MAX_RESULT_IMAGES], start=1):
            found = _image_value(item)
            assert found is not None  # find_image_items keeps only the items that carry an image
            key, value = found
            consumed.add(id(value))
            revised = item.get("revised_prompt") or item.get("revisedPrompt")
            try:
                image = await self._one(value, key, result)
            except GatewayError as error:
                problem = joined(error.problems) if isinstance(error, RequestValidationError) else error.message
                result.problems.append(Text("images.image_problem", number=number, problem=problem))
                continue
            result.images.append(GeneratedImage(image.path, image.format, image.width, image.height, image.size,
                                                revised if isinstance(revised, str) else None, image.delivered_as))
        exchange.response_body = _without_image_data(data, consumed)
        exchange.notes.extend(Text("images.not_used", problem=problem) for problem in result.problems)
        if not result.images:
            raise UnexpectedResponseError(Text("images.no_usable_image", problems=Items(result.problems)))
        return result

    async def _one(self, value: str, key: str, result: ImagesResult) -> GeneratedImage:
        value = value.strip()
        if value.startswith(("http://", "https://")):
            data, delivered = await self._fetch(value, result), "url"
        else:
            match = _DATA_URL.match(value)
            if value.startswith("data:") and not match:
                raise UnexpectedResponseError(Text("images.data_url_not_base64"))
            payload = "".join((match["data"] if match else value).split())
            if key == "url" and not match:
                raise UnexpectedResponseError(Text("images.address_not_http_or_data", value=repr(value[:60])))
            data = await asyncio.to_thread(decode_inline_image, payload, self.max_image_bytes, Text("media.gateway_image"))
            delivered = Text("images.delivered_as_data_url") if match else key
        stored = await asyncio.to_thread(store_image, data, self.directory, Text("media.the_image"))
        return GeneratedImage(stored.path, stored.format, stored.width, stored.height, stored.size, None, delivered)

    async def _fetch(self, url: str, result: ImagesResult) -> bytes:
        """GET an image URL: no credentials, redirects followed, size capped while reading."""
        cap = self.max_image_bytes
        received = bytearray()
        async with self.transport.fetch(url, accept="image/*", what="image") as (response, exchange):
            result.fetches.append(exchange)
            declared = int(response.headers.get("content-length") or 0)
            if declared > cap:
                raise UnexpectedResponseError(Text("images.url_image_declared_too_large", megabytes=declared / 1e6, limit=cap // 1_000_000))
            try:
                async for chunk in response.aiter_bytes(_CHUNK):
                    received += chunk
                    if len(received) > cap:
                        raise UnexpectedResponseError(Text("images.url_image_too_large", limit=cap // 1_000_000))
            except httpx.HTTPError as exc:
                raise read_error(exc, Text("media.the_image")) from None
        exchange.response_body = f"<{len(received):,} bytes of image>"
        return bytes(received)

