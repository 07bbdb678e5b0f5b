"""Where a process's CPU goes, sampled from inside it (py-spy is not installed on the dev machine).

A thread takes every other thread's Python stack (the main thread's aside) at a fixed rate and counts, per function, the
samples it is on the stack of a running thread (inclusive) and on top (self). A thread blocked in
a C call (the event loop's `select`, a worker's `Condition.wait`) is idle and left out, by the
function its Python stack stops in. `bench.serve_app --sample` runs one: SIGUSR1 starts counting
(and clears what was counted), SIGUSR2 writes the counts as JSON to the file named.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from types import FrameType

IDLE_TOPS = {"select", "wait", "sleep", "_worker", "accept", "poll", "get", "readinto", "_wait_for_tstate_lock", "serve_forever"}
"""Functions a thread's Python stack stops in while the thread waits in C: such a sample is idle."""


def _label(frame: FrameType) -> str:
    code = frame.f_code
    path = code.co_filename
    short = path.split("site-packages/", 1)[-1] if "site-packages/" in path else os.path.relpath(path)
    return f"{getattr(code, 'co_qualname', code.co_name)} ({short})"


class StackSampler:
    """Counts busy samples of every thread but its own, `rate` times a second."""

    def __init__(self, rate: float = 250.0) -> None:
        self.interval = 1.0 / rate
        self.inclusive: Counter[str] = Counter()
        self.self_time: Counter[str] = Counter()
        self.samples = 0
        self._counting = False
        self._lock = threading.Lock()

    def start(self) -> None:
        threading.Thread(target=self._run, name="stack-sampler", daemon=True).start()

    def reset(self) -> None:
        with self._lock:
            self.inclusive.clear()
            self.self_time.clear()
            self.samples = 0
            self._counting = True

    def _run(self) -> None:
        skipped = {threading.get_ident(), threading.main_thread().ident}  # the main thread of `serve_app` only sleeps
        while True:
            time.sleep(self.interval)
            if not self._counting:
                continue
            frames = sys._current_frames()
            with self._lock:
                for ident, frame in frames.items():
                    if ident not in skipped and frame.f_code.co_name not in IDLE_TOPS:
                        self._count(frame)

    def _count(self, top: FrameType) -> None:
        self.samples += 1
        self.self_time[_label(top)] += 1
        seen = set()
        frame: FrameType | None = top
        while frame is not None:
            seen.add(_label(frame))
            frame = frame.f_back
        self.inclusive.update(seen)

    def write(self, path: Path) -> None:
        with self._lock:
            data = {"samples": self.samples, "inclusive": dict(self.inclusive.most_common(400)),
                    "self": dict(self.self_time.most_common(100))}
            self._counting = False
        partial = path.with_name(path.name + ".partial")
        partial.write_text(json.dumps(data))
        os.replace(partial, path)  # whole or absent: the bench reads it as soon as it exists


def install(path: Path, rate: float = 250.0) -> StackSampler:
    """A running sampler driven by signals: SIGUSR1 starts counting afresh, SIGUSR2 writes `path`."""
    sampler = StackSampler(rate)
    signal.signal(signal.SIGUSR1, lambda *_: sampler.reset())
    signal.signal(signal.SIGUSR2, lambda *_: sampler.write(path))
    sampler.start()
    return sampler


def share(data: dict[str, object], needle: str, kind: str = "inclusive") -> float:
    """The share of busy samples whose stack holds a function whose label contains `needle` (the
    largest such function's: nested matches are not added up)."""
    counts = data[kind]
    assert isinstance(counts, dict)
    samples = data["samples"]
    assert isinstance(samples, int)
    return max((n for label, n in counts.items() if needle in label), default=0) / max(samples, 1)
