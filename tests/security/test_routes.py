"""Every route a script can post to answers with a clean 4xx: no 500, no traceback. The routes are
read from the app Gradio builds (so a route added by a Gradio upgrade is covered), each posted to
with bodies a script might send, in hosted and in local mode (where a well-formed event for the
page's own session runs, as it does for the page: 200)."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.security.page_session import LaunchedApp, launched

BODIES = [
    b"",
    b"not json",
    b"[]",
    b"{}",
    b'{"data": [], "fn_index": 99999, "session_hash": "x", "event_id": "x"}',
    b'{"data": "oops", "fn_index": "x", "session_hash": 5}',
    b'{"data": [], "session_hash": "x", "fn_index": 0, "event_data": {"a": [1]}}',
    b"[" * 5000,
]
LEAKS = ("Traceback", 'File "', "site-packages", "Internal Server Error")


def _routes(routes: list) -> list:
    found = []
    for route in routes:
        inner = getattr(route, "original_router", None)  # FastAPI's included routers
        found += _routes(inner.routes) if inner is not None else [route]
    return found


def _post_routes(app: LaunchedApp) -> list[str]:
    paths = set()
    for route in _routes(app.blocks.app.routes):
        methods = getattr(route, "methods", None) or set()
        if "POST" in methods:
            path = route.path
            for name in ("api_name", "event_id", "session_hash", "path", "url_path", "id", "environment", "type", "file_name"):
                path = path.replace("{" + name + "}", "refresh_models" if name == "api_name" else "x")
            paths.add(path.replace("{", "").replace("}", ""))
    return sorted(paths)


@pytest.fixture(scope="module", params=[True, False], ids=["hosted", "local"])
def app(request: pytest.FixtureRequest) -> Iterator[LaunchedApp]:
    with launched(hosted=request.param) as running:
        yield running


def test_every_post_route_answers_a_clean_4xx(app: LaunchedApp) -> None:
    routes = _post_routes(app)
    assert "/gradio_api/queue/join" in routes and "/gradio_api/call/v2/refresh_models" in routes
    failures = []
    with httpx.Client(timeout=30) as http:
        for path in routes:
            if path.startswith(("/login", "/gradio_api/upload", "/gradio_api/process_recording")):
                bodies = BODIES[:2]
            else:
                bodies = BODIES
            for body in bodies:
                answer = http.post(app.url + path, content=body, headers={"content-type": "application/json"})
                harmless = path.rstrip("/").endswith(("/reset", "/cancel")) or (not app.hosted and "/gradio_api/" in path)
                if not 400 <= answer.status_code < 500 and not (answer.status_code == 200 and harmless):
                    failures.append((path, body[:40], answer.status_code, answer.text[:120]))
                if any(leak in answer.text for leak in LEAKS):
                    failures.append((path, body[:40], "leak", answer.text[:120]))
    assert failures == []


def test_the_api_route_that_answered_500_now_answers_404(app: LaunchedApp) -> None:
    answer = httpx.post(f"{app.url}/gradio_api/call/v2/refresh_models", json={})
    assert answer.status_code == 404 and "no API" in answer.json()["detail"]
