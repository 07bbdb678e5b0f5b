"""A pasted video submit (`POST /v1/video/generations`) as Video tab form values.

Text-to-video and remix calls of every family are taken; a call that sends images is refused
with what to do (the tab takes images as uploads), and so is a field the tab has no control for,
so nothing is dropped silently. A vidD prompt keeps its flags: the tab sends such a prompt as it is.
"""

from __future__ import annotations

from typing import Any

from playground.client.errors import RequestValidationError
from playground.client.video_catalog import VIDA, VIDB, VIDC, Mode, video_model
from playground.ui.tabs.video.form import FIELD_NAMES, model_fields

FAMILY_FIELDS = {
    VIDA: {"prompt": "prompt", "seconds": "duration", "size": "size", "remix_from_video_id": "remix_from_video_id"},
    VIDB: {"prompt": "prompt", "durationSeconds": "duration", "aspectRatio": "ratio", "resolution": "resolution", "fps": "fps",
           "numberOfVideos": "count", "personGeneration": "person_generation", "seed": "seed"},
    VIDC: {"prompt": "prompt", "duration": "duration", "resolution": "resolution", "size": "size", "smart_rewrite": "smart_rewrite",
           "generate_audio": "generate_audio", "audio_url": "audio_url", "seed": "seed"},
}
NUMBERS = frozenset({"duration", "fps", "seed", "count", "frames"})
IMAGE_FIELDS = ("input_reference", "image", "lastFrame")
VIDD_METADATA = {"return_last_frame": "return_last_frame", "callback_url": "callback_url"}


def video_form_values(body: Any) -> dict[str, Any]:
    """Every form field's value (in `FIELD_NAMES` order) for a pasted submit body."""
    body = body if isinstance(body, dict) else {}
    model = video_model(str(body.get("model") or ""))
    if model is None:
        raise RequestValidationError([f"model: {body.get('model')!r} is not a video model this tab knows"])
    defaults = model_fields(model.id)
    values: dict[str, Any] = {name: (defaults[name].value if name in defaults else None) for name in FIELD_NAMES}
    values.update(model=model.id, mode=Mode.TEXT.value, references=None, first_frame=None, last_frame=None)
    if model.family in FAMILY_FIELDS:
        _take(body, {"model": "model", **FAMILY_FIELDS[model.family]}, values)
        if body.get("remix_from_video_id"):
            values["mode"] = Mode.REMIX.value
        return values
    metadata = body.get("metadata") if isinstance(body.get("metadata"), dict) else {}
    _take(body, {"model": "model", "metadata": "metadata"}, {})
    content = metadata.get("content") if isinstance(metadata.get("content"), list) else []
    if any(isinstance(item, dict) and item.get("type") != "text" for item in content):
        raise RequestValidationError(["this command sends images: choose the mode in the Video tab and attach them there"])
    texts = [item.get("text", "") for item in content if isinstance(item, dict)]
    values["prompt"] = " ".join(str(text) for text in texts)
    _take(metadata, {"content": "content", **VIDD_METADATA}, values)
    return values


def _take(source: dict[str, Any], known: dict[str, str], values: dict[str, Any]) -> None:
    images = [name for name in IMAGE_FIELDS if name in source]
    if images:
        raise RequestValidationError([f"this command sends images ({', '.join(images)}): choose the mode in the Video tab and attach them there"])
    unknown = sorted(set(source) - set(known))
    if unknown:
        raise RequestValidationError([f"the Video tab has no control for {', '.join(unknown)}; send this call with curl, or leave those fields out"])
    for name, field in known.items():
        if name in source and field in FIELD_NAMES and field != "model":
            value = source[name]
            values[field] = int(value) if field in NUMBERS and isinstance(value, str) and value.isdigit() else value
