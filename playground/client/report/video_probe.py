"""The video probe (thorough runs only): submit a short text-to-video job once (never resent),
poll it to its end watching the progress, download the video and check it is an MP4 that
knows its duration (the `ftyp` box first, a `moov` box holding `mvhd` with a duration above
zero), without ffprobe."""

from __future__ import annotations

import struct
from pathlib import Path

from playground.client.media import media_directory
from playground.client.report.probe import Fail, Probe, excerpt
from playground.client.video_requests import VideoInput, build_video_request
from playground.client.texts import Text

CONTAINERS = frozenset({b"moov", b"trak", b"mdia"})


def _boxes(data: bytes, start: int, end: int) -> list[tuple[bytes, int, int]]:
    """(type, payload start, payload end) of the boxes in data[start:end]."""
    boxes, offset = [], start
    while offset + 8 <= end:
        size, kind = struct.unpack(">I4s", data[offset:offset + 8])
        header = 8
        if size == 1 and offset + 16 <= end:
            size, header = struct.unpack(">Q", data[offset + 8:offset + 16])[0], 16
        elif size == 0:
            size = end - offset
        if size < header or offset + size > end:
            break
        boxes.append((kind, offset + header, offset + size))
        offset += size
    return boxes


def mp4_duration(data: bytes) -> float | None:
    """Seconds from the `mvhd` box of an MP4 whose first box is `ftyp` (None: not such a file)."""
    top = _boxes(data, 0, len(data))
    if not top or top[0][0] != b"ftyp":
        return None
    for kind, start, end in top:
        if kind != b"moov":
            continue
        for inner, payload, _ in _boxes(data, start, end):
            if inner != b"mvhd":
                continue
            version = data[payload]
            if version == 1:
                timescale, duration = struct.unpack(">IQ", data[payload + 20:payload + 32])
            else:
                timescale, duration = struct.unpack(">II", data[payload + 12:payload + 20])
            return duration / timescale if timescale else None
    return None


async def video(probe: Probe) -> str:
    request = build_video_request(VideoInput(probe.model, prompt="A paper boat on a pond, report probe"))
    task, exchange = await probe.call(lambda: probe.client.video.submit(probe.conn, request))
    probe.keep(exchange)
    progress: list[float] = []
    statuses: list[str] = []
    async for update in probe.client.video.poll(probe.conn, task.task_id):
        probe.keep(update.exchange)
        if update.task is not None:
            statuses.append(update.task.status)
            if update.task.progress is not None:
                progress.append(update.task.progress)
            task = update.task
    if task.status != "succeeded":
        raise Fail(Text("report.video.job_ended", status=task.status), "succeeded", excerpt(statuses))
    if not progress and "in_progress" not in statuses:
        raise Fail(Text("report.video.no_progress"), Text("report.video.expected_progress"), excerpt(statuses))
    saved = await probe.call(lambda: probe.client.video.save_result(probe.conn, task, media_directory("report-videos")))
    probe.keep(saved.exchange)
    data = Path(saved.path).read_bytes()
    seconds = mp4_duration(data)
    if seconds is None or seconds <= 0:
        raise Fail(Text("report.video.not_mp4"), Text("report.video.expected_mp4"), excerpt(data[:16].hex()))
    return Text("report.video.passed", polls=len(statuses), size=len(data), seconds=seconds)


PROBES = {"video": video}
