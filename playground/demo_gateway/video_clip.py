"""The demo's videos: rendered for each task at the asked size and duration.

A clip is an H.264 MP4 (yuv420p, `+faststart`, no audio) whose frames are drawn with Pillow: the
prompt's scene (`scenes.py`; boats, cars, birds, clouds, fish and rain move as it plays), the size
and length written small, and a bar that fills from the first frame to the last, so the length
can be seen as well as read.
Few frames per second and a high CRF keep the files small (tens of kilobytes) and quick to make;
clips are cached by what they show.
"""

from __future__ import annotations

import os
import tempfile
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from playground.demo_gateway import scenes

FPS = 6
SHORT_SIDES = {"480p": 480, "720p": 720, "1080p": 1080, "4k": 2160}


def even(value: float) -> int:
    return max(2, round(value / 2) * 2)


def frame_size(ratio: str, resolution: str) -> tuple[int, int]:
    """Width and height for an aspect ratio ("16:9") at a resolution ("720p": the short side)."""
    short = SHORT_SIDES.get(resolution, 720)
    w, h = (int(part) for part in ratio.split(":")) if ":" in ratio else (16, 9)
    return (even(short * w / h), short) if w >= h else (short, even(short * h / w))


def _caption(frame: Image.Image, seconds: float) -> None:
    width, height = frame.size
    size = max(12, min(width, height) // 24)
    ImageDraw.Draw(frame).text((size, height - size * 3.2), f"{width}x{height} · {seconds:g} s", font=ImageFont.load_default(size=size),
                               fill="white", stroke_width=1, stroke_fill="black")


def _frames(width: int, height: int, prompt: str, seconds: float) -> list[Image.Image]:
    """The prompt's scene with its moving things moving, the size and length, and a bar filling to the end."""
    scene = scenes.read(prompt)
    backdrop = scenes.background(scene, (width, height))
    count = max(2, round(seconds * FPS))
    bar_top, bar_height = height - max(8, height // 40) * 2, max(8, height // 40)
    frames = []
    for index in range(count):
        done = index / (count - 1)
        frame = scenes.draw(scene, (width, height), 0, done, backdrop)
        _caption(frame, seconds)
        ImageDraw.Draw(frame).rectangle([0, bar_top, int(width * done), bar_top + bar_height], fill=(255, 200, 60))
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
