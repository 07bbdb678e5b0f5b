"""Every benchmark runs once at its smallest setting, so none can rot (speed is not asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SMALLEST = {
    "stream_replay": ["--events", "200", "--runs", "1", "--formats", "chat,messages,responses,native"],
    "startup": ["--runs", "1", "--tab", "chat"],
    "ui_latency": ["--tries", "2"],
    "ui_latency_browser": ["--tries", "1", "--before", "HEAD", "--profile", "3"],
    "concurrent_chat": ["--sessions", "2"],
    "long_session": ["--turns", "2", "--sessions", "2"],
    "closed_visitors": ["--visitors", "2", "--release-s", "1", "--every-s", "0.5"],
    "stream_throughput": ["--runs", "1"],
    "video_download_memory": ["--mb", "1", "--runs", "1"],
    "embeddings": ["--texts", "40", "--runs", "1"],
    "video_clip": ["--runs", "1"],
    "report": ["--runs", "1"],
    "redaction": ["--events", "200", "--runs", "1"],
    "batch": ["--rows", "20", "--runs", "1"],
    "batch_store": ["--cells", "40", "--runs", "1"],
    "batch_page_cpu": ["--rounds", "1", "--window-s", "1"],
    "chat_history": ["--messages", "10,40", "--updates", "3"],
    "browser_trace": ["--turns", "1", "--video-job"],
    "skipped_outputs": ["--updates", "20", "--runs", "1"],
    "display_updates": ["--sends", "5", "--runs", "1"],
    "reply_cpu": ["--sessions", "2", "--runs", "1", "--sample", "--before", "HEAD"],
    "processes": ["--sessions", "2", "--rounds", "1", "--configurations", "direct,two"],
}


@pytest.mark.parametrize("name", sorted(SMALLEST))
def test_benchmark_prints_its_table(name: str) -> None:
    done = subprocess.run([sys.executable, "-m", f"bench.{name}", *SMALLEST[name]], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.strip().splitlines()
    assert len(lines) >= 3 and any(word in done.stdout.lower() for word in ("ratio", "naive", "baseline", "added", "completed", "vs start")), done.stdout
