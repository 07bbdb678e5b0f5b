"""Video submit bodies, one request model per family, each enforcing the spec's rules.

`VideoInput` is the neutral form a person fills in; `build_video_request` turns it into the
family's body (`VidARequest` ... `VidDRequest`) or raises `RequestValidationError` listing
every problem, before anything is sent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, field_validator, model_validator

from playground.client.errors import RequestValidationError
from playground.client.validation import RequestModel, validate
from playground.client.video_catalog import (
    VIDA,
    VIDB,
    VIDC,
    VIDD,
    Mode,
    VideoModel,
    video_model,
)
from playground.client.video_flags import (
    flag_problems,
    parse_flags,
    reference_markers,
    render_flags,
)

VIDC_SEED_MAX = 2_147_483_647
VIDB_COUNT_RANGE = (1, 4)
PERSON_POLICIES = ("allow_all", "allow_adult", "dont_allow")
_VIDC_SIZE = re.compile(r"^\d{2,5}\*\d{2,5}$")


def _known(model_id: str, family: str) -> VideoModel:
    model = video_model(model_id)
    if model is None or model.family != family:
        raise ValueError(f"{model_id!r} is not a {family} model")
    return model


def _choice(name: str, value: str | None, allowed: tuple[str, ...]) -> list[str]:
    if value is None or value in allowed:
        return []
    return [f"{name} must be one of {', '.join(allowed)} (got {value!r})"]


def _fail(problems: list[str]) -> None:
    if problems:
        raise ValueError("; ".join(problems))


class VidARequest(RequestModel):
    model: str
    prompt: str | None = None
    seconds: int | str | None = None
    size: str | None = None
    input_reference: str | None = None
    remix_from_video_id: str | None = None

    @model_validator(mode="after")
    def _rules(self) -> VidARequest:
        model = _known(self.model, VIDA)
        problems = []
        if self.seconds is not None and str(self.seconds) not in {str(d) for d in model.durations}:
            problems.append(f"seconds must be 4, 8 or 12 (got {self.seconds!r})")
        if self.size is not None and self.size not in model.sizes:
            problems.append(f"size must be 720x1280 or 1280x720 (got {self.size!r})")
        if self.remix_from_video_id is not None and not self.remix_from_video_id.startswith("video_"):
            problems.append(f"remix_from_video_id must be a vidA video id beginning with video_ (got {self.remix_from_video_id!r})")
        if not (self.prompt or "").strip():
            problems.append("a prompt is needed (it describes the video, or the change for a remix)")
        _fail(problems)
        return self


class VidBRequest(RequestModel):
    model: str
    prompt: str | None = None
    durationSeconds: int | None = None
    aspectRatio: str | None = None
    resolution: str | None = None
    fps: int | None = None
    image: str | None = None
    lastFrame: str | None = None
    numberOfVideos: int | None = None
    personGeneration: str | None = None
    seed: int | None = None

    @model_validator(mode="after")
    def _rules(self) -> VidBRequest:
        model = _known(self.model, VIDB)
        problems = []
        if self.durationSeconds is not None and self.durationSeconds not in model.durations:
            problems.append(f"durationSeconds must be 4, 6 or 8 (got {self.durationSeconds})")
        problems += _choice("aspectRatio", self.aspectRatio, model.ratios) + _choice("resolution", self.resolution, model.resolutions)
        problems += _choice("personGeneration", self.personGeneration, PERSON_POLICIES)
        if self.fps is not None and self.fps <= 0:
            problems.append(f"fps must be a positive whole number (got {self.fps})")
        if self.numberOfVideos is not None and not VIDB_COUNT_RANGE[0] <= self.numberOfVideos <= VIDB_COUNT_RANGE[1]:
            problems.append(f"videos per call must be 1 to 4 (got {self.numberOfVideos})")
        if self.lastFrame is not None and not model.last_frame:
            problems.append(f"lastFrame is only for the vidB-3.1 models, not {model.id}")
        if self.lastFrame is not None and self.image is None:
            problems.append("lastFrame needs a first frame (image) too")
        if Mode.TEXT not in model.modes and self.image is None:
            problems.append(f"{model.id} needs a first frame image")
        if self.image is None and not (self.prompt or "").strip():
            problems.append("a prompt is needed for text-to-video")
        _fail(problems)
        return self


class VidCRequest(RequestModel):
    model: str
    prompt: str | None = None
    duration: int | None = None
    resolution: str | None = None
    size: str | None = None
    smart_rewrite: bool | None = None
    generate_audio: bool | None = None
    audio_url: str | None = None
    seed: int | None = None
    image: str | None = None

    @model_validator(mode="after")
    def _rules(self) -> VidCRequest:
        model = _known(self.model, VIDC)
        text_only = Mode.TEXT in model.modes
        problems = []
        if self.duration is not None and self.duration not in model.durations:
            problems.append(f"duration must be 5 or 10 (got {self.duration})")
        problems += _choice("resolution", self.resolution, model.resolutions)
        if self.size is not None and not text_only:
            problems.append(f"size is for text-to-video only; {model.id} takes its ratio from the image")
        elif self.size is not None and not _VIDC_SIZE.match(self.size):
            problems.append(f"size must be written <width>*<height>, for example 1280*720 (got {self.size!r})")
        if self.seed is not None and not 0 <= self.seed <= VIDC_SEED_MAX:
            problems.append(f"seed must be from 0 to {VIDC_SEED_MAX} (got {self.seed})")
        if self.audio_url is not None and not self.audio_url.startswith("https://"):
            problems.append("audio_url must be an https:// address")
        if text_only and self.image is not None:
            problems.append(f"{model.id} is text-to-video; use vidC2.5-i2v-preview for an image")
        if not text_only and self.image is None:
            problems.append(f"{model.id} needs a first frame image")
        if text_only and not (self.prompt or "").strip():
            problems.append("a prompt is needed for text-to-video")
        _fail(problems)
        return self


class ImageURL(BaseModel):
    model_config = ConfigDict(extra="forbid")
    url: str


class VidDContent(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["text", "image_url"]
    text: str | None = None
    image_url: ImageURL | None = None
    role: Literal["first_frame", "last_frame", "reference_image"] | None = None

    @model_validator(mode="after")
    def _shape(self) -> VidDContent:
        if self.type == "text" and (self.text is None or self.image_url is not None or self.role is not None):
            raise ValueError("a text item has only `text`")
        if self.type == "image_url" and (self.image_url is None or self.text is not None):
            raise ValueError("an image_url item has `image_url.url` and an optional role")
        return self


class VidDMetadata(BaseModel):
    model_config = ConfigDict(extra="forbid")
    content: list[VidDContent]
    return_last_frame: bool | None = None
    callback_url: str | None = None

    @field_validator("callback_url")
    @classmethod
    def _callback(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(("http://", "https://")):
            raise ValueError("callback_url must be an http:// or https:// address")
        return value


class VidDRequest(RequestModel):
    model: str
    metadata: VidDMetadata

    @model_validator(mode="after")
    def _rules(self) -> VidDRequest:
        model = _known(self.model, VIDD)
        content = self.metadata.content
        texts = [item.text or "" for item in content if item.type == "text"]
        roles = [item.role or "first_frame" for item in content if item.type == "image_url"]
        problems = []
        if len(texts) != 1 or not texts[0].strip():
            problems.append("metadata.content needs exactly one text item with the prompt")
        text = texts[0] if texts else ""
        problems += flag_problems(text, model)
        references = roles.count("reference_image")
        if roles and Mode.TEXT in model.modes and len(model.modes) == 1:
            problems.append(f"{model.id} is text only: remove the images")
        if references and Mode.REFERENCE not in model.modes:
            problems.append(f"{model.id} has no reference-image mode")
        if references and references != len(roles):
            problems.append("reference images cannot be mixed with first or last frames")
        if references and reference_markers(text) != set(range(1, references + 1)):
            cited = ", ".join(f"[图{n}]" for n in range(1, references + 1))
            problems.append(f"with {references} reference image(s) the text must cite {cited} (found {sorted(reference_markers(text)) or 'none'})")
        if "last_frame" in roles and ("first_frame" not in roles or Mode.FIRST_LAST not in model.modes):
            problems.append("first + last frame needs one image with role first_frame and one with role last_frame" if Mode.FIRST_LAST in model.modes
                            else f"{model.id} does not take a last frame")
        if roles.count("first_frame") > 1 or roles.count("last_frame") > 1:
            problems.append("at most one first_frame and one last_frame image")
        if not roles and Mode.TEXT not in model.modes:
            problems.append(f"{model.id} needs an image")
        if self.metadata.return_last_frame and not model.return_last_frame:
            problems.append(f"return_last_frame is only for the 1.5 pro models, not {model.id}")
        _fail(problems)
        return self


REQUEST_MODELS: dict[str, type[RequestModel]] = {VIDA: VidARequest, VIDB: VidBRequest, VIDC: VidCRequest, VIDD: VidDRequest}


@dataclass(frozen=True)
class VideoInput:
    """What a person asks for, family-neutral. Images are URLs or data URLs."""

    model: str
    mode: Mode = Mode.TEXT
    prompt: str = ""
    duration: int | None = None
    resolution: str | None = None
    ratio: str | None = None
    size: str | None = None
    first_frame: str | None = None
    last_frame: str | None = None
    references: tuple[str, ...] = ()
    remix_from_video_id: str | None = None
    fps: int | None = None
    seed: int | None = None
    count: int | None = None
    person_generation: str | None = None
    watermark: bool | None = None
    camera_fixed: bool | None = None
    frames: int | None = None
    smart_rewrite: bool | None = None
    generate_audio: bool | None = None
    audio_url: str | None = None
    return_last_frame: bool | None = None
    callback_url: str | None = None


def vidd_flags(spec: VideoInput) -> str:
    """The flag text a vidD prompt carries for these settings (frames win over duration)."""
    return render_flags({
        "resolution": spec.resolution, "ratio": spec.ratio,
        "duration": None if spec.frames else spec.duration, "frames": spec.frames,
        "fps": spec.fps, "seed": spec.seed, "watermark": spec.watermark, "camerafixed": spec.camera_fixed,
    })


def vidd_text(spec: VideoInput) -> str:
    flags = vidd_flags(spec)
    return f"{spec.prompt.strip()} {flags}".strip() if not parse_flags(spec.prompt) else spec.prompt.strip()


def _images_for_mode(spec: VideoInput, model: VideoModel) -> list[str]:
    problems = []
    if spec.mode not in model.modes:
        problems.append(f"{model.id} does not do {spec.mode.value} (it does: {', '.join(m.value for m in model.modes)})")
    if spec.mode.needs_first_frame and not spec.first_frame:
        problems.append(f"{spec.mode.value} needs a first frame image")
    if spec.mode is Mode.FIRST_LAST and not spec.last_frame:
        problems.append("first + last frame needs a last frame image")
    if spec.mode is Mode.REFERENCE and not spec.references:
        problems.append("reference mode needs at least one reference image")
    if spec.mode is Mode.REMIX and not spec.remix_from_video_id:
        problems.append("remix needs the id of an earlier vidA video (video_...)")
    return problems


def _family_body(spec: VideoInput, model: VideoModel) -> dict[str, Any]:
    first = spec.first_frame if spec.mode.needs_first_frame else None
    if model.family == VIDA:
        return {"model": model.id, "prompt": spec.prompt, "seconds": spec.duration, "size": spec.size,
                "input_reference": first, "remix_from_video_id": spec.remix_from_video_id if spec.mode is Mode.REMIX else None}
    if model.family == VIDB:
        return {"model": model.id, "prompt": spec.prompt or None, "durationSeconds": spec.duration, "aspectRatio": spec.ratio,
                "resolution": spec.resolution, "fps": spec.fps, "image": first,
                "lastFrame": spec.last_frame if spec.mode is Mode.FIRST_LAST else None,
                "numberOfVideos": spec.count, "personGeneration": spec.person_generation, "seed": spec.seed}
    if model.family == VIDC:
        return {"model": model.id, "prompt": spec.prompt or None, "duration": spec.duration, "resolution": spec.resolution,
                "size": spec.size, "smart_rewrite": spec.smart_rewrite,
                "generate_audio": spec.generate_audio, "audio_url": spec.audio_url or None, "seed": spec.seed, "image": first}
    content: list[dict[str, Any]] = [{"type": "text", "text": vidd_text(spec)}]
    if first:
        content.append({"type": "image_url", "image_url": {"url": first}, "role": "first_frame"})
    if spec.mode is Mode.FIRST_LAST and spec.last_frame:
        content.append({"type": "image_url", "image_url": {"url": spec.last_frame}, "role": "last_frame"})
    if spec.mode is Mode.REFERENCE:
        content += [{"type": "image_url", "image_url": {"url": url}, "role": "reference_image"} for url in spec.references]
    metadata = {"content": content, "return_last_frame": spec.return_last_frame or None,
                "callback_url": spec.callback_url or None}
    return {"model": model.id, "metadata": {k: v for k, v in metadata.items() if v is not None}}


def _registered(model_id: Any) -> VideoModel:
    model = video_model(str(model_id or ""))
    if model is None:
        raise RequestValidationError([f"model: {model_id!r} is not a known video model"])
    return model


def build_video_request(spec: VideoInput) -> RequestModel:
    """The family's request for `spec`; raises `RequestValidationError` with every problem."""
    model = _registered(spec.model)
    problems = _images_for_mode(spec, model)
    try:
        request = REQUEST_MODELS[model.family].build(**_family_body(spec, model))
    except RequestValidationError as error:
        problems += error.problems
    if problems:
        raise RequestValidationError(list(dict.fromkeys(problems)))
    return request


def validate_video_body(body: dict[str, Any]) -> RequestModel:
    """Check a raw submit body (for example one edited by hand) against its family's rules."""
    return validate(REQUEST_MODELS[_registered(body.get("model")).family], body)
