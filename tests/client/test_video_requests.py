"""Every family's submit rules, checked before anything is sent."""

from __future__ import annotations

from typing import Any

import pytest

from playground.client.errors import RequestValidationError
from playground.client.video_catalog import VIDEO_MODELS, Mode, video_model
from playground.client.video_flags import parse_flags, render_flags
from playground.client.video_requests import (
    VideoInput,
    build_video_request,
    validate_video_body,
    vidd_text,
)

IMG = "data:image/png;base64,iVBORw0KGgo="
VIDA, VIDB30, VIDB31 = "vidA-2", "vidB-3.0-fast-generate-001", "vidB-3.1-fast-generate-preview"
VIDC_T2V, VIDC_I2V = "vidC2.5-t2v-preview", "vidC2.5-i2v-preview"
LITE_T2V, LITE_I2V, PRO10, PRO15 = "vidD-1-0-lite-t2v-250428", "vidD-1-0-lite-i2v-250428", "vidD-1-0-pro-250528", "vidD-1-5-pro-251215"


def problems(**fields: Any) -> str:
    with pytest.raises(RequestValidationError) as caught:
        build_video_request(VideoInput(**fields))
    return " | ".join(caught.value.problems)


def body(**fields: Any) -> dict[str, Any]:
    return build_video_request(VideoInput(**fields)).to_body()


def test_registry_lists_every_model_the_spec_names() -> None:
    assert [m.id for m in VIDEO_MODELS] == [VIDA, VIDB30, VIDB31, VIDC_T2V, VIDC_I2V, LITE_T2V, LITE_I2V, PRO10, PRO15, PRO15 + "-noAudio"]
    assert video_model(VIDA).durations == (4, 8, 12) and video_model(VIDA).sizes == ("720x1280", "1280x720")
    assert video_model(VIDB31).last_frame and not video_model(VIDB30).last_frame
    assert "adaptive" not in video_model(LITE_T2V).ratios and "adaptive" in video_model(LITE_I2V).ratios
    assert video_model(PRO15).resolutions == ("480p", "720p") and video_model(PRO15).durations == tuple(range(4, 13))
    assert video_model(PRO10).resolutions == ("720p", "1080p") and Mode.REFERENCE not in video_model(PRO15).modes


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"model": VIDA, "prompt": "p", "duration": 5}, "seconds must be 4, 8 or 12"),
        ({"model": VIDA, "prompt": "p", "size": "1280*720"}, "size must be 720x1280 or 1280x720"),
        ({"model": VIDA, "prompt": "p", "mode": Mode.REMIX, "remix_from_video_id": "task_1"}, "must be a vidA video id beginning with video_"),
        ({"model": VIDA, "prompt": "p", "mode": Mode.REMIX}, "remix needs the id"),
        ({"model": VIDA, "prompt": " "}, "a prompt is needed"),
        ({"model": VIDA, "prompt": "p", "mode": Mode.FIRST_LAST, "first_frame": IMG, "last_frame": IMG}, "does not do first + last frame"),
        ({"model": VIDB30, "prompt": "p", "duration": 5}, "durationSeconds must be 4, 6 or 8"),
        ({"model": VIDB30, "prompt": "p", "ratio": "1:1"}, "aspectRatio must be one of 16:9, 9:16"),
        ({"model": VIDB30, "prompt": "p", "resolution": "4k"}, "resolution must be one of 720p, 1080p"),
        ({"model": VIDB30, "prompt": "p", "count": 5}, "videos per call must be 1 to 4"),
        ({"model": VIDB30, "prompt": "p", "count": 0}, "videos per call must be 1 to 4"),
        ({"model": VIDB30, "prompt": "p", "fps": 0}, "fps must be a positive whole number"),
        ({"model": VIDB30, "prompt": "p", "person_generation": "everyone"}, "personGeneration must be one of"),
        ({"model": VIDB30, "prompt": "p", "mode": Mode.FIRST_LAST, "first_frame": IMG, "last_frame": IMG}, "does not do first + last frame"),
        ({"model": VIDB31, "prompt": "p"}, "needs a first frame image"),
        ({"model": VIDB31, "prompt": "p", "mode": Mode.FIRST_LAST, "first_frame": IMG}, "needs a last frame image"),
        ({"model": VIDC_T2V, "prompt": "p", "duration": 8}, "duration must be 5 or 10"),
        ({"model": VIDC_T2V, "prompt": "p", "size": "1280x720"}, "size must be written <width>*<height>"),
        ({"model": VIDC_T2V, "prompt": "p", "seed": 2_147_483_648}, "seed must be from 0 to 2147483647"),
        ({"model": VIDC_T2V, "prompt": "p", "seed": -1}, "seed must be from 0 to 2147483647"),
        ({"model": VIDC_T2V, "prompt": "p", "audio_url": "http://example.com/a.mp3"}, "audio_url must be an https:// address"),
        ({"model": VIDC_I2V, "prompt": "p", "mode": Mode.FIRST_FRAME, "first_frame": IMG, "size": "1280*720"}, "size is for text-to-video only"),
        ({"model": VIDC_I2V, "prompt": "p"}, "does not do text-to-video"),
        ({"model": LITE_T2V, "prompt": "p", "ratio": "adaptive"}, "--ratio adaptive: vidD-1-0-lite-t2v-250428 supports"),
        ({"model": LITE_T2V, "prompt": "p", "mode": Mode.FIRST_FRAME, "first_frame": IMG}, "does not do first frame"),
        ({"model": LITE_T2V, "prompt": "p", "frames": 33}, "--frames is only for the 1.5 pro models"),
        ({"model": PRO15, "prompt": "p", "frames": 31}, "25 + 4n between 29 and 289"),
        ({"model": PRO15, "prompt": "p", "frames": 293}, "25 + 4n between 29 and 289"),
        ({"model": PRO15, "prompt": "p", "duration": 13}, "makes videos of 4 to 12 seconds"),
        ({"model": PRO15, "prompt": "p", "resolution": "1080p"}, "--rs 1080p: vidD-1-5-pro-251215 supports 480p, 720p"),
        ({"model": PRO15, "prompt": "p", "camera_fixed": True}, "--cf is only for the lite models"),
        ({"model": PRO15, "prompt": "p", "mode": Mode.REFERENCE, "references": (IMG,)}, "does not do reference images"),
        ({"model": PRO15, "prompt": "p", "seed": 2**32}, "the seed must be a whole number from -1 to 4294967295"),
        ({"model": PRO15, "prompt": "p", "seed": -2}, "the seed must be a whole number from -1"),
        ({"model": PRO10, "prompt": "p", "resolution": "480p"}, "supports 720p, 1080p"),
        ({"model": PRO10, "prompt": "p", "mode": Mode.FIRST_LAST, "first_frame": IMG, "last_frame": IMG}, "does not do first + last frame"),
        ({"model": LITE_I2V, "prompt": "a [图1] and [图3]", "mode": Mode.REFERENCE, "references": (IMG, IMG)}, "must cite [图1], [图2]"),
        ({"model": LITE_I2V, "prompt": "no markers", "mode": Mode.REFERENCE, "references": (IMG,)}, "must cite [图1] (found none)"),
        ({"model": LITE_I2V, "prompt": "p --wm yes"}, "--wm yes: must be true or false"),
        ({"model": LITE_I2V, "prompt": "p --fast 1", "mode": Mode.FIRST_FRAME, "first_frame": IMG}, "--fast is not a known flag"),
        ({"model": LITE_I2V, "prompt": "p", "mode": Mode.FIRST_FRAME, "first_frame": IMG, "callback_url": "ftp://x"}, "callback_url must be an http"),
        ({"model": LITE_I2V, "prompt": "p", "mode": Mode.FIRST_FRAME, "first_frame": IMG, "return_last_frame": True}, "return_last_frame is only for the 1.5 pro models"),
        ({"model": "vidE-1", "prompt": "p"}, "is not a known video model"),
    ],
)
def test_each_rule_has_a_clear_message(fields: dict[str, Any], expected: str) -> None:
    assert expected in problems(**fields)


def test_all_problems_are_reported_at_once() -> None:
    found = problems(model=VIDA, prompt="p", duration=5, size="1x1")
    assert "seconds must be" in found and "size must be" in found


def test_vida_body_uses_the_family_fields() -> None:
    assert body(model=VIDA, prompt="p", duration=8, size="1280x720") == {"model": VIDA, "prompt": "p", "seconds": 8, "size": "1280x720"}
    assert body(model=VIDA, prompt="p", mode=Mode.IMAGE, first_frame=IMG)["input_reference"] == IMG
    remix = body(model=VIDA, prompt="slower", mode=Mode.REMIX, remix_from_video_id="video_abc")
    assert remix["remix_from_video_id"] == "video_abc" and "input_reference" not in remix


def test_vidb_body_and_last_frame_only_in_its_mode() -> None:
    sent = body(model=VIDB31, prompt="p", mode=Mode.FIRST_LAST, first_frame=IMG, last_frame=IMG, duration=6, ratio="9:16", resolution="720p", fps=24, count=2)
    assert sent == {"model": VIDB31, "prompt": "p", "durationSeconds": 6, "aspectRatio": "9:16", "resolution": "720p", "fps": 24,
                    "image": IMG, "lastFrame": IMG, "numberOfVideos": 2}
    assert "lastFrame" not in body(model=VIDB31, prompt="p", mode=Mode.FIRST_FRAME, first_frame=IMG, last_frame=IMG)


def test_vidc_body() -> None:
    sent = body(model=VIDC_T2V, prompt="p", duration=10, resolution="1080p", size="1280*720", seed=0, smart_rewrite=True,
                generate_audio=True, audio_url="https://example.com/a.mp3")
    assert sent["size"] == "1280*720" and sent["seed"] == 0 and sent["smart_rewrite"] is True and sent["duration"] == 10
    assert body(model=VIDC_I2V, prompt="", mode=Mode.FIRST_FRAME, first_frame=IMG) == {"model": VIDC_I2V, "image": IMG}


def test_vidd_flags_are_built_from_fields_and_frames_win_over_duration() -> None:
    sent = body(model=PRO15, prompt="a fox", resolution="720p", ratio="adaptive", duration=6, frames=57, fps=24, seed=-1, watermark=False,
                return_last_frame=True, callback_url="https://example.com/hook")
    assert sent["metadata"]["content"] == [{"type": "text", "text": "a fox --rs 720p --ratio adaptive --frames 57 --fps 24 --seed -1 --wm false"}]
    assert sent["metadata"]["return_last_frame"] is True and sent["metadata"]["callback_url"] == "https://example.com/hook"
    assert "prompt" not in sent


def test_vidd_image_roles_per_mode() -> None:
    first_last = body(model=LITE_I2V, prompt="p", mode=Mode.FIRST_LAST, first_frame="https://x/1.png", last_frame="https://x/2.png", camera_fixed=True)
    assert [item.get("role") for item in first_last["metadata"]["content"]] == [None, "first_frame", "last_frame"]
    assert first_last["metadata"]["content"][0]["text"] == "p --cf true"
    refs = body(model=LITE_I2V, prompt="[图1] meets [图2]", mode=Mode.REFERENCE, references=("https://x/a.png", "https://x/b.png"))
    assert [item.get("role") for item in refs["metadata"]["content"]][1:] == ["reference_image", "reference_image"]


def test_flags_typed_in_the_prompt_are_kept_and_checked() -> None:
    spec = VideoInput(model=PRO15, prompt="a fox --dur 5 --rs 480p", resolution="720p")
    assert vidd_text(spec) == "a fox --dur 5 --rs 480p"
    assert "--dur 20" in problems(model=PRO15, prompt="a fox --dur 20")


def test_flag_helpers() -> None:
    assert render_flags({"resolution": "480p", "duration": 5, "watermark": True, "seed": None}) == "--rs 480p --dur 5 --wm true"
    assert [(f.name, f.value) for f in parse_flags("x --resolution 720p --framespersecond 30 --camerafixed false")] == [
        ("resolution", "720p"), ("fps", "30"), ("camerafixed", "false")]


def test_raw_bodies_are_checked_against_their_family() -> None:
    with pytest.raises(RequestValidationError, match="lastFrame is only for the vidB-3.1 models"):
        validate_video_body({"model": VIDB30, "prompt": "p", "image": IMG, "lastFrame": IMG})
    with pytest.raises(RequestValidationError, match="metadata.content needs exactly one text item"):
        validate_video_body({"model": PRO15, "metadata": {"content": [{"type": "image_url", "image_url": {"url": IMG}}]}})
    with pytest.raises(RequestValidationError, match="first \\+ last frame needs one image with role first_frame"):
        validate_video_body({"model": LITE_I2V, "metadata": {"content": [
            {"type": "text", "text": "p"}, {"type": "image_url", "image_url": {"url": IMG}, "role": "last_frame"}]}})
    with pytest.raises(RequestValidationError, match="unknown"):
        validate_video_body({"model": VIDA, "prompt": "p", "unknown": 1})
    assert validate_video_body({"model": VIDA, "prompt": "p", "seconds": "8"}).to_body()["seconds"] == "8"
