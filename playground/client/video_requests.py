"""Video submit bodies, one request model per family, each enforcing the spec's rules.

`VideoInput` is the neutral form a person fills in; `build_video_request` turns it into the
family's body (`VidARequest` ... `VidDRequest`) or raises `RequestValidationError` listing
every problem, before anything is sent.
"""

from __future__ import annotations

from playground.client.texts import Text, joined

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
        raise ValueError(Text("video.not_a_family_model", model=repr(model_id), family=family))
    return model


def _choice(name: str, value: str | None, allowed: tuple[str, ...]) -> list[str]:
    if value is None or value in allowed:
        return []
    return [Text("video.not_one_of", name=name, allowed=', '.join(allowed), got=repr(value))]


def _fail(problems: list[str]) -> None:
    if problems:
        raise ValueError(joined(problems))


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
        problems: list[str] = []
        if self.seconds is not None and str(self.seconds) not in {str(d) for d in model.durations}:
            problems.append(Text("video.seconds_not_allowed", got=repr(self.seconds)))
        if self.size is not None and self.size not in model.sizes:
            problems.append(Text("video.size_not_allowed", got=repr(self.size)))
        if self.remix_from_video_id is not None and not self.remix_from_video_id.startswith("video_"):
            problems.append(Text("video.remix_id_not_vida", got=repr(self.remix_from_video_id)))
        if not (self.prompt or "").strip():
            problems.append(Text("video.prompt_needed_or_remix_change"))
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
        problems: list[str] = []
        if self.durationSeconds is not None and self.durationSeconds not in model.durations:
            problems.append(Text("video.duration_seconds_not_allowed", got=self.durationSeconds))
        problems += _choice("aspectRatio", self.aspectRatio, model.ratios) + _choice("resolution", self.resolution, model.resolutions)
        problems += _choice("personGeneration", self.personGeneration, PERSON_POLICIES)
        if self.fps is not None and self.fps <= 0:
            problems.append(Text("video.fps_not_positive", got=self.fps))
        if self.numberOfVideos is not None and not VIDB_COUNT_RANGE[0] <= self.numberOfVideos <= VIDB_COUNT_RANGE[1]:
            problems.append(Text("video.count_out_of_range", got=self.numberOfVideos))
        if self.lastFrame is not None and not model.last_frame:
            problems.append(Text("video.last_frame_only_vidb_3_1", model=model.id))
        if self.lastFrame is not None and self.image is None:
            problems.append(Text("video.last_frame_needs_first_frame"))
        if Mode.TEXT not in model.modes and self.image is None:
            problems.append(Text("video.model_needs_first_frame", model=model.id))
        if self.image is None and not (self.prompt or "").strip():
            problems.append(Text("video.prompt_needed_for_text_to_video"))
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
        problems: list[str] = []
        if self.duration is not None and self.duration not in model.durations:
            problems.append(Text("video.duration_not_5_or_10", got=self.duration))
        problems += _choice("resolution", self.resolution, model.resolutions)
        if self.size is not None and not text_only:
            problems.append(Text("video.size_only_for_text_to_video", model=model.id))
        elif self.size is not None and not _VIDC_SIZE.match(self.size):
            problems.append(Text("video.size_not_width_by_height", got=repr(self.size)))
        if self.seed is not None and not 0 <= self.seed <= VIDC_SEED_MAX:
            problems.append(Text("video.seed_out_of_range", limit=VIDC_SEED_MAX, got=self.seed))
        if self.audio_url is not None and not self.audio_url.startswith("https://"):
            problems.append(Text("video.audio_url_not_https"))
        if text_only and self.image is not None:
            problems.append(Text("video.text_to_video_model_use_i2v", model=model.id))
        if not text_only and self.image is None:
            problems.append(Text("video.model_needs_first_frame", model=model.id))
        if text_only and not (self.prompt or "").strip():
            problems.append(Text("video.prompt_needed_for_text_to_video"))
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
            raise ValueError(Text("video.text_item_only_text"))
        if self.type == "image_url" and (self.image_url is None or self.text is not None):
            raise ValueError(Text("video.image_url_item_shape"))
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
            raise ValueError(Text("video.callback_url_not_http"))
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
        problems: list[str] = []
        if len(texts) != 1 or not texts[0].strip():
            problems.append(Text("video.metadata_needs_one_prompt_item"))
        text = texts[0] if texts else ""
        problems += flag_problems(text, model)
        references = roles.count("reference_image")
        if roles and Mode.TEXT in model.modes and len(model.modes) == 1:
            problems.append(Text("video.model_text_only", model=model.id))
        if references and Mode.REFERENCE not in model.modes:
            problems.append(Text("video.model_no_reference_mode", model=model.id))
        if references and references != len(roles):
            problems.append(Text("video.references_not_with_frames"))
        if references and reference_markers(text) != set(range(1, references + 1)):
            cited = ", ".join(f"[图{n}]" for n in range(1, references + 1))
            problems.append(Text("video.references_not_cited", count=references, cited=cited, found=sorted(reference_markers(text)) or Text("video.no_markers_found")))
        if "last_frame" in roles and ("first_frame" not in roles or Mode.FIRST_LAST not in model.modes):
            problems.append(Text("video.first_last_needs_both_roles") if Mode.FIRST_LAST in model.modes
                            else Text("video.model_no_last_frame", model=model.id))
        if roles.count("first_frame") > 1 or roles.count("last_frame") > 1:
            problems.append(Text("video.at_most_one_first_and_last"))
        if not roles and Mode.TEXT not in model.modes:
            problems.append(Text("video.model_needs_image", model=model.id))
        if self.metadata.return_last_frame and not model.return_last_frame:
            problems.append(Text("video.return_last_frame_only_pro", model=model.id))
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
    problems: list[str] = []
    if spec.mode not in model.modes:
        problems.append(Text("video.model_lacks_mode", model=model.id, mode=spec.mode.label, modes=', '.join(m.value for m in model.modes)))
    if spec.mode.needs_first_frame and not spec.first_frame:
        problems.append(Text("video.mode_needs_first_frame", mode=spec.mode.label))
    if spec.mode is Mode.FIRST_LAST and not spec.last_frame:
        problems.append(Text("video.first_last_needs_last_frame"))
    if spec.mode is Mode.REFERENCE and not spec.references:
        problems.append(Text("video.reference_needs_reference_image"))
    if spec.mode is Mode.REMIX and not spec.remix_from_video_id:
        problems.append(Text("video.remix_needs_vida_id"))
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
        raise RequestValidationError([Text("video.unknown_model", model=repr(model_id))])
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
