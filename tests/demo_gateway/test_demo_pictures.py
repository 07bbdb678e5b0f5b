"""The demo's images and videos depict the prompt's subject where its small vocabulary knows it:
"a red apple" is mostly red on a light backdrop, "the blue sea" mostly blue; the words are not
written on the picture; a video's moving things move."""

from __future__ import annotations

import base64
import io

import av
import httpx
import pytest
from PIL import Image

from playground.demo_gateway import scenes
from playground.demo_gateway.server import RunningGateway
from playground.demo_gateway.video_clip import render_clip
from playground.ui.i18n import CATALOGUE
from tests.conftest import DEMO_KEY


def shares(image: Image.Image) -> dict[str, float]:
    """The share of strongly red, blue and green pixels."""
    pixels = list(image.convert("RGB").resize((64, 64)).getdata())
    count = len(pixels)
    return {
        "red": sum(r > g + 60 and r > b + 60 for r, g, b in pixels) / count,
        "blue": sum(b > r + 60 and b > g + 10 for r, g, b in pixels) / count,
        "green": sum(g > r + 30 and g > b + 30 for r, g, b in pixels) / count,
    }


@pytest.fixture
def http(gateway: RunningGateway) -> httpx.Client:
    with httpx.Client(base_url=gateway.url, headers={"authorization": f"Bearer {DEMO_KEY}"}, timeout=20) as client:
        yield client


def generate(http: httpx.Client, prompt: str, **extra: object) -> tuple[Image.Image, str]:
    body = {"model": "gx-2.5-flash-image", "prompt": prompt, **extra}
    item = http.post("/v1/images/generations", json=body).json()["data"][0]
    return Image.open(io.BytesIO(base64.b64decode(item["b64_json"]))), item["revised_prompt"]


def test_a_red_apple_is_red_and_the_blue_sea_is_blue(http: httpx.Client) -> None:
    apple, apple_said = generate(http, "a red apple")
    sea, sea_said = generate(http, "the blue sea", size="16:9")
    assert shares(apple)["red"] > 0.15 and shares(apple)["blue"] < 0.02
    assert shares(sea)["blue"] > 0.4 and shares(sea)["red"] < 0.01
    assert "drawn by the demo gateway: apple" in apple_said and "the sea" in sea_said


def test_colour_words_and_chinese_prompts_change_the_subject(http: httpx.Client) -> None:
    green, _ = generate(http, "a green apple")
    assert shares(green)["green"] > 0.15 and shares(green)["red"] < 0.02
    chinese, said = generate(http, "一个红色的苹果")
    assert shares(chinese)["red"] > 0.15 and "苹果" in said and "离线演示网关绘制" in said


DRAWN_EXAMPLES = ("images.example.wide_prompt", "images.example.variations_prompt", "images.example.photo_prompt",
                  "video.example.boat_prompt", "native.example.draw_message")


@pytest.mark.parametrize("key", DRAWN_EXAMPLES)
def test_an_examples_chinese_prompt_draws_the_scene_its_english_one_does(key: str) -> None:
    """Issue 40: the Images, Video and Native examples ask in the visitor's language; the demo draws the same scene."""
    english, chinese = (scenes.read(CATALOGUE.texts[language][key]) for language in ("en", "zh-CN"))
    assert chinese.known and [name for name, _ in chinese.subjects] == [name for name, _ in english.subjects]
    assert (chinese.sea, chinese.indoors, chinese.time, chinese.rain) == (english.sea, english.indoors, english.time, english.rain)


def test_the_refused_examples_are_refused_in_chinese_too(http: httpx.Client) -> None:
    zh = CATALOGUE.texts["zh-CN"]
    refused = http.post("/v1/images/generations", json={"model": "gx-2.5-flash-image", "prompt": zh["images.example.refused_prompt"]})
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "content_policy_violation"
    assert "forbidden" in zh["video.example.refused_prompt"].lower()  # the demo fails a video job whose prompt holds the word


def test_four_variations_differ_and_an_unknown_subject_is_said_so(http: httpx.Client) -> None:
    items = http.post("/v1/images/generations", json={"model": "gx-2.5-flash-image", "prompt": "a cat and a tree", "n": 4}).json()["data"]
    assert len({item["b64_json"] for item in items}) == 4
    _, said = generate(http, "a quantum computer")
    assert "not in the offline demo's small drawing vocabulary" in said


def test_the_native_image_output_draws_the_subject_and_says_what_it_drew(http: httpx.Client) -> None:
    body = {"contents": [{"role": "user", "parts": [{"text": "a red apple"}]}], "generationConfig": {"responseModalities": ["TEXT", "IMAGE"]}}
    parts = http.post("/v1beta/models/gx-2.5-flash:generateContent", json=body).json()["candidates"][0]["content"]["parts"]
    assert parts[0]["text"] == "Here is a simple drawing: apple."
    picture = Image.open(io.BytesIO(base64.b64decode(parts[1]["inlineData"]["data"])))
    assert shares(picture)["red"] > 0.1


def first_and_last_frames(clip: bytes) -> tuple[Image.Image, Image.Image]:
    with av.open(io.BytesIO(clip)) as container:
        frames = [frame.to_image() for frame in container.decode(video=0)]
    return frames[0], frames[-1]


def test_a_video_shows_the_subject_and_its_moving_things_move() -> None:
    first, last = first_and_last_frames(render_clip(320, 180, 2, "a boat on the blue sea"))
    assert shares(first)["blue"] > 0.3
    boat_colour = (170, 80, 40)
    def boat_x(frame: Image.Image) -> float:
        spots = [x for x in range(frame.width) for y in range(90, 180, 3)
                 if sum(abs(a - b) for a, b in zip(frame.getpixel((x, y)), boat_colour)) < 60]  # type: ignore[arg-type]
        return sum(spots) / len(spots)
    assert abs(boat_x(first) - boat_x(last)) > 20
    apple, _ = first_and_last_frames(render_clip(320, 180, 1, "a red apple"))
    assert shares(apple)["red"] > 0.1


def test_the_vocabulary_is_read_from_the_head_of_a_prompt_only() -> None:
    assert scenes.read("x " * 10_000 + "a red apple").subjects == ()
    assert scenes.read("A lighthouse on a cliff at dusk").time == "dusk" and scenes.read("A lighthouse on a cliff at dusk").sea
