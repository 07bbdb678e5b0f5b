"""Regenerate the demo gateway's sample videos: one small H.264 MP4 per aspect ratio.

Run from the repository root with ffmpeg (libx264) on PATH:

    python assets/video/make_demo_videos.py

Each clip is 3 s at 12 fps, a moving test pattern with the ratio written on it, no audio,
`+faststart` so a browser can start playing before the whole file has arrived.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SIZES = {"16x9": (384, 216), "9x16": (216, 384), "1x1": (288, 288), "4x3": (320, 240), "3x4": (240, 320), "21x9": (448, 192)}
SECONDS = 3
FPS = 12


def make(name: str, width: int, height: int) -> Path:
    target = HERE / f"demo-{name}.mp4"
    label = name.replace("x", "∶")
    pattern = f"testsrc2=size={width}x{height}:rate={FPS}:duration={SECONDS}"
    text = f"drawtext=text='demo {label}':fontcolor=white:fontsize={max(14, height // 12)}:box=1:boxcolor=black@0.5:x=(w-text_w)/2:y=h-text_h-8"
    command = [
        "ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", pattern, "-vf", text,
        "-c:v", "libx264", "-profile:v", "baseline", "-level", "3.0", "-pix_fmt", "yuv420p",
        "-crf", "32", "-preset", "veryslow", "-movflags", "+faststart", "-an", str(target),
    ]
    subprocess.run(command, check=True)
    return target


def main() -> int:
    if shutil.which("ffmpeg") is None:
        print("ffmpeg with libx264 is needed (Debian: apt-get install ffmpeg)", file=sys.stderr)
        return 1
    for name, (width, height) in SIZES.items():
        path = make(name, width, height)
        print(f"{path.name}: {width}x{height}, {path.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
