"""A gateway whose base URL redirects: same-host 307/308 (and the https upgrade) are followed
with the key, other redirects are explained with their target. A real server on loopback: the
demo gateway behind a small ASGI front that redirects by path prefix and records every request."""

from __future__ import annotations

import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import uvicorn

from playground.client import egress
from playground.client.chat import ChatRequest
from playground.client.egress import EgressGuard
from playground.client.errors import GatewayMovedError
from playground.client.gateway import GatewayClient
from playground.client.native import NativeRequest
from playground.client.redirects import keeps_credentials, suggested_base_url
from playground.client.transport import Connection, Transport
from playground.demo_gateway.app import create_app
from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.server import free_port
from playground.ui.shared.render import error_text
from tests.conftest import DEMO_KEY

HOST = "127.0.0.2"
"""The front listens here; `127.0.0.1` on the same port is "another host" that also reaches it."""
ASGI = Callable[[dict[str, Any], Any, Any], Awaitable[None]]


@dataclass
class Front:
    url: str
    port: int
    seen: list[tuple[str, str, str, bool]] = field(default_factory=list)
    """(method, path, query, carried a key) of every request that arrived."""


def _rule(prefix: str, rest: str, query: str, port: int) -> tuple[int, str | None] | None:
    again = f"/{rest}" + (f"?{query}" if query else "")
    return {
        "moved308": (308, again),
        "moved307": (307, again),
        "twice": (307, f"/moved308/{rest}" + (f"?{query}" if query else "")),
        "loop": (307, f"/loop/{rest}"),
        "noquery": (308, f"/{rest}"),
        "absolute": (308, f"http://{HOST}:{port}/{rest}" + (f"?{query}" if query else "")),
        "offhost": (308, f"http://127.0.0.1:{port}/{rest}" + (f"?{query}" if query else "")),
        "otherport": (307, f"http://{HOST}:{port + 1}/{rest}"),
        "perm301": (301, again),
        "found302": (302, again),
        "nowhere": (307, None),
    }.get(prefix)


def redirecting(inner: ASGI, front: Front) -> ASGI:
    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await inner(scope, receive, send)
        path, query = scope["path"], scope["query_string"].decode()
        names = {name.decode().lower() for name, _ in scope["headers"]}
        front.seen.append((scope["method"], path, query, bool(names & {"authorization", "x-svc-api-key"}) or "key=" in query))
        prefix, _, rest = path[1:].partition("/")
        rule = _rule(prefix, rest, query, front.port)
        if rule is None:
            return await inner(scope, receive, send)
        status, location = rule
        headers = [(b"content-length", b"0")] + ([(b"location", location.encode())] if location else [])
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": b""})
    return app


@pytest.fixture(scope="module")
def front() -> Iterator[Front]:
    port = free_port(HOST)
    running = Front(f"http://{HOST}:{port}", port)
    app = redirecting(create_app(DemoConfig(api_key=DEMO_KEY, token_delay=0.0)), running)
    server = uvicorn.Server(uvicorn.Config(app, host=HOST, port=port, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    yield running
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture
def seen(front: Front) -> list[tuple[str, str, str, bool]]:
    front.seen.clear()
    return front.seen


def ask(text: str = "What is 21 + 21?", stream: bool = False) -> ChatRequest:
    return ChatRequest.build(model="gx-2.5-flash", messages=[{"role": "user", "content": text}], stream=stream)


async def chat(client: GatewayClient, conn: Connection, stream: bool) -> Any:
    if not stream:
        return await client.chat.create(conn, ask())
    async with client.chat.stream(conn, ask(stream=True)) as reply:
        async for _ in reply:
            pass
    return reply.result, reply.exchange


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "streamed"])
@pytest.mark.parametrize("prefix", ["moved308", "moved307", "absolute"])
async def test_a_moved_path_on_the_same_host_is_followed_with_the_key(client: GatewayClient, front: Front, seen: list[Any],
                                                                     prefix: str, stream: bool) -> None:
    result, exchange = await chat(client, Connection(f"{front.url}/{prefix}", DEMO_KEY), stream)
    assert result.complete and "42" in result.text
    assert [(method, path, has_key) for method, path, _, has_key in seen] == [
        ("POST", f"/{prefix}/v1/chat/completions", True), ("POST", "/v1/chat/completions", True)]
    assert exchange.url == f"{front.url}/v1/chat/completions" and exchange.attempt_outcomes[0] in ("307", "308")
    assert any("followed to" in note for note in exchange.notes)


async def test_two_hops_are_followed_and_a_loop_is_not(client: GatewayClient, front: Front, seen: list[Any]) -> None:
    result, _ = await client.chat.create(Connection(f"{front.url}/twice", DEMO_KEY), ask())
    assert result.complete and len(seen) == 3
    with pytest.raises(GatewayMovedError) as caught:
        await client.chat.create(Connection(f"{front.url}/loop", DEMO_KEY), ask())
    assert "more than 3 times" in str(caught.value) and caught.value.exchange is not None


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "streamed"])
@pytest.mark.parametrize("prefix", ["offhost", "otherport"])
async def test_a_redirect_to_another_host_is_reported_and_not_sent_the_key(client: GatewayClient, front: Front, seen: list[Any],
                                                                          prefix: str, stream: bool) -> None:
    with pytest.raises(GatewayMovedError) as caught:
        await chat(client, Connection(f"{front.url}/{prefix}", DEMO_KEY), stream)
    moved_to = f"http://127.0.0.1:{front.port}" if prefix == "offhost" else f"http://{HOST}:{front.port + 1}"
    assert f"The gateway moved to {moved_to}: use that base URL" in str(caught.value)
    assert caught.value.suggested_base_url == moved_to
    assert len(seen) == 1, "nothing may be sent to the other host"
    shown = error_text(caught.value)
    assert "The gateway moved" in shown and DEMO_KEY not in shown
    assert caught.value.exchange is not None and caught.value.exchange.status in (307, 308)


@pytest.mark.parametrize("prefix", ["perm301", "found302"])
async def test_a_post_after_301_or_302_is_reported_not_resent(client: GatewayClient, front: Front, seen: list[Any], prefix: str) -> None:
    with pytest.raises(GatewayMovedError) as caught:
        await client.chat.create(Connection(f"{front.url}/{prefix}", DEMO_KEY), ask())
    assert f"The gateway moved to {front.url}: use that base URL" in str(caught.value)
    assert "a POST is not sent again" in str(caught.value) and len(seen) == 1


async def test_a_get_after_301_is_followed(client: GatewayClient, front: Front, seen: list[Any]) -> None:
    ids, _exchange = await client.list_models(Connection(f"{front.url}/perm301", DEMO_KEY))
    assert "gx-2.5-flash" in ids and [path for _, path, _, _ in seen] == ["/perm301/v1/models", "/v1/models"]


async def test_a_redirect_without_a_target_is_explained(client: GatewayClient, front: Front) -> None:
    with pytest.raises(GatewayMovedError) as caught:
        await client.chat.create(Connection(f"{front.url}/nowhere", DEMO_KEY), ask())
    assert "without saying where to" in str(caught.value)


async def test_a_key_in_the_query_goes_along_on_the_same_host(client: GatewayClient, front: Front, seen: list[Any]) -> None:
    request = NativeRequest.build(model="gx-2.5-flash", stream=True, contents=[{"role": "user", "parts": [{"text": "hi"}]}])
    conn = Connection(f"{front.url}/noquery", DEMO_KEY).with_auth("query")
    async with client.native.stream(conn, request) as reply:
        async for _ in reply:
            pass
    assert reply.result.complete
    assert seen[-1][:2] == ("POST", "/v1beta/models/gx-2.5-flash:streamGenerateContent") and seen[-1][3]
    assert DEMO_KEY not in " ".join(reply.exchange.notes) + reply.exchange.url


async def test_hosted_mode_follows_through_the_guard(front: Front, seen: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    original = egress.refusal
    monkeypatch.setattr(egress, "refusal", lambda address: None if address == HOST else original(address))
    checked: list[tuple[str, int]] = []

    async def resolve(host: str, port: int) -> list[str]:
        checked.append((host, port))
        return [HOST] if host == "gw.public.test" else ["127.0.0.1"]

    client = GatewayClient(Transport(connect_timeout=2, read_timeout=5, guard=EgressGuard(resolver=resolve)))
    try:
        result, _ = await client.chat.create(Connection(f"http://gw.public.test:{front.port}/moved308", DEMO_KEY), ask())
    finally:
        await client.aclose()
    assert result.complete and len(seen) == 2
    assert checked and set(checked) == {("gw.public.test", front.port)}, "every connection a hop opens is checked"


@pytest.mark.parametrize(("url", "target", "kept"), [
    ("https://gw.example/v1/x", "https://gw.example/new/v1/x", True),
    ("http://gw.example/v1/x", "https://gw.example/v1/x", True),
    ("http://gw.example:80/v1/x", "https://gw.example:443/v1/x", True),
    ("http://gw.example:8080/v1/x", "https://gw.example/v1/x", False),
    ("https://gw.example/v1/x", "http://gw.example/v1/x", False),
    ("https://gw.example/v1/x", "https://gw.example.evil/v1/x", False),
    ("https://gw.example/v1/x", "https://other.example/v1/x", False),
])
def test_which_hops_keep_the_key(url: str, target: str, kept: bool) -> None:
    assert keeps_credentials(url, target) is kept


def test_the_suggested_base_url_drops_the_path_the_playground_added() -> None:
    assert suggested_base_url("https://a.example/gw", "https://a.example/gw/v1/chat/completions",
                              "https://b.example/api/v1/chat/completions") == "https://b.example/api"
    assert suggested_base_url("https://a.example", "https://a.example/v1/chat/completions", "https://b.example/login") == "https://b.example"
