"""Issue 35, uploads without a page: in hosted mode `POST /gradio_api/upload` is accepted only from a
visitor whose page session is live, a few times a minute per visitor (not per session), and not
while the visitors' files fill the disk budget. Each refusal is a 4xx in words naming its setting,
in the visitor's language, and leaves nothing on disk. The real app, over HTTP, in a temp folder
of its own."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from playground.ui.i18n.language import LANGUAGE_COOKIE
from tests.security.page_session import LOOPBACK_PROXY, LaunchedApp, after_sweeps, launched, page_session, private_temp_dir, upload

PER_MINUTE = 3
GRACE_S = 0.6
"""Longer than a closed page's grace in these tests (0.5 s)."""
BUDGET_MB = 0.1
"""The tests' proxy: each X-Forwarded-For value stands for another visitor."""


def visitor(n: int) -> dict[str, str]:
    return {"x-forwarded-for": f"198.51.100.{n}"}


def files_under(folder: Path) -> list[Path]:
    return [path for path in folder.rglob("*") if path.is_file()]


@pytest.fixture(scope="module")
def temp(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    with private_temp_dir(tmp_path_factory.mktemp("gradio-temp")) as folder:
        yield folder


@pytest.fixture(scope="module")
def hosted(temp: Path) -> Iterator[LaunchedApp]:
    with launched(hosted=True, uploads_per_minute=PER_MINUTE, media_budget_mb=BUDGET_MB, trusted_proxies=LOOPBACK_PROXY,
                  page_grace_s=0.5, sweep_every_s=0.2) as app:
        yield app


async def test_an_upload_without_a_live_page_is_refused_in_words(hosted: LaunchedApp, temp: Path) -> None:
    before = files_under(temp)
    async with httpx.AsyncClient(timeout=30) as http:
        for n in range(5):  # the script: five random 1.5 MB files, no page
            answer = await upload(http, hosted, f"random{n}.bin", os.urandom(1_500_000), visitor(1))
            assert answer.status_code == 403, answer.text
            assert "page open in a browser" in answer.json()["detail"]
        chinese = await upload(http, hosted, "notes.txt", b"x" * 1500, {**visitor(1), "cookie": f"{LANGUAGE_COOKIE}=zh-CN"})
        assert chinese.status_code == 403 and "浏览器中打开的页面" in chinese.json()["detail"]
        async with page_session(http, hosted, visitor(1)):
            pass  # a page that closed: live for its grace, then no longer
        await asyncio.sleep(GRACE_S)
        closed = await upload(http, hosted, "notes.txt", b"x" * 1500, visitor(1))
        assert closed.status_code == 403
        async with page_session(http, hosted, visitor(2)):  # another visitor's page lets nobody else in
            assert (await upload(http, hosted, "notes.txt", b"x" * 1500, visitor(1))).status_code == 403
    assert files_under(temp) == before


async def test_a_live_page_uploads_and_its_file_is_served(hosted: LaunchedApp) -> None:
    async with httpx.AsyncClient(timeout=30) as http, page_session(http, hosted, visitor(3)):
        answer = await upload(http, hosted, "notes.txt", b"hello from a page", visitor(3))
        assert answer.status_code == 200, answer.text
        path = answer.json()[0]
        assert Path(path).read_bytes() == b"hello from a page"
        served = await http.get(f"{hosted.url}/gradio_api/file={path}", headers=visitor(3))
        assert served.status_code == 200 and served.content == b"hello from a page"


async def test_uploads_are_limited_per_visitor_not_per_session(hosted: LaunchedApp) -> None:
    statuses = []
    async with httpx.AsyncClient(timeout=30) as http:
        for n in range(PER_MINUTE + 2):
            async with page_session(http, hosted, visitor(4)):  # a new session every time
                answer = await upload(http, hosted, f"n{n}.txt", f"upload {n}".encode(), visitor(4))
                statuses.append(answer.status_code)
        assert statuses == [200] * PER_MINUTE + [429, 429]
        detail = answer.json()["detail"]
        assert "PLAYGROUND_UPLOADS_PER_MINUTE" not in detail and f"limited to {PER_MINUTE} a minute" in detail
        async with page_session(http, hosted, visitor(5)):  # someone else still may
            assert (await upload(http, hosted, "other.txt", b"mine", visitor(5))).status_code == 200


async def test_a_full_disk_budget_refuses_uploads_until_a_visitors_page_closes(hosted: LaunchedApp) -> None:
    big = os.urandom(60_000)
    async with httpx.AsyncClient(timeout=30) as http:
        async with page_session(http, hosted, visitor(6)):
            first = await upload(http, hosted, "big.bin", big, visitor(6))
            assert first.status_code == 200, first.text
            full = await upload(http, hosted, "big2.bin", os.urandom(60_000), visitor(6))
            assert full.status_code == 413, full.text
            assert "PLAYGROUND_MEDIA_BUDGET_MB" not in full.json()["detail"] and f"of {BUDGET_MB} MB" in full.json()["detail"]
            assert Path(first.json()[0]).exists()  # held while the page is open
        await asyncio.sleep(GRACE_S)  # the page closed: its grace, then a sweep
        await after_sweeps(hosted)
        assert not Path(first.json()[0]).exists()
        async with page_session(http, hosted, visitor(7)):
            assert (await upload(http, hosted, "big3.bin", os.urandom(60_000), visitor(7))).status_code == 200


def test_local_mode_takes_uploads_as_before(tmp_path: Path) -> None:
    with private_temp_dir(tmp_path), launched(hosted=False) as app:
        answer = httpx.post(f"{app.url}/gradio_api/upload", files={"files": ("a.txt", b"local")})
        assert answer.status_code == 200 and Path(answer.json()[0]).read_bytes() == b"local"
