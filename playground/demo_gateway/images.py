"""`POST /v1/images/generations` on the demo gateway, written from the spec (not from the client).

The spec does not show the answer's shape; the demo answers in the OpenAI images shape:
`{"created", "data": [{"b64_json", "revised_prompt"}], "size", "output_format"}`. Every image is
a real picture made with Pillow at the asked aspect ratio (`size`, `W:H`, default 1:1) and size
tier (`image_size`: the long side is 1024, 2048 or 3072 pixels, default 1K): the prompt's
subject drawn as a simple scene (`scenes.py`: a small vocabulary of subjects, colours and times
of day; each image index moves things about), with a small footer line, encoded as
`mime_type` (PNG, JPEG or WebP). With an image in `contents` (image-to-image, or a model turn
of a multi-turn edit) the newest one is the picture: fitted to the frame and recoloured, or
painted as a watercolour / drawn as a sketch / turned grey when the instruction says so.

Rules (400 `invalid_request_error`, the message names the field): a known model (else 404),
a prompt or a user turn in `contents`, `size` as `W:H` between 1:8 and 8:1, `n` from 1 to 4,
`response_format` only `b64_json`, `image_size` 1K/2K/3K, `mime_type` png/jpeg/webp,
`response_modalities` naming image, `quality` auto/low/medium/high/standard/hd, turns
`{role: user|model, parts: [{text} | {image}]}` with readable images. A prompt containing the
word "forbidden" is refused as a content-policy error (400, code `content_policy_violation`).

Faults: the status faults, `stall`, `html_error` and `body_*` are applied by the app; here
`malformed` answers JSON cut off in the middle, `cut` closes the connection halfway through
the body and `stream_error` puts an error object in a 200 answer.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import hashlib
import io
import re
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from PIL import (
    Image,
    ImageDraw,
    ImageFilter,
    ImageFont,
    ImageOps,
    UnidentifiedImageError,
)
from starlette.responses import JSONResponse, Response, StreamingResponse

from playground.demo_gateway import scenes
from playground.demo_gateway.catalog import IMAGE_MODELS
from playground.demo_gateway.common import HTTPProblem
from playground.demo_gateway.faults import Fault, strip_markers

TIERS = {"1K": 1024, "2K": 2048, "3K": 3072}
MAX_N = 4
MAX_RATIO = 8
FORMATS = {"image/png": "PNG", "image/jpeg": "JPEG", "image/webp": "WEBP"}
QUALITIES = ("auto", "low", "medium", "high", "standard", "hd")
REFUSED_WORD = "forbidden"
MAX_INPUT_BYTES = 50 * 1024 * 1024
MAX_INPUT_PIXELS = 40_000_000
_RATIO = re.compile(r"^(\d{1,5}):(\d{1,5})$")
_DATA_URL = re.compile(r"^data:image/[\w.+-]+;base64,(.*)$", re.DOTALL)


def _invalid(field: str, message: str) -> HTTPProblem:
    return HTTPProblem(400, "invalid", f"{field}: {message}", code="invalid_value")


@dataclass(frozen=True)
class Plan:
    """What to draw, read from a checked body."""

    model: str
    instruction: str
    ratio: tuple[int, int]
    tier: str
    n: int
    mime_type: str
    source: Image.Image | None


def _decode_image(value: Any, where: str) -> Image.Image:
    if not isinstance(value, str) or not value:
        raise _invalid(where, "must be a data URL or a base64 string")
    match = _DATA_URL.match(value)
    if value.startswith("data:") and not match:
        raise _invalid(where, "a data URL must be data:image/<type>;base64,<data>")
    payload = match.group(1) if match else value
    if len(payload) * 3 // 4 > MAX_INPUT_BYTES:
        raise _invalid(where, "the image is larger than 50 MB")
    try:
        data = base64.b64decode(payload, validate=True)
        with Image.open(io.BytesIO(data), formats=("PNG", "JPEG", "WEBP", "GIF")) as opened:
            if opened.width * opened.height > MAX_INPUT_PIXELS:
                raise _invalid(where, f"the image has more than {MAX_INPUT_PIXELS:,} pixels")
            return opened.convert("RGB")
    except (binascii.Error, ValueError, UnidentifiedImageError, OSError, Image.DecompressionBombError):
        raise _invalid(where, "not a readable PNG, JPEG, WebP or GIF image") from None


def _turns(contents: Any) -> tuple[str, Image.Image | None]:
    """(the last user turn's text, the newest image of any turn) of checked `contents`."""
    if not isinstance(contents, list) or not contents:
        raise _invalid("contents", "must be a non-empty array of turns")
    newest: Image.Image | None = None
    for index, turn in enumerate(contents):
        if not isinstance(turn, dict) or turn.get("role") not in ("user", "model"):
            raise _invalid(f"contents[{index}].role", "must be user or model")
        parts = turn.get("parts")
        if not isinstance(parts, list) or not parts:
            raise _invalid(f"contents[{index}].parts", "must be a non-empty array")
        for number, part in enumerate(parts):
            if not isinstance(part, dict) or len(part) != 1 or not ({"text", "image"} & set(part)):
                raise _invalid(f"contents[{index}].parts[{number}]", "a part is {text} or {image}")
            if "text" in part and not isinstance(part["text"], str):
                raise _invalid(f"contents[{index}].parts[{number}].text", "must be a string")
            if "image" in part:
                newest = _decode_image(part["image"], f"contents[{index}].parts[{number}].image")
    if contents[-1]["role"] != "user":
        raise _invalid("contents", "the last turn must be the user's")
    text = " ".join(p["text"] for p in contents[-1]["parts"] if "text" in p)
    return text, newest


def check(body: dict[str, Any]) -> Plan:
    """The body read by the spec's rules; raises `HTTPProblem` naming the field."""
    model = body.get("model")
    if not isinstance(model, str) or not model:
        raise _invalid("model", "is required")
    if model not in IMAGE_MODELS:
        raise HTTPProblem(404, "not_found_error", f"The image model {model!r} does not exist; use one of {', '.join(IMAGE_MODELS)}.",
                          code="model_not_found")
    prompt = body.get("prompt")
    if prompt is not None and not isinstance(prompt, str):
        raise _invalid("prompt", "must be a string")
    instruction, source = _turns(body["contents"]) if body.get("contents") is not None else ("", None)
    instruction = strip_markers(instruction or prompt or "")
    if not instruction and source is None:
        raise _invalid("prompt", "is required (or a user turn in contents)")
    size = body.get("size", "1:1")
    match = _RATIO.match(size) if isinstance(size, str) else None
    if isinstance(size, str) and re.match(r"^\d+x\d+$", size):
        raise _invalid("size", f"give an aspect ratio W:H such as 16:9; this family does not take pixel sizes like {size}")
    if not match or not int(match[1]) or not int(match[2]):
        raise _invalid("size", "must be an aspect ratio W:H with positive whole numbers, such as 16:9")
    ratio = (int(match[1]), int(match[2]))
    if max(ratio) > MAX_RATIO * min(ratio):
        raise _invalid("size", f"the aspect ratio must be between 1:{MAX_RATIO} and {MAX_RATIO}:1")
    n = body.get("n", 1)
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_N:
        raise _invalid("n", f"must be an integer from 1 to {MAX_N}")
    if body.get("response_format", "b64_json") != "b64_json":
        raise _invalid("response_format", "only b64_json is offered for the gx image family")
    tier = body.get("image_size", "1K")
    if tier not in TIERS:
        raise _invalid("image_size", "must be 1K, 2K or 3K")
    mime_type = body.get("mime_type", "image/png")
    if mime_type not in FORMATS:
        raise _invalid("mime_type", f"must be one of {', '.join(FORMATS)}")
    modalities = body.get("response_modalities")
    if modalities is not None and (not isinstance(modalities, str) or "image" not in modalities.lower()):
        raise _invalid("response_modalities", "must include image")
    quality = body.get("quality")
    if quality is not None and quality not in QUALITIES:
        raise _invalid("quality", f"must be one of {', '.join(QUALITIES)}")
    if re.search(rf"\b{REFUSED_WORD}\b", f"{instruction} {prompt or ''}", re.IGNORECASE):
        raise HTTPProblem(400, "invalid_request_error", "Your request was rejected by the safety system: the demo refuses prompts "
                          f"with the word “{REFUSED_WORD}”.", code="content_policy_violation")
    return Plan(model, instruction, ratio, tier, n, mime_type, source)


def frame_size(ratio: tuple[int, int], tier: str) -> tuple[int, int]:
    """Pixels for an aspect ratio at a tier: the long side is the tier's 1024, 2048 or 3072."""
    long_side, (w, h) = TIERS[tier], ratio
    if w >= h:
        return long_side, max(1, round(long_side * h / w))
    return max(1, round(long_side * w / h)), long_side


def _colours(seed: bytes) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    return (seed[0], seed[1] // 2, seed[2]), (seed[3] // 2, seed[4], 128 + seed[5] // 2)


def _gradient(size: tuple[int, int], seed: bytes) -> Image.Image:
    first, second = _colours(seed)
    style = seed[6] % 3
    mask = Image.radial_gradient("L") if style == 2 else Image.linear_gradient("L")
    if style == 1:
        mask = mask.transpose(Image.Transpose.ROTATE_90)
    return Image.composite(Image.new("RGB", size, first), Image.new("RGB", size, second), mask.resize(size))


def _restyle(source: Image.Image, size: tuple[int, int], instruction: str, seed: bytes) -> Image.Image:
    """The uploaded or earlier image, fitted to the frame and changed as the instruction says."""
    fitted = ImageOps.fit(source, size)
    words = instruction.lower()
    if "watercolo" in words:
        soft = fitted.filter(ImageFilter.ModeFilter(7)).filter(ImageFilter.GaussianBlur(max(size) / 400))
        return Image.blend(ImageOps.posterize(soft, 4), Image.new("RGB", size, (250, 246, 236)), 0.25)
    if "sketch" in words or "pencil" in words:
        return ImageOps.invert(ImageOps.grayscale(fitted).filter(ImageFilter.FIND_EDGES)).convert("RGB")
    if any(word in words for word in ("grey", "gray", "black and white", "monochrome")):
        return ImageOps.grayscale(fitted).convert("RGB")
    return Image.blend(fitted, _gradient(size, seed), 0.35)


def _footer(image: Image.Image, footer: str) -> None:
    """A small line at the bottom saying where the picture came from (the picture itself carries no words)."""
    width, height = image.size
    size = max(10, min(width, height) // 28)
    ImageDraw.Draw(image).text((size // 2, height - size * 1.4), footer, font=ImageFont.load_default(size=size), fill="white",
                               stroke_width=1, stroke_fill="black")


def render(plan: Plan, index: int) -> bytes:
    """Image number `index` of a plan, encoded as asked: the prompt's scene (`scenes.py`), or the given image edited."""
    size = frame_size(plan.ratio, plan.tier)
    seed = hashlib.sha256(f"{plan.instruction}|{index}".encode()).digest()
    if plan.source is not None:
        picture = _restyle(plan.source, size, plan.instruction, seed)
    else:
        picture = scenes.draw(scenes.read(plan.instruction), size, variant=index)
    _footer(picture, f"demo gateway · {size[0]}x{size[1]} · image {index + 1} of {plan.n}")
    buffer = io.BytesIO()
    picture.save(buffer, format=FORMATS[plan.mime_type], **({"quality": 90} if plan.mime_type != "image/png" else {}))
    return buffer.getvalue()


def revised_prompt(plan: Plan, index: int) -> str:
    w, h = plan.ratio
    if re.search(r"[\u4e00-\u9fff]", plan.instruction[:300]):
        kind = "对所给图片的修改" if plan.source is not None else scenes.describe(scenes.read(plan.instruction), True)
        return f"{plan.instruction or '所给图片'}——离线演示网关绘制：{kind}，{w}:{h}，{plan.tier}（第 {index + 1} 张，共 {plan.n} 张）"
    kind = "an edit of the given image" if plan.source is not None else scenes.describe(scenes.read(plan.instruction), False)
    return f"{plan.instruction or 'the given image'} — drawn by the demo gateway: {kind}, {w}:{h} at {plan.tier} (image {index + 1} of {plan.n})"


async def _cut_body(body: bytes) -> AsyncIterator[bytes]:
    yield body[: len(body) // 2]
    raise ConnectionAbortedError("demo fault: connection cut mid-body")


async def generate(body: dict[str, Any], fault: Fault | None) -> Response:
    plan = check(body)
    images = await asyncio.to_thread(lambda: [render(plan, index) for index in range(plan.n)])
    size = frame_size(plan.ratio, plan.tier)
    answer = {
        "created": int(time.time()),
        "data": [{"b64_json": base64.b64encode(data).decode("ascii"), "revised_prompt": revised_prompt(plan, index)}
                 for index, data in enumerate(images)],
        "size": f"{size[0]}x{size[1]}",
        "output_format": FORMATS[plan.mime_type].lower(),
    }
    name = fault.name if fault is not None else ""
    if name == "stream_error":
        return JSONResponse({"error": {"message": "The image model failed (demo fault).", "type": "upstream_error"}})
    response = JSONResponse(answer)
    if name == "malformed":
        return Response(bytes(response.body)[: max(len(response.body) // 2, 1)], media_type="application/json")
    if name == "cut":
        return StreamingResponse(_cut_body(bytes(response.body)), media_type="application/json")
    return response
