"""The vidD family's text flags (`--rs 720p --dur 5 ...`): build them, parse them, check them."""

from __future__ import annotations

from playground.client.texts import Text

import re
from dataclasses import dataclass

from playground.client.video_catalog import VideoModel

FLAG_ALIASES = {
    "rs": "resolution", "resolution": "resolution",
    "ratio": "ratio",
    "dur": "duration", "duration": "duration",
    "frames": "frames",
    "fps": "fps", "framespersecond": "fps",
    "seed": "seed",
    "wm": "watermark", "watermark": "watermark",
    "cf": "camerafixed", "camerafixed": "camerafixed",
}
SHORT_NAMES = {"resolution": "rs", "ratio": "ratio", "duration": "dur", "frames": "frames", "fps": "fps",
               "seed": "seed", "watermark": "wm", "camerafixed": "cf"}
SEED_RANGE = (-1, 2**32 - 1)
FRAMES_RANGE = (29, 289)
_FLAG = re.compile(r"(?<!\S)--([A-Za-z]+)(?:\s+(?!--)(\S+))?")
_MARKER = re.compile(r"\[图(\d+)\]")


@dataclass(frozen=True)
class Flag:
    name: str
    value: str | None
    spelled: str


def parse_flags(text: str) -> list[Flag]:
    """Every `--name value` in the text, with the canonical name (or the spelling if unknown)."""
    return [Flag(FLAG_ALIASES.get(m[1].lower(), m[1]), m[2], m[1]) for m in _FLAG.finditer(text)]


def render_flags(values: dict[str, object]) -> str:
    """`{"resolution": "720p", "duration": 5, "watermark": False}` -> `--rs 720p --dur 5 --wm false`."""
    parts = []
    for name, value in values.items():
        if value is None or value == "":
            continue
        shown = str(value).lower() if isinstance(value, bool) else str(value)
        parts.append(f"--{SHORT_NAMES[name]} {shown}")
    return " ".join(parts)


def reference_markers(text: str) -> set[int]:
    """The numbers cited as `[图N]` in the text."""
    return {int(n) for n in _MARKER.findall(text)}


def _int(value: str | None) -> int | None:
    try:
        return int(value or "")
    except ValueError:
        return None


def flag_problems(text: str, model: VideoModel) -> list[str]:
    """Each broken flag rule, worded for a person; empty when the flags are fine for `model`."""
    problems: list[str] = []
    seen: dict[str, str] = {}
    for flag in parse_flags(text):
        where = f"--{flag.spelled}"
        value = flag.value
        if flag.name not in SHORT_NAMES:
            problems.append(Text("video.flag_unknown", flag=where))
            continue
        if flag.name in seen:
            problems.append(Text("video.flag_twice", flag=where))
            continue
        seen[flag.name] = value or ""
        if value is None:
            problems.append(f"{where} needs a value")
        elif flag.name == "resolution" and value not in model.resolutions:
            problems.append(f"{where} {value}: {model.id} supports {', '.join(model.resolutions)}")
        elif flag.name == "ratio" and value not in model.ratios:
            problems.append(f"{where} {value}: {model.id} supports {', '.join(model.ratios)}")
        elif flag.name == "duration" and _int(value) not in model.durations:
            allowed = Text("video.duration_range", low=model.durations[0], high=model.durations[-1]) if model.duration_range else ", ".join(map(str, model.durations))
            problems.append(Text("video.flag_duration_not_allowed", flag=where, value=value, model=model.id, allowed=allowed))
        elif flag.name == "frames":
            problems.extend(_frames_problems(where, value, model))
        elif flag.name == "fps" and not (_int(value) or 0) > 0:
            problems.append(Text("video.flag_fps_not_positive", flag=where, value=value))
        elif flag.name == "seed":
            seed = _int(value)
            if seed is None or not SEED_RANGE[0] <= seed <= SEED_RANGE[1]:
                problems.append(Text("video.flag_seed_out_of_range", flag=where, value=value, limit=SEED_RANGE[1]))
        elif flag.name in ("watermark", "camerafixed") and value not in ("true", "false"):
            problems.append(Text("video.flag_not_boolean", flag=where, value=value))
        elif flag.name == "camerafixed" and not model.camera_fixed_flag:
            problems.append(Text("video.flag_only_lite", flag=where, model=model.id))
    return problems


def _frames_problems(where: str, value: str, model: VideoModel) -> list[str]:
    if not model.frames_flag:
        return [Text("video.flag_only_1_5_pro", flag=where, model=model.id)]
    frames = _int(value)
    low, high = FRAMES_RANGE
    if frames is None or not low <= frames <= high or (frames - 25) % 4:
        return [Text("video.flag_frames_not_allowed", flag=where, value=value, low=low, high=high)]
    return []
