"""The page and its config go gzipped (1.46 MB of inlined config, 0.23 MB on the wire); event
streams and everything else are sent as they are."""

from __future__ import annotations

import uuid

import httpx

from bench.app_queue import chat_chain, page_events, start_app
from playground.ui.web.compression import page_route


def test_the_page_and_its_config_are_gzipped_and_the_event_stream_is_not() -> None:
    app = start_app(token_delay=0.0)
    try:
        with httpx.Client(timeout=60) as http:
            plain = http.get(f"{app.url}/", headers={"accept-encoding": "identity"})
            page = http.get(f"{app.url}/", headers={"accept-encoding": "gzip"})
            config = http.get(f"{app.url}/config", headers={"accept-encoding": "gzip"})
            with http.stream("GET", f"{app.url}/gradio_api/queue/data", params={"session_hash": uuid.uuid4().hex[:12]},
                             headers={"accept-encoding": "gzip"}) as stream:
                stream_encoding = stream.headers.get("content-encoding")
        assert plain.headers.get("content-encoding") is None
        assert page.headers["content-encoding"] == "gzip" and config.headers["content-encoding"] == "gzip"
        assert page.text == plain.text, "the gzipped page is not the page"
        assert int(page.headers["content-length"]) < len(plain.content) / 5
        assert config.json()["components"], "the gzipped config is not the config"
        assert stream_encoding is None, "the event stream was compressed (it would arrive in bursts)"
    finally:
        app.stop()


async def test_a_chat_reply_streams_to_a_browser_that_accepts_gzip() -> None:
    app = start_app(token_delay=0.0)
    try:
        async with httpx.AsyncClient(timeout=60, headers={"accept-encoding": "gzip"}) as http:
            send = (await page_events(http, app.url))[1].send
            reply = await chat_chain(http, app.url, send, "Please repeat tokgzip42", uuid.uuid4().hex[:12])
        assert reply.ttft is not None and "tokgzip42" in reply.text
    finally:
        app.stop()


def test_the_page_is_found_below_a_proxy_prefix() -> None:
    assert page_route({"path": "/"}) == "/"
    assert page_route({"path": "/spaces/x/config", "root_path": "/spaces/x"}) == "/config"
    assert page_route({"path": "/spaces/x/", "root_path": "/spaces/x"}) == "/"
    assert page_route({"path": "/gradio_api/queue/data"}) == "/gradio_api/queue/data"
