"""What each video model can do: modes, durations, resolutions, ratios and its family's extras.

Read from the spec's model list. Where the spec is silent the registry says so in `notes`
(for example the durations of the vidD 1.0 models, which the spec leaves open).
"""

from __future__ import annotations

from playground.client.texts import Text

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

    @property
    def label(self) -> Text:
        """The mode's name in a message (the value is what the form's choice carries)."""
        return MODE_LABELS[self]


MODE_LABELS = {
    Mode.TEXT: Text("video.mode.text"),
    Mode.IMAGE: Text("video.mode.image"),
    Mode.FIRST_FRAME: Text("video.mode.first_frame"),
    Mode.FIRST_LAST: Text("video.mode.first_last"),
    Mode.REFERENCE: Text("video.mode.reference"),
    Mode.REMIX: Text("video.mode.remix"),
}


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
               notes=Text("video.note.vida_2")),
    VideoModel("vidB-3.0-fast-generate-001", VIDB, (Mode.TEXT, Mode.FIRST_FRAME), (4, 6, 8), ("720p", "1080p"), ("16:9", "9:16"),
               default_duration=4, default_resolution="1080p", default_ratio="16:9", audio=True,
               notes=Text("video.note.vidb_fast_audio")),
    VideoModel("vidB-3.1-fast-generate-preview", VIDB, (Mode.FIRST_FRAME, Mode.FIRST_LAST), (4, 6, 8), ("720p", "1080p"), ("16:9", "9:16"),
               default_duration=4, default_resolution="1080p", default_ratio="16:9", audio=True, last_frame=True,
               notes=Text("video.note.vidb_3_1_first_frame")),
    VideoModel("vidC2.5-t2v-preview", VIDC, (Mode.TEXT,), (5, 10), ("480p", "720p", "1080p"), sizes=("1280*720", "720*1280", "960*960", "832*480", "480*832"),
               default_resolution="720p", notes=Text("video.note.vidc_t2v_size")),
    VideoModel("vidC2.5-i2v-preview", VIDC, (Mode.FIRST_FRAME,), (5, 10), ("480p", "720p", "1080p"), default_resolution="720p",
               notes=Text("video.note.vidc_i2v_image_first_frame")),
    VideoModel("vidD-1-0-lite-t2v-250428", VIDD, (Mode.TEXT,), (5, 10), ("480p", "720p", "1080p"), VIDD_RATIOS[:-1],
               default_resolution="720p", default_ratio="16:9", camera_fixed_flag=True,
               notes=Text("video.note.vidd_lite_t2v")),
    VideoModel("vidD-1-0-lite-i2v-250428", VIDD, (Mode.FIRST_FRAME, Mode.FIRST_LAST, Mode.REFERENCE), (5, 10), ("480p", "720p", "1080p"),
               VIDD_RATIOS, default_resolution="720p", default_ratio="adaptive", camera_fixed_flag=True,
               notes=Text("video.note.vidd_lite_i2v_references")),
    VideoModel("vidD-1-0-pro-250528", VIDD, (Mode.TEXT, Mode.FIRST_FRAME), (5, 10), ("720p", "1080p"), VIDD_RATIOS,
               default_resolution="1080p", default_ratio="16:9", notes=Text("video.note.vidd_pro_first_frame")),
    VideoModel("vidD-1-5-pro-251215", VIDD, audio=True, notes=Text("video.note.vidd_1_5_pro_audio"), **_VIDD_15),
    VideoModel("vidD-1-5-pro-251215-noAudio", VIDD, notes=Text("video.note.vidd_1_5_pro_no_audio"), **_VIDD_15),
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
