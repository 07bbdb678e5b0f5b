"""Limits bind to the visitor, not to a Gradio session a script can renew; events without a live
page session get nothing. The real app in hosted mode (3 requests a minute), driven over HTTP as
a script would: new sessions for every call, sessionless posts, direct `/run` and `/call` posts.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from gradio.context import LocalContext

from playground.client.gateway import GatewayClient
from playground.client.video_catalog import Mode
from playground.demo_gateway.server import RunningGateway
from playground.settings import Settings
from playground.ui.shared.connection import ServerDefaults, SessionQuotas
from playground.ui.tabs.video.board import VideoBoard, VideoJob
from playground.ui.tabs.video.form import FIELD_NAMES, VideoForm
from playground.ui.tabs.video.handlers import submit_job
from playground.ui.web.visitor_identity import TrustedProxies, visitor_address
from tests.conftest import DEMO_KEY
from tests.security.page_session import LOOPBACK_PROXY, LaunchedApp, launched, page_session, run_event

LIMIT = 3
"""The tests' own proxy: X-Forwarded-For written by the test stands for the address a proxy appended."""
COUNT_EVENT = "count_tokens"
"""The Messages tab's token count: one POST to the gateway per call (GETs are not counted)."""


@pytest.fixture(scope="module")
def hosted_app() -> Iterator[LaunchedApp]:
    with launched(hosted=True, requests_per_minute=LIMIT, trusted_proxies=LOOPBACK_PROXY) as app:
        yield app


def _count_inputs(app: LaunchedApp) -> tuple[int, list]:
    return app.inputs(COUNT_EVENT, **{"messages-input": {"text": "how many tokens is this?", "files": []}})


def _limited(output: object) -> bool:
    """The visitor's limit refused the call (named in words: a hosted visitor reads no setting's name)."""
    shown = str(output)
    assert "PLAYGROUND_" not in shown
    return "requests in the last minute" in shown


async def test_a_new_session_per_call_does_not_reset_the_limit(hosted_app: LaunchedApp) -> None:
    fn_index, data = _count_inputs(hosted_app)
    outcomes = []
    async with httpx.AsyncClient(timeout=30) as http:
        for _ in range(LIMIT + 2):
            async with page_session(http, hosted_app) as session:
                outcomes.append(await run_event(http, hosted_app, session, fn_index, data))
        assert all(status == 200 for status, _ in outcomes)
        assert [_limited(output) for _, output in outcomes] == [False] * LIMIT + [True, True], outcomes
        other = {"x-forwarded-for": "93.184.216.34"}  # another visitor (behind the proxy) has an allowance of their own
        async with page_session(http, hosted_app, other) as session:
            status, output = await run_event(http, hosted_app, session, fn_index, data, other)
        assert status == 200 and not _limited(output) and "token" in str(output).lower()


async def test_events_without_a_live_page_session_get_nothing(hosted_app: LaunchedApp) -> None:
    fn_index, data = _count_inputs(hosted_app)
    async with httpx.AsyncClient(timeout=30) as http:
        for session in (None, "never-loaded-the-page"):
            status, answer = await run_event(http, hosted_app, session, fn_index, data)
            assert status in (400, 403), answer
        direct = await http.post(f"{hosted_app.url}/gradio_api/run/{COUNT_EVENT}", json={"data": data})
        assert direct.status_code == 403 and "page" in direct.json()["detail"]
        direct = await http.post(f"{hosted_app.url}/gradio_api/run/refresh_models", json={"data": ["", ""], "session_hash": "made-up"})
        assert direct.status_code == 403
        for path in (f"/gradio_api/call/{COUNT_EVENT}", "/gradio_api/call/v2/refresh_models", "/gradio_api/call/refresh_models"):
            answer = await http.post(hosted_app.url + path, json={"data": data})
            assert answer.status_code == 404 and "no API" in answer.json()["detail"]


class _Visitor:
    """What Gradio's request context holds for an event: the client address and the session."""

    def __init__(self, host: str, session: str) -> None:
        self.client = type("Client", (), {"host": host})()
        self.headers: dict[str, str] = {}
        self.session_hash = session


async def test_video_jobs_count_across_the_visitors_sessions(client: GatewayClient, gateway: RunningGateway) -> None:
    defaults = ServerDefaults(gateway.url, DEMO_KEY, demo=True, hosted=True, video_jobs_per_session=2, quotas=SessionQuotas(100, 0))
    values: dict[str, Any] = {name: None for name in FIELD_NAMES}
    values.update(model="vidA-2", mode=Mode.TEXT.value, prompt="a lighthouse")
    boards = []
    for session, host in (("first", "8.8.8.8"), ("second", "8.8.8.8"), ("third", "8.8.8.8"), ("elsewhere", "1.1.1.1")):
        board = VideoBoard()
        board.add(VideoJob(f"video_{session}", "vidA-2", "p", 0.0))  # one job running in each session
        boards.append(board)
        token = LocalContext.request.set(_Visitor(host, session))
        try:
            outcome = await submit_job(client, defaults, board, "", "", VideoForm(**values))
        finally:
            LocalContext.request.reset(token)
        for job in board.active():
            job.cancel.set()
        if session == "first":
            assert outcome.error == ""
        elif session in ("second", "third"):
            assert "PLAYGROUND_VIDEO_JOBS_PER_SESSION" in outcome.error and len(board.jobs) == 1
        else:
            assert outcome.error == ""


@pytest.mark.parametrize(("peer", "forwarded", "visitor"), [
    ("8.8.4.4", "93.184.216.34", "8.8.4.4"),                    # a direct public peer: the header is ignored
    ("10.16.3.80", "93.184.216.34", "93.184.216.34"),           # behind the Space's proxy
    ("10.16.3.80", "1.2.3.4, 93.184.216.34", "93.184.216.34"),  # a client-written entry stands to the left
    ("10.16.3.80", "93.184.216.34, 10.0.0.7", "93.184.216.34"), # a second, private proxy hop
    ("10.16.3.80", "junk", "10.16.3.80"),                        # not an address: the proxy's, not a new one
    ("127.0.0.1", None, "127.0.0.1"),
    ("127.0.0.1", "93.184.216.34", "127.0.0.1"),                # loopback is not the Space's proxy: the header is ignored
])
def test_the_visitor_behind_a_proxy(peer: str, forwarded: str | None, visitor: str) -> None:
    space = TrustedProxies(Settings.from_env({"SPACE_ID": "someone/playground"}, dotenv=None).trusted_proxies)
    assert visitor_address(peer, forwarded, space) == visitor
