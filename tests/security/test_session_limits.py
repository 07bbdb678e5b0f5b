"""Limits bind to the visitor, not to a Gradio session a script can renew; events without a live
page session get nothing. The real app in hosted mode (3 requests a minute), driven over HTTP as
a script would: new sessions for every call, sessionless posts, direct `/run` and `/call` posts.
"""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.security.page_session import LaunchedApp, launched, page_session, run_event

LIMIT = 3
COUNT_EVENT = "on_count"
"""The Messages tab's token count: one POST to the gateway per call (GETs are not counted)."""


@pytest.fixture(scope="module")
def hosted_app() -> Iterator[LaunchedApp]:
    with launched(hosted=True, requests_per_minute=LIMIT) as app:
        yield app


def _count_inputs(app: LaunchedApp) -> tuple[int, list]:
    return app.inputs(COUNT_EVENT, **{"messages-input": {"text": "how many tokens is this?", "files": []}})


def _limited(output: object) -> bool:
    return "PLAYGROUND_REQUESTS_PER_MINUTE" in str(output)


async def test_a_new_session_per_call_does_not_reset_the_limit(hosted_app: LaunchedApp) -> None:
    fn_index, data = _count_inputs(hosted_app)
    outcomes = []
    async with httpx.AsyncClient(timeout=30) as http:
        for _ in range(LIMIT + 2):
            async with page_session(http, hosted_app) as session:
                outcomes.append(await run_event(http, hosted_app, session, fn_index, data))
        assert all(status == 200 for status, _ in outcomes)
        assert [_limited(output) for _, output in outcomes] == [False] * LIMIT + [True, True], outcomes
        other = {"x-forwarded-for": "203.0.113.7"}  # another visitor (behind the proxy) has an allowance of their own
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
