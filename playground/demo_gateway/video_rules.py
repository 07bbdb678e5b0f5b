"""The demo gateway's own check of video submit bodies, per family, as the spec states them.

Written independently of the client (the gateway must catch what a careless client sends).
Returns the settings the fake renderer needs: family, aspect ratio, size in pixels and length.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from playground.demo_gateway.common import HTTPProblem
from playground.demo_gateway.video_clip import frame_size

VIDEO_MODELS = {
    "vidA-2": "vidA",
    "vidB-3.0-fast-generate-001": "vidB", "vidB-3.1-fast-generate-preview": "vidB",
    "vidC2.5-t2v-preview": "vidC", "vidC2.5-i2v-preview": "vidC",
    "vidD-1-0-lite-t2v-250428": "vidD", "vidD-1-0-lite-i2v-250428": "vidD", "vidD-1-0-pro-250528": "vidD",
    "vidD-1-5-pro-251215": "vidD", "vidD-1-5-pro-251215-noAudio": "vidD",
}
VIDD_RATIOS = {"16:9", "9:16", "1:1", "4:3", "3:4", "adaptive"}
_FLAG = re.compile(r"(?<!\S)--([A-Za-z]+)(?:\s+(?!--)(\S+))?")
_ALIASES = {"rs": "resolution", "dur": "duration", "framespersecond": "fps", "wm": "watermark", "cf": "camerafixed"}
_KNOWN_FLAGS = {"resolution", "ratio", "duration", "frames", "fps", "seed", "watermark", "camerafixed"}


@dataclass(frozen=True)
class VideoJob:
    model: str
    family: str
    prompt: str
    ratio: str
    callback_url: str | None = None
    width: int = 1280
    height: int = 720
    seconds: float = 5.0


def _bad(message: str) -> HTTPProblem:
    return HTTPProblem(400, "invalid", message, code="invalid_video_parameter")


def _one_of(body: dict[str, Any], name: str, allowed: set[Any]) -> Any:
    value = body.get(name)
    if value is not None and value not in allowed:
        raise _bad(f"{name} {value!r} is not supported; use one of {sorted(map(str, allowed))}.")
    return value


def _text(value: Any, name: str) -> str:
    if value is not None and not isinstance(value, str):
        raise _bad(f"{name} must be a string.")
    return value or ""


def check_video_body(body: dict[str, Any]) -> VideoJob:
    model = body.get("model")
    if not isinstance(model, str) or not model:
        raise _bad("model is required.")
    family = VIDEO_MODELS.get(model)
    if family is None:
        raise HTTPProblem(404, "not_found_error", f"The video model {model!r} does not exist.", code="model_not_found")
    return {"vidA": _vida, "vidB": _vidb, "vidC": _vidc, "vidD": _vidd}[family](model, body)


def _vida(model: str, body: dict[str, Any]) -> VideoJob:
    seconds = body.get("seconds")
    if seconds is not None and str(seconds) not in {"4", "8", "12"}:
        raise _bad(f"seconds {seconds!r} is not supported; use 4, 8 or 12.")
    size = _one_of(body, "size", {"720x1280", "1280x720"}) or "720x1280"
    remix = body.get("remix_from_video_id")
    if remix is not None and not str(remix).startswith("video_"):
        raise _bad("remix_from_video_id must begin with video_.")
    prompt = _text(body.get("prompt"), "prompt")
    if not prompt.strip():
        raise _bad("prompt is required for vidA.")
    width, height = (int(part) for part in size.split("x"))
    return VideoJob(model, "vidA", prompt, "16:9" if size == "1280x720" else "9:16", None, width, height, float(seconds or 4))


def _vidb(model: str, body: dict[str, Any]) -> VideoJob:
    seconds = _one_of(body, "durationSeconds", {4, 6, 8}) or 4
    ratio = _one_of(body, "aspectRatio", {"16:9", "9:16"}) or "16:9"
    resolution = _one_of(body, "resolution", {"720p", "1080p"}) or "1080p"
    _one_of(body, "personGeneration", {"allow_all", "allow_adult", "dont_allow"})
    count = body.get("numberOfVideos")
    if count is not None and (not isinstance(count, int) or not 1 <= count <= 4):
        raise _bad("numberOfVideos must be 1 to 4.")
    fps = body.get("fps")
    if fps is not None and (not isinstance(fps, int) or fps <= 0):
        raise _bad("fps must be a positive integer.")
    if body.get("lastFrame") is not None and "3.1" not in model:
        raise _bad("lastFrame is only supported by the vidB-3.1 models.")
    if "3.1" in model and not body.get("image"):
        raise _bad(f"{model} needs a first frame in image.")
    return VideoJob(model, "vidB", _text(body.get("prompt"), "prompt"), ratio, None, *frame_size(ratio, resolution), float(seconds))


def _vidc(model: str, body: dict[str, Any]) -> VideoJob:
    seconds = _one_of(body, "duration", {5, 10}) or 5
    resolution = _one_of(body, "resolution", {"480p", "720p", "1080p"}) or "720p"
    size = body.get("size")
    ratio = "16:9"
    width, height = frame_size(ratio, resolution)
    if size is not None:
        match = re.fullmatch(r"(\d+)\*(\d+)", str(size))
        if "t2v" not in model or not match:
            raise _bad("size must be <width>*<height> and is for text-to-video only.")
        width, height = int(match[1]), int(match[2])
        ratio = "16:9" if width > height else "9:16" if height > width else "1:1"
        if not 16 <= width <= 4096 or not 16 <= height <= 4096:
            raise _bad("size: width and height must be from 16 to 4096.")
        width, height = width + width % 2, height + height % 2
    seed = body.get("seed")
    if seed is not None and (not isinstance(seed, int) or not 0 <= seed <= 2_147_483_647):
        raise _bad("seed must be an integer from 0 to 2147483647.")
    audio_url = body.get("audio_url")
    if audio_url is not None and not str(audio_url).startswith("https://"):
        raise _bad("audio_url must be an HTTPS URL.")
    if "i2v" in model and not body.get("image"):
        raise _bad(f"{model} needs an image.")
    return VideoJob(model, "vidC", _text(body.get("prompt"), "prompt"), ratio, None, width, height, float(seconds))


def _vidd(model: str, body: dict[str, Any]) -> VideoJob:
    metadata = body.get("metadata")
    content = metadata.get("content") if isinstance(metadata, dict) else None
    if not isinstance(content, list) or not content:
        raise _bad("metadata.content is required for vidD models.")
    texts = [item.get("text") for item in content if isinstance(item, dict) and item.get("type") == "text"]
    images = [item for item in content if isinstance(item, dict) and item.get("type") == "image_url"]
    if len(texts) + len(images) != len(content) or not texts or not isinstance(texts[0], str):
        raise _bad("metadata.content items are {type: text, text} or {type: image_url, image_url: {url}, role}.")
    text = texts[0]
    flags = _vidd_flags(model, text)
    roles = [item.get("role") or "first_frame" for item in images]
    if images and "t2v" in model:
        raise _bad(f"{model} takes text only.")
    if "reference_image" in roles:
        if "lite-i2v" not in model:
            raise _bad(f"{model} has no reference-image mode.")
        cited = {int(n) for n in re.findall(r"\[图(\d+)\]", text)}
        if cited != set(range(1, roles.count("reference_image") + 1)):
            raise _bad("Reference images must be cited in the text as [图1], [图2], ... one per image.")
    if "last_frame" in roles and ("first_frame" not in roles or "pro-250528" in model):
        raise _bad("First+last frame mode needs images with roles first_frame and last_frame.")
    if "pro-250528" in model and len(images) > 1:
        raise _bad(f"{model} takes a first frame only.")
    callback = metadata.get("callback_url")
    if callback is not None and not str(callback).startswith(("http://", "https://")):
        raise _bad("metadata.callback_url must be an http(s) URL.")
    ratio = flags.get("ratio", "16:9")
    ratio = "16:9" if ratio == "adaptive" else ratio
    fps = int(flags["fps"]) if flags.get("fps", "").isdigit() and int(flags["fps"]) > 0 else 24
    seconds = int(flags["frames"]) / fps if "frames" in flags else float(flags.get("duration") or 5)
    width, height = frame_size(ratio, flags.get("resolution", "720p"))
    return VideoJob(model, "vidD", text, ratio, callback, width, height, seconds)


def _vidd_flags(model: str, text: str) -> dict[str, str]:
    flags: dict[str, str] = {}
    for match in _FLAG.finditer(text):
        name = _ALIASES.get(match[1].lower(), match[1].lower())
        if name not in _KNOWN_FLAGS:
            raise _bad(f"Unknown flag --{match[1]}.")
        flags[name] = match[2] or ""
    pro15 = "1-5-pro" in model
    resolutions = {"480p", "720p"} if pro15 else {"720p", "1080p"} if "pro-250528" in model else {"480p", "720p", "1080p"}
    if "resolution" in flags and flags["resolution"] not in resolutions:
        raise _bad(f"--resolution {flags['resolution']} is not supported by {model}.")
    ratios = VIDD_RATIOS - {"adaptive"} if "lite-t2v" in model else VIDD_RATIOS
    if "ratio" in flags and flags["ratio"] not in ratios:
        raise _bad(f"--ratio {flags['ratio']} is not supported by {model}.")
    if "duration" in flags and (not flags["duration"].isdigit() or (pro15 and not 4 <= int(flags["duration"]) <= 12)):
        raise _bad(f"--duration {flags['duration']} is not supported by {model}.")
    if "frames" in flags:
        frames = int(flags["frames"]) if flags["frames"].isdigit() else 0
        if not pro15 or not 29 <= frames <= 289 or (frames - 25) % 4:
            raise _bad("--frames is for the 1.5 pro models only, 25 + 4n from 29 to 289.")
    if ("seed" in flags and not re.fullmatch(r"-1|\d+", flags["seed"])) or int(flags.get("seed", 0)) > 2**32 - 1:
        raise _bad("--seed must be an integer from -1 to 4294967295.")
    for name in ("watermark", "camerafixed"):
        if name in flags and flags[name] not in ("true", "false"):
            raise _bad(f"--{name} must be true or false.")
    if "camerafixed" in flags and "lite" not in model:
        raise _bad("--camerafixed is for the lite models only.")
    return flags
