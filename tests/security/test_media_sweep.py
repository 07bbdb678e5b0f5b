"""Issue 35, files never deleted: what a visitor uploaded and what the app made for them is deleted
when their page session ends, and never while it is live (however old the file); a file nobody
holds goes after an age; over the disk budget, files no live page holds go oldest first. The real
app in hosted mode (two visitors behind a proxy, a short grace and sweep), and the sweep itself on
a real folder."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from playground.ui.web.media_sweep import MediaFiles
from playground.ui.web.shown_files import media_root
from tests.security.page_session import LOOPBACK_PROXY, LaunchedApp, after_sweeps, launched, page_session, private_temp_dir, run_direct, upload

ALICE = {"x-forwarded-for": "203.0.113.10"}
BOB = {"x-forwarded-for": "203.0.113.20"}
GRACE_S = 0.6
"""Longer than a closed page's grace in these tests (0.5 s)."""
HOURS_AGO = time.time() - 5 * 3600


@pytest.fixture(scope="module")
def hosted(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LaunchedApp]:
    with private_temp_dir(tmp_path_factory.mktemp("gradio-temp")), \
            launched(hosted=True, trusted_proxies=LOOPBACK_PROXY, page_grace_s=0.5, sweep_every_s=0.2) as app:
        yield app


async def _upload_and_save(http: httpx.AsyncClient, app: LaunchedApp, session: str, who: dict[str, str]) -> tuple[Path, Path]:
    """The visitor uploads a file and saves their chat session (a file the app makes and hands to the page)."""
    uploaded = await upload(http, app, "notes.txt", f"notes of {who}".encode(), who)
    assert uploaded.status_code == 200, uploaded.text
    fn_index, data = app.inputs("on_save_1")  # the Chat tab's "Save to a file"
    saved = await run_direct(http, app, session, fn_index, data, who)
    assert saved.status_code == 200, saved.text
    made = Path(saved.json()["data"][0]["value"]["path"])
    assert made.is_relative_to(media_root()) and made.exists()
    return Path(uploaded.json()[0]), made


async def test_a_visitors_files_go_when_their_page_closes_and_stay_while_it_is_open(hosted: LaunchedApp) -> None:
    async with httpx.AsyncClient(timeout=30) as http:
        async with page_session(http, hosted, BOB) as bob:
            bobs = await _upload_and_save(http, hosted, bob, BOB)
            for path in bobs:
                os.utime(path, (HOURS_AGO, HOURS_AGO))  # older than any age: a live page still holds them
            async with page_session(http, hosted, ALICE) as alice:
                alices = await _upload_and_save(http, hosted, alice, ALICE)
                await after_sweeps(hosted)
                assert all(path.exists() for path in (*alices, *bobs))
            await asyncio.sleep(GRACE_S)  # Alice's page closed
            await after_sweeps(hosted)
            assert not any(path.exists() for path in alices)
            assert all(path.exists() for path in bobs)
            served = await http.get(f"{hosted.url}/gradio_api/file={bobs[1]}", headers=BOB)
            assert served.status_code == 200 and b'"tab": "chat"' in served.content
        await asyncio.sleep(GRACE_S)  # Bob's page closed too
        await after_sweeps(hosted)
        assert not any(path.exists() for path in bobs)


async def test_a_file_nobody_holds_goes_after_the_age(hosted: LaunchedApp) -> None:
    folder = media_root() / "sessions" / "left-behind"
    folder.mkdir(parents=True, exist_ok=True)
    old, young = folder / "old.json", folder / "young.json"
    old.write_text("{}")
    young.write_text("{}")
    os.utime(old, (HOURS_AGO, HOURS_AGO))
    await after_sweeps(hosted)
    assert not old.exists() and young.exists()


def _file(folder: Path, name: str, size: int, age_s: float) -> Path:
    path = folder / name
    path.write_bytes(b"x" * size)
    os.utime(path, (time.time() - age_s, time.time() - age_s))
    return path


async def test_over_the_budget_the_oldest_files_no_live_page_holds_go_first(tmp_path: Path) -> None:
    live = {"address 203.0.113.30"}
    files = MediaFiles(lambda who: who in live, budget_bytes=2500, max_age_s=3600, root=lambda: tmp_path)
    held_oldest = _file(tmp_path, "held.bin", 1000, 300)
    oldest, middle, newest = (_file(tmp_path, f"{name}.bin", 1000, age) for name, age in (("oldest", 200), ("middle", 100), ("newest", 10)))
    files.hold(str(held_oldest), "address 203.0.113.30")
    deleted = await files.sweep()
    assert deleted == [str(oldest), str(middle)] and held_oldest.exists() and newest.exists()
    assert files.used_bytes == 2000 and files.room_for(500) and not files.room_for(501)
    live.clear()  # the holder's page closed: their file goes, whatever the budget
    assert await files.sweep() == [str(held_oldest)] and newest.exists()


async def test_the_sweep_never_leaves_its_folders(tmp_path: Path) -> None:
    root, outside = tmp_path / "media", tmp_path / "elsewhere"
    root.mkdir()
    outside.mkdir()
    stranger = _file(outside, "not-ours.txt", 10, 10 * 3600)
    link = root / "link.txt"
    link.symlink_to(stranger)
    os.utime(link, (HOURS_AGO, HOURS_AGO), follow_symlinks=False)
    files = MediaFiles(lambda who: False, max_age_s=60, root=lambda: root, uploads_root=lambda: tmp_path / "uploads")
    files.hold(str(stranger), "address 203.0.113.40")  # a path outside the media folder is never taken on
    files.hold_paths_in(b'{"path": "' + str(stranger).encode() + b'"}', "address 203.0.113.40")
    files.uploaded(b'["' + str(stranger).encode() + b'"]', None)  # an upload lives in Gradio's upload folder
    assert await files.sweep() == [str(link)]
    assert stranger.exists() and stranger.read_bytes() == b"x" * 10
