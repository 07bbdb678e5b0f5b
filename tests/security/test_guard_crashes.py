"""Issue 35's crashes at the page guard: a stream that fails after its answer started is ended
properly (it was cut: "ASGI callable returned without completing response"), and a language
cookie naming no language the switch offers is ignored, on the server and in the page."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import httpx
import pytest

from playground.ui.i18n import request_language
from playground.ui.i18n.language import LANGUAGE_COOKIE
from tests.security.page_session import LaunchedApp, launched, page_session, run_event


@pytest.fixture(scope="module", params=[True, False], ids=["hosted", "local"])
def app(request: pytest.FixtureRequest) -> Iterator[LaunchedApp]:
    with launched(hosted=request.param) as running:
        yield running


@pytest.mark.parametrize("session", ["unknown", "", "x" * 5000, "%00"])
def test_the_event_stream_of_an_unknown_session_ends_properly(app: LaunchedApp, session: str, caplog: pytest.LogCaptureFixture) -> None:
    server_log = logging.getLogger("uvicorn.error")  # uvicorn's loggers do not reach the root logger
    server_log.addHandler(caplog.handler)
    try:
        with httpx.Client(timeout=20) as http:
            answer = http.get(f"{app.url}/gradio_api/queue/data", params={"session_hash": session})
            answer.read()  # raised RemoteProtocolError (incomplete chunked read) when the answer was cut
    finally:
        server_log.removeHandler(caplog.handler)
    assert answer.status_code < 500
    assert "Traceback" not in answer.text and "site-packages" not in answer.text
    assert not [record for record in caplog.records if "without completing response" in record.getMessage()]


COOKIES = ["__proto__", "constructor", "toString", "zh-CN;x", "%E0%A4%A", '"zh-CN', "\\u0000", "x" * 4000]


@pytest.mark.parametrize("value", COOKIES)
def test_an_unknown_language_cookie_is_ignored_on_the_server(value: str) -> None:
    cookie = f"{LANGUAGE_COOKIE}={value}"
    assert request_language(cookie, None) == "en"
    assert request_language(cookie, "zh-CN,zh;q=0.9") == "zh-CN"  # the browser's language, as without a cookie
    assert request_language(f"{LANGUAGE_COOKIE}=zh-CN", "en") == "zh-CN"
    assert request_language('broken="cookie; ' + cookie, "en") == "en"


async def test_an_event_with_a_hostile_language_cookie_answers_in_english(app: LaunchedApp) -> None:
    fn_index, data = app.inputs("count_tokens", **{"messages-input": {"text": "how many tokens is this?", "files": []}})
    headers = {"cookie": f"{LANGUAGE_COOKIE}=__proto__", "accept-language": "en"}
    async with httpx.AsyncClient(timeout=30) as http, page_session(http, app, headers) as session:
        status, output = await run_event(http, app, session, fn_index, data, headers)
    assert status == 200 and "token" in str(output).lower(), output
