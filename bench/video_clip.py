"""How long the demo gateway takes to make a video for a task, and how big it is, against a
same-run baseline: reading one committed sample clip (what the demo served before it rendered
videos at the asked size and length).

    python -m bench.video_clip [--runs 3]

Each size is rendered afresh per run (the cache is cleared); the table shows the median.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from playground.demo_gateway.video_clip import frame_size, render_clip

SAMPLE = Path(__file__).resolve().parents[1] / "assets" / "video" / "demo-16x9.mp4"
CASES = [("16:9", "480p", 5.0), ("9:16", "720p", 4.0), ("16:9", "720p", 12.0), ("16:9", "1080p", 8.0)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    baseline = []
    for _ in range(args.runs):
        start = time.perf_counter()
        SAMPLE.read_bytes()
        baseline.append(time.perf_counter() - start)
    print(f"{'video':<22}{'median ms':>12}{'bytes':>10}{'ratio to baseline':>20}")
    base = statistics.median(baseline)
    print(f"{'baseline: sample clip':<22}{base * 1000:>12.2f}{SAMPLE.stat().st_size:>10}{1.0:>20.1f}")
    for ratio, resolution, seconds in CASES:
        width, height = frame_size(ratio, resolution)
        times, size = [], 0
        for _ in range(args.runs):
            render_clip.cache_clear()
            start = time.perf_counter()
            size = len(render_clip(width, height, seconds, "A paper boat drifting down a rainy street"))
            times.append(time.perf_counter() - start)
        median = statistics.median(times)
        print(f"{f'{width}x{height} {seconds:g} s':<22}{median * 1000:>12.1f}{size:>10}{median / base:>20.0f}")


if __name__ == "__main__":
    main()
