"""A pasted video submit fills the Video tab's form so that submitting rebuilds the same body;
calls with images or fields the tab cannot send are refused with what to do; a model change
keeps what fits the new model."""

from __future__ import annotations

import json
from typing import Any

import pytest

from playground.client.errors import RequestValidationError
from playground.client.video_requests import build_video_request
from playground.ui.session_files.panel import read_session_document, session_document
from playground.ui.tabs.video.form import FIELD_NAMES, VideoForm, kept_value, model_fields
from playground.ui.tabs.video.curl_import import video_form_values

BODIES = [
    {"model": "vidA-2", "prompt": "A paper boat in the rain", "seconds": 8, "size": "1280x720"},
    {"model": "vidA-2", "prompt": "Make it night", "seconds": 4, "size": "720x1280", "remix_from_video_id": "video_abc123"},
    {"model": "vidC2.5-t2v-preview", "prompt": "A lantern festival", "duration": 10, "resolution": "1080p", "size": "832*480",
     "smart_rewrite": True, "seed": 11},
    {"model": "vidB-3.0-fast-generate-001", "prompt": "Waves at dawn", "durationSeconds": 6, "aspectRatio": "9:16", "resolution": "720p",
     "numberOfVideos": 2, "personGeneration": "allow_adult", "seed": 7},
    {"model": "vidD-1-0-lite-t2v-250428", "metadata": {"content": [{"type": "text", "text": "A fox runs --rs 720p --dur 5 --seed 3"}],
                                                    "callback_url": "https://example.com/done"}},
]


@pytest.mark.parametrize("body", BODIES, ids=lambda body: body["model"] + (" remix" if "remix_from_video_id" in body else ""))
def test_a_pasted_submit_is_rebuilt_exactly(body: dict[str, Any]) -> None:
    values = video_form_values(json.loads(json.dumps(body)))
    assert list(values) == list(FIELD_NAMES)
    for name, state in model_fields(values["model"]).items():  # what the tab's model change keeps
        values[name] = kept_value(state, values[name])
    rebuilt = build_video_request(VideoForm(**values).to_input()).to_body()
    assert rebuilt == body


@pytest.mark.parametrize(("body", "words"), [
    ({"model": "vidA-2", "prompt": "x", "input_reference": "data:image/png;base64,AAAA"}, "sends images"),
    ({"model": "vidD-1-0-pro-250528", "metadata": {"content": [{"type": "text", "text": "x"}, {"type": "image_url", "image_url": {"url": "https://a/b.png"}}]}}, "sends images"),
    ({"model": "vidC2.5-t2v-preview", "prompt": "x", "watermark_text": "hi"}, "no control for watermark_text"),
    ({"model": "sora-9", "prompt": "x"}, "not a video model"),
])
def test_what_the_tab_cannot_send_is_refused_with_what_to_do(body: dict[str, Any], words: str) -> None:
    with pytest.raises(RequestValidationError, match=words):
        video_form_values(body)


def test_a_model_change_keeps_what_fits_and_resets_the_rest() -> None:
    vidb = model_fields("vidB-3.0-fast-generate-001")
    assert kept_value(vidb["duration"], 6) == 6 and kept_value(vidb["duration"], 12) == vidb["duration"].value
    assert kept_value(vidb["seed"], 42) == 42 and kept_value(model_fields("vidA-2")["seed"], 42) is None


def test_video_forms_are_saved_and_loaded() -> None:
    form = {name: value for name, value in video_form_values(BODIES[2]).items() if name not in ("first_frame", "last_frame", "references")}
    document = json.dumps(session_document("video", form, None, None)).encode()
    loaded, _, _ = read_session_document(document, "video", list(form))
    assert loaded == form
