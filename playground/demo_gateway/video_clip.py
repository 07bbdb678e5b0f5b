"""The demo's videos: rendered for each task at the asked size and duration.

A clip is an H.264 MP4 (yuv420p, `+faststart`, no audio) whose frames are drawn with Pillow: a
gradient chosen by the prompt, the prompt's first words, the size and length written on it, and
a bar that fills from the first frame to the last, so the length can be seen as well as read.
Few frames per second and a high CRF keep the files small (tens of kilobytes) and quick to make;
clips are cached by what they show.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import textwrap
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

FPS = 6
SHORT_SIDES = {"480p": 480, "720p": 720, "1080p": 1080, "4k": 2160}


def even(value: float) -> int:
    return max(2, round(value / 2) * 2)


def frame_size(ratio: str, resolution: str) -> tuple[int, int]:
    """Width and height for an aspect ratio ("16:9") at a resolution ("720p": the short side)."""
    short = SHORT_SIDES.get(resolution, 720)
    w, h = (int(part) for part in ratio.split(":")) if ":" in ratio else (16, 9)
    return (even(short * w / h), short) if w >= h else (short, even(short * h / w))


def _background(width: int, height: int, prompt: str, seconds: float) -> Image.Image:
    seed = hashlib.sha256(prompt.encode()).digest()
    top, bottom = (seed[0] // 2, seed[1] // 2, 80 + seed[2] // 3), (seed[3] // 3, 60 + seed[4] // 3, seed[5] // 2)
    mask = Image.linear_gradient("L").resize((width, height))
    image = Image.composite(Image.new("RGB", (width, height), bottom), Image.new("RGB", (width, height), top), mask)
    draw = ImageDraw.Draw(image)
    size = max(14, min(width, height) // 14)
    font = ImageFont.load_default(size=size)
    lines = textwrap.wrap(prompt.strip() or "demo video", width=max(8, int(width / (size * 0.6))))[:3]
    for number, line in enumerate(lines):
        draw.text((size, size + number * size * 1.3), line, font=font, fill="white", stroke_width=max(1, size // 14), stroke_fill="black")
    caption = f"{width}x{height} · {seconds:g} s"
    draw.text((size, height - size * 3.2), caption, font=ImageFont.load_default(size=max(12, size * 3 // 4)), fill="white",
              stroke_width=1, stroke_fill="black")
    return image


def _frames(width: int, height: int, prompt: str, seconds: float) -> list[Image.Image]:
    base = _background(width, height, prompt, seconds)
    count = max(2, round(seconds * FPS))
    bar_top, bar_height = height - max(8, height // 40) * 2, max(8, height // 40)
    radius = max(6, min(width, height) // 16)
    frames = []
    for index in range(count):
        done = index / (count - 1)
        frame = base.copy()
        draw = ImageDraw.Draw(frame)
        draw.rectangle([0, bar_top, int(width * done), bar_top + bar_height], fill=(255, 200, 60))
        x = radius + (width - 2 * radius) * done
        y = height / 2
        draw.ellipse([x - radius, y - radius, x + radius, y + radius], fill=(255, 255, 255), outline=(0, 0, 0))
        frames.append(frame)
    return frames


@lru_cache(maxsize=16)
def render_clip(width: int, height: int, seconds: float, prompt: str) -> bytes:
    """An MP4 of `width` x `height` pixels that plays for `seconds`."""
    import av

    handle, path = tempfile.mkstemp(suffix=".mp4")
    os.close(handle)
    try:
        with av.open(path, "w", format="mp4", options={"movflags": "+faststart"}) as container:
            stream = container.add_stream("libx264", rate=FPS)
            stream.width, stream.height, stream.pix_fmt = width, height, "yuv420p"
            stream.options = {"preset": "ultrafast", "crf": "36", "tune": "stillimage"}
            for image in _frames(width, height, prompt, seconds):
                container.mux(stream.encode(av.VideoFrame.from_image(image)))
            container.mux(stream.encode(None))
        with open(path, "rb") as file:
            return file.read()
    finally:
        os.unlink(path)
