"""The Video tab's form: which fields each model shows, and form values -> `VideoInput`.

Plain functions over plain values; the layout in `video_tab` wires them to components.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from playground.client.errors import RequestValidationError
from playground.client.media import image_data_url
from playground.client.video_catalog import (
    VIDA,
    VIDB,
    VIDC,
    VIDD,
    VIDEO_MODELS,
    Mode,
    VideoModel,
    video_model,
)
from playground.client.video_requests import VideoInput, build_video_request, vidd_text
from playground.ui.i18n.client_words import word, word_list
from playground.ui.i18n import CHOICE_KEYS, say

DEFAULT_MODEL = VIDEO_MODELS[0].id
TRI_STATE = ("not set", "true", "false")


@dataclass
class VideoForm:
    """One value per form component, in `FIELD_NAMES` order."""

    model: str
    mode: str | None
    prompt: str | None
    first_frame: str | None
    last_frame: str | None
    references: list[str] | None
    remix_from_video_id: str | None
    duration: Any
    resolution: str | None
    ratio: str | None
    size: str | None
    fps: float | None
    seed: float | None
    count: float | None
    person_generation: str | None
    watermark: str | None
    camera_fixed: str | None
    frames: float | None
    smart_rewrite: bool | None
    generate_audio: bool | None
    audio_url: str | None
    return_last_frame: bool | None
    callback_url: str | None

    @property
    def spec(self) -> VideoModel | None:
        return video_model(self.model or "")

    def to_input(self, read_images: bool = True) -> VideoInput:
        """The family-neutral request; raises `RequestValidationError` for unreadable images or numbers."""
        problems: list[str] = []
        mode = _mode(self.mode, problems)
        needs = mode.needs_first_frame if mode else False
        first = _image("first frame", self.first_frame, problems, read_images) if needs else None
        last = _image("last frame", self.last_frame, problems, read_images) if mode is Mode.FIRST_LAST else None
        references = tuple(_image("reference image", path, problems, read_images) or "" for path in (self.references or [])) if mode is Mode.REFERENCE else ()
        values = VideoInput(
            model=(self.model or "").strip(),
            mode=mode or Mode.TEXT,
            prompt=(self.prompt or "").strip(),
            duration=_whole("duration", self.duration, problems),
            resolution=self.resolution or None,
            ratio=self.ratio or None,
            size=(self.size or "").strip() or None,
            first_frame=first,
            last_frame=last,
            references=references,
            remix_from_video_id=(self.remix_from_video_id or "").strip() or None,
            fps=_whole("fps", self.fps, problems),
            seed=_whole("seed", self.seed, problems),
            count=_whole("videos per call", self.count, problems),
            person_generation=self.person_generation or None,
            watermark=_tri_state(self.watermark),
            camera_fixed=_tri_state(self.camera_fixed),
            frames=_whole("frames", self.frames, problems),
            smart_rewrite=self.smart_rewrite or None,
            generate_audio=self.generate_audio or None,
            audio_url=(self.audio_url or "").strip() or None,
            return_last_frame=self.return_last_frame or None,
            callback_url=(self.callback_url or "").strip() or None,
        )
        if problems:
            raise RequestValidationError(problems)
        return values


FIELD_NAMES = tuple(f.name for f in fields(VideoForm))


def check_video_values(values: dict[str, Any], sent: list[dict[str, Any]] | None = None) -> None:
    """The request a submit would build from these values (the family's request model), without
    sending; images a session file or an import cannot carry are stood in for."""
    form: dict[str, Any] = {name: None for name in FIELD_NAMES} | values
    form["first_frame"] = form["first_frame"] or "checked on submit"
    form["last_frame"] = form["last_frame"] or "checked on submit"
    form["references"] = form["references"] or ["checked on submit"]
    form["prompt"] = form["prompt"] or "(a prompt is typed before Submit)"
    form["remix_from_video_id"] = form["remix_from_video_id"] or "checked-on-submit"
    build_video_request(VideoForm(**form).to_input(read_images=False))


def _mode(label: str | None, problems: list[str]) -> Mode | None:
    try:
        return Mode(label) if label else Mode.TEXT
    except ValueError:
        problems.append(f"mode: {label!r} is not a mode")
        return None


def _whole(label: str, value: Any, problems: list[str]) -> int | None:
    if value is None or value == "":
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        problems.append(f"{label}: {value!r} is not a number")
        return None
    if not number.is_integer():
        problems.append(f"{label}: must be a whole number (got {value})")
        return None
    return int(number)


def _tri_state(value: str | None) -> bool | None:
    return {"true": True, "false": False}.get(value or "")


def _image(label: str, path: str | None, problems: list[str], read: bool) -> str | None:
    if not path:
        return None
    if not read:
        return "data:image/png;base64,"
    try:
        return image_data_url(path)
    except RequestValidationError as error:
        problems.extend(f"{label}: {problem}" for problem in error.problems)
        return None


def flags_preview(form: VideoForm) -> str:
    """For vidD: the exact text that goes into metadata.content; empty for other families."""
    model = form.spec
    if model is None or model.family != VIDD:
        return ""
    try:
        return vidd_text(form.to_input(read_images=False))
    except RequestValidationError as error:
        return say("video.fix_first") + word_list(error.problems)


@dataclass(frozen=True)
class FieldState:
    visible: bool
    choices: tuple[Any, ...] | None = None
    value: Any = None


def model_fields(model_id: str) -> dict[str, FieldState]:
    """Which form fields `model_id` uses, with their choices and default values."""
    model = video_model(model_id) or VIDEO_MODELS[0]
    family = model.family
    first_mode = model.modes[0]
    return {
        "mode": FieldState(True, tuple(m.value for m in model.modes), first_mode.value),
        "duration": FieldState(True, model.durations, model.default_duration if model.default_duration in model.durations else model.durations[0]),
        "resolution": FieldState(bool(model.resolutions) and family != VIDA, model.resolutions, model.default_resolution),
        "ratio": FieldState(bool(model.ratios), model.ratios, model.default_ratio),
        "size": FieldState(bool(model.sizes), model.sizes, model.sizes[0] if family == VIDA else None),
        "fps": FieldState(family in (VIDB, VIDD)),
        "seed": FieldState(family in (VIDB, VIDC, VIDD)),
        "count": FieldState(family == VIDB, None, 1),
        "person_generation": FieldState(family == VIDB, ("", "allow_all", "allow_adult", "dont_allow"), ""),
        "watermark": FieldState(family == VIDD, TRI_STATE, "not set"),
        "camera_fixed": FieldState(model.camera_fixed_flag, TRI_STATE, "not set"),
        "frames": FieldState(model.frames_flag),
        "smart_rewrite": FieldState(family == VIDC, None, False),
        "generate_audio": FieldState(family == VIDC, None, False),
        "audio_url": FieldState(family == VIDC, None, ""),
        "return_last_frame": FieldState(model.return_last_frame, None, False),
        "callback_url": FieldState(family == VIDD, None, ""),
    }


def kept_value(state: FieldState, current: Any) -> Any:
    """`current` where it fits a field of the new model (a listed choice, or any value of a free
    field the model shows), else the field's default."""
    if current is None or current == "" or not state.visible:
        return state.value
    if state.choices is not None:  # the page may send a number choice back as text
        return next((choice for choice in state.choices if str(choice) == str(current)), state.value)
    return current


def mode_fields(mode_label: str | None) -> dict[str, bool]:
    """Which image inputs a mode needs."""
    try:
        mode = Mode(mode_label) if mode_label else Mode.TEXT
    except ValueError:
        mode = Mode.TEXT
    return {
        "first_frame": mode.needs_first_frame,
        "last_frame": mode is Mode.FIRST_LAST,
        "references": mode is Mode.REFERENCE,
        "remix_from_video_id": mode is Mode.REMIX,
    }


def model_notes(model_id: str) -> str:
    model = video_model(model_id)
    if model is None:
        return say("video.unknown_model")
    modes = ", ".join(say(CHOICE_KEYS[m.value]) if m.value in CHOICE_KEYS else m.value for m in model.modes)
    audio = say("video.with_audio") if model.audio else ""
    return f"**{model.id}** ({model.family}) · {modes}{audio}. {word(model.notes)}"
