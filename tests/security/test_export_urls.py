"""Export files are served to their owner's page only (issue 35): the real app, launched in hosted
mode, asked over HTTP for a file in a folder the Batch tab would export into. The full URL is
known to everyone here: a name, however unguessable, is not the key. Another visitor, the
owner's address without the owner's browser cookie, a script with no session, the owner's mark
itself and an export folder written before marks all get 404; locally nothing changes."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from playground.client.media import media_directory
from playground.ui.web.owned_files import BROWSER_COOKIE, MARK, FileMark, owned_folder, served_to
from playground.ui.web.owners import owner_of
from playground.ui.web.visitors import PageSessions
from tests.security.page_session import LOOPBACK_PROXY, LaunchedApp, launched, page_session

OWNER = {"x-forwarded-for": "93.184.216.34"}
OTHER = {"x-forwarded-for": "151.101.1.69"}


class Request:
    """What the Export event's `gr.Request` holds for a page whose requests carry `headers` (the
    page guard takes X-Forwarded-For as the client from a trusted proxy; these tests trust loopback)."""

    def __init__(self, headers: dict[str, str], cookie: str, session: str) -> None:
        self.client = type("Client", (), {"host": headers.get("x-forwarded-for", "127.0.0.1")})()
        self.headers = headers
        self.cookies = {BROWSER_COOKIE: cookie} if cookie else {}
        self.session_hash = session


@pytest.fixture(scope="module")
def hosted_app() -> Iterator[LaunchedApp]:
    with launched(hosted=True, trusted_proxies=LOOPBACK_PROXY) as app:
        yield app


def _export(request: Request, hosted: bool = True) -> Path:
    folder = owned_folder("batch", owner_of(request, hosted) or "", request)
    path = folder / "batch-cells.csv"
    path.write_text("row,answer\n1,four\n", encoding="utf-8")
    return path


def _url(app: LaunchedApp, path: Path | str) -> str:
    return f"{app.url}/gradio_api/file={path}"


async def _browser(http: httpx.AsyncClient, app: LaunchedApp) -> str:
    """Load the page as a browser does: the app gives the browser its cookie."""
    page = await http.get(app.url + "/")
    assert page.status_code == 200
    return http.cookies.get(BROWSER_COOKIE) or ""


async def test_an_export_url_answers_its_owners_browser_only(hosted_app: LaunchedApp) -> None:
    async with httpx.AsyncClient(timeout=30, headers=OWNER) as owner, httpx.AsyncClient(timeout=30, headers=OTHER) as other:
        cookie, other_cookie = await _browser(owner, hosted_app), await _browser(other, hosted_app)
        assert cookie and other_cookie and cookie != other_cookie
        async with page_session(owner, hosted_app, OWNER) as session:
            path = _export(Request(OWNER, cookie, session))
            url = _url(hosted_app, path)
            mine = await owner.get(url)
            assert mine.status_code == 200 and mine.text.startswith("row,answer")
            async with page_session(other, hosted_app, OTHER):
                assert (await other.get(url)).status_code == 404  # another visitor with a live page of their own
                assert (await other.get(url, cookies={BROWSER_COOKIE: cookie})).status_code == 404  # with the owner's cookie, from elsewhere
            async with httpx.AsyncClient(timeout=30) as script:
                assert (await script.get(url)).status_code == 404  # no session, no cookie, no visitor
                assert (await script.get(url, headers=OWNER)).status_code == 404  # the owner's address, not the owner's browser
                assert (await script.get(url, headers=OWNER, cookies={BROWSER_COOKIE: "x" * 32})).status_code == 404
            for spelled in (f"{hosted_app.url}/gradio_api/file/{path}", _url(hosted_app, f"{path.parent}/../{path.parent.name}/{path.name}")):
                assert (await other.get(spelled)).status_code == 404 and (await owner.get(spelled)).status_code == 200
            assert (await owner.get(_url(hosted_app, path.parent / MARK))).status_code == 404  # the mark is never served
            assert (await owner.head(url)).status_code == 200 and (await other.head(url)).status_code == 404


async def test_a_prompt_library_export_answers_its_owners_browser_only(hosted_app: LaunchedApp) -> None:
    async with httpx.AsyncClient(timeout=30, headers=OWNER) as owner, httpx.AsyncClient(timeout=30, headers=OTHER) as other:
        cookie = await _browser(owner, hosted_app)
        await _browser(other, hosted_app)
        async with page_session(owner, hosted_app, OWNER) as session:
            request = Request(OWNER, cookie, session)
            path = owned_folder("prompts", owner_of(request, True) or "", request) / "prompt-library.json"
            path.write_text('{"kind": "gateway-playground/prompts"}', encoding="utf-8")
            url = _url(hosted_app, path)
            assert (await owner.get(url)).status_code == 200
            async with page_session(other, hosted_app, OTHER):
                assert (await other.get(url)).status_code == 404
                assert (await other.get(url, cookies={BROWSER_COOKIE: cookie})).status_code == 404


async def test_without_a_browser_cookie_the_export_lives_with_its_page_session(hosted_app: LaunchedApp) -> None:
    """A Space's page in a frame whose browser refuses the frame's cookies: the owner's live session
    carries the file instead, so it still reaches the owner, and only the owner."""
    async with httpx.AsyncClient(timeout=30, headers=OWNER) as owner, httpx.AsyncClient(timeout=30, headers=OTHER) as other:
        async with page_session(owner, hosted_app, OWNER) as session:
            url = _url(hosted_app, _export(Request(OWNER, "", session)))
            assert (await owner.get(url)).status_code == 200
            assert (await other.get(url)).status_code == 404
        gone = PageSessions(grace_s=0.0)
        gone.opened(session)
        gone.closed(session)
        mark = FileMark(owner_of(Request(OWNER, "", session), True) or "", session, "")
        assert not served_to(mark, mark.owner, "", gone.live)  # the page closed: the link died with it
        assert not served_to(mark, mark.owner, "", PageSessions().live)  # a session that never loaded the page


async def test_files_in_the_export_directory_without_a_mark_are_never_served(hosted_app: LaunchedApp) -> None:
    old = media_directory("batch") / secrets.token_hex(16)  # as exports were written before marks (the run id as its name)
    old.mkdir(parents=True)
    (old / "batch-cells.csv").write_text("row\n1\n", encoding="utf-8")
    loose = media_directory("batch") / f"{secrets.token_hex(4)}.csv"
    loose.write_text("row\n", encoding="utf-8")
    async with httpx.AsyncClient(timeout=30, headers=OWNER) as owner, page_session(owner, hosted_app, OWNER):
        assert (await owner.get(_url(hosted_app, old / "batch-cells.csv"))).status_code == 404
        assert (await owner.get(_url(hosted_app, loose))).status_code == 404
        broken = _export(Request(OWNER, "", "x"))
        (broken.parent / MARK).write_text(json.dumps({"owner": ["not", "text"]}), encoding="utf-8")
        assert (await owner.get(_url(hosted_app, broken))).status_code == 404


async def test_the_browser_cookie_is_http_only_and_crosses_the_spaces_frame_over_https(hosted_app: LaunchedApp) -> None:
    async with httpx.AsyncClient(timeout=30) as http:
        plain_page = (await http.get(hosted_app.url + "/")).headers.get("set-cookie", "")
        assert plain_page.startswith(BROWSER_COOKIE + "=") and "HttpOnly" in plain_page and "SameSite=Lax" in plain_page
        again = await http.get(hosted_app.url + "/")  # the browser has its cookie now: no new one
        assert BROWSER_COOKIE not in again.headers.get("set-cookie", "")
    async with httpx.AsyncClient(timeout=30) as http:  # a Space: TLS ends at its proxy
        proxied = (await http.get(hosted_app.url + "/", headers={"x-forwarded-proto": "https"})).headers.get("set-cookie", "")
        assert "Secure" in proxied and "SameSite=None" in proxied and "Partitioned" in proxied


def test_locally_nothing_changes_but_the_mark() -> None:
    with launched(hosted=False) as app, httpx.Client(timeout=30) as http:
        path = _export(Request({}, "", "local"), hosted=False)
        assert http.get(_url(app, path)).status_code == 200
        assert http.get(_url(app, path.parent / MARK)).status_code == 404
        assert BROWSER_COOKIE not in http.get(app.url + "/").headers.get("set-cookie", "")
