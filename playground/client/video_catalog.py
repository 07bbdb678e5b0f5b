"""What each video model can do: modes, durations, resolutions, ratios and its family's extras.

Read from the spec's model list. Where the spec is silent the registry says so in `notes`
(for example the durations of the vidD 1.0 models, which the spec leaves open).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any


class Mode(str, Enum):
    TEXT = "text-to-video"
    IMAGE = "image-to-video"
    FIRST_FRAME = "first frame"
    FIRST_LAST = "first + last frame"
    REFERENCE = "reference images"
    REMIX = "remix"

    @property
    def needs_first_frame(self) -> bool:
        return self in (Mode.IMAGE, Mode.FIRST_FRAME, Mode.FIRST_LAST)


VIDA, VIDB, VIDC, VIDD = "vidA", "vidB", "vidC", "vidD"
VIDD_RATIOS = ("16:9", "9:16", "1:1", "4:3", "3:4", "adaptive")


@dataclass(frozen=True)
class VideoModel:
    id: str
    family: str
    modes: tuple[Mode, ...]
    durations: tuple[int, ...]
    resolutions: tuple[str, ...] = ()
    ratios: tuple[str, ...] = ()
    sizes: tuple[str, ...] = ()
    default_duration: int = 5
    default_resolution: str | None = None
    default_ratio: str | None = None
    audio: bool = False
    last_frame: bool = False
    frames_flag: bool = False
    camera_fixed_flag: bool = False
    return_last_frame: bool = False
    notes: str = ""

    @property
    def duration_range(self) -> bool:
        """True when any whole number between the first and last duration is allowed."""
        return len(self.durations) > 2 and list(self.durations) == list(range(self.durations[0], self.durations[-1] + 1))


_VIDD_15: dict[str, Any] = {
    "modes": (Mode.TEXT, Mode.FIRST_FRAME, Mode.FIRST_LAST),
    "durations": tuple(range(4, 13)),
    "resolutions": ("480p", "720p"),
    "ratios": VIDD_RATIOS,
    "default_resolution": "720p",
    "default_ratio": "16:9",
    "frames_flag": True,
    "return_last_frame": True,
}

VIDEO_MODELS: tuple[VideoModel, ...] = (
    VideoModel("vidA-2", VIDA, (Mode.TEXT, Mode.IMAGE, Mode.REMIX), (4, 8, 12), sizes=("720x1280", "1280x720"), default_duration=4,
               notes="Portrait 720x1280 or landscape 1280x720; the result is fetched through the download endpoint."),
    VideoModel("vidB-3.0-fast-generate-001", VIDB, (Mode.TEXT, Mode.FIRST_FRAME), (4, 6, 8), ("720p", "1080p"), ("16:9", "9:16"),
               default_duration=4, default_resolution="1080p", default_ratio="16:9", audio=True,
               notes="Synchronized audio is always on for the fast models."),
    VideoModel("vidB-3.1-fast-generate-preview", VIDB, (Mode.FIRST_FRAME, Mode.FIRST_LAST), (4, 6, 8), ("720p", "1080p"), ("16:9", "9:16"),
               default_duration=4, default_resolution="1080p", default_ratio="16:9", audio=True, last_frame=True,
               notes="Needs a first frame; add a last frame to fix the ending."),
    VideoModel("vidC2.5-t2v-preview", VIDC, (Mode.TEXT,), (5, 10), ("480p", "720p", "1080p"), sizes=("1280*720", "720*1280", "960*960", "832*480", "480*832"),
               default_resolution="720p", notes="Size `<width>*<height>` is for text-to-video only."),
    VideoModel("vidC2.5-i2v-preview", VIDC, (Mode.FIRST_FRAME,), (5, 10), ("480p", "720p", "1080p"), default_resolution="720p",
               notes="The image is the first frame; the ratio follows the image."),
    VideoModel("vidD-1-0-lite-t2v-250428", VIDD, (Mode.TEXT,), (5, 10), ("480p", "720p", "1080p"), VIDD_RATIOS[:-1],
               default_resolution="720p", default_ratio="16:9", camera_fixed_flag=True,
               notes="Text only; no `adaptive` ratio. Durations 5 and 10 s (the spec names none)."),
    VideoModel("vidD-1-0-lite-i2v-250428", VIDD, (Mode.FIRST_FRAME, Mode.FIRST_LAST, Mode.REFERENCE), (5, 10), ("480p", "720p", "1080p"),
               VIDD_RATIOS, default_resolution="720p", default_ratio="adaptive", camera_fixed_flag=True,
               notes="Reference images are cited in the text as [图1], [图2], ..."),
    VideoModel("vidD-1-0-pro-250528", VIDD, (Mode.TEXT, Mode.FIRST_FRAME), (5, 10), ("720p", "1080p"), VIDD_RATIOS,
               default_resolution="1080p", default_ratio="16:9", notes="Image input is a first frame only; 720p and 1080p."),
    VideoModel("vidD-1-5-pro-251215", VIDD, audio=True, notes="Generates audio; 480p or 720p, 4 to 12 s (or --frames).", **_VIDD_15),
    VideoModel("vidD-1-5-pro-251215-noAudio", VIDD, notes="Same as 1.5 pro without audio; renders faster.", **_VIDD_15),
)
MODELS_BY_ID = {model.id: model for model in VIDEO_MODELS}


def video_model_ids() -> list[str]:
    return [model.id for model in VIDEO_MODELS]


def one_text_model_per_family() -> list[str]:
    """One text-to-video model per family, in catalog order."""
    chosen: dict[str, str] = {}
    for model in VIDEO_MODELS:
        if Mode.TEXT in model.modes:
            chosen.setdefault(model.family, model.id)
    return list(chosen.values())


def video_model(model_id: str) -> VideoModel | None:
    return MODELS_BY_ID.get(model_id)
