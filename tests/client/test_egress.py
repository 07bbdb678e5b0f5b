"""Hosted mode: the server connects only to public addresses for a visitor, the checked address
is the one connected to, redirects are checked hop by hop, limits hold. All traffic stays on
this machine: names come from an injected resolver, servers listen on loopback addresses."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from playground.client import egress
from playground.client.chat import ChatRequest
from playground.client.egress import BlockedAddressError, EgressGuard, refusal
from playground.client.errors import RequestValidationError
from playground.client.gateway import GatewayClient
from playground.client.limits import LimitError, SessionQuota, UpstreamCap
from playground.client.transport import Connection, Transport
from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.server import RunningGateway, start_in_thread
from tests.conftest import DEMO_KEY
from tests.recorder import Recorder

PUBLIC_STAND_IN = "127.0.0.2"
"""A loopback address the tests treat as public, so a "public" gateway can run on this machine."""


@pytest.mark.parametrize(("address", "kind"), [
    ("127.0.0.1", "loopback"), ("10.1.2.3", "private"), ("172.16.5.4", "private"), ("192.168.1.1", "private"),
    ("169.254.169.254", "link-local"), ("0.0.0.0", "unspecified"), ("::1", "loopback"), ("fe80::1", "link-local"),
    ("fc00::1", "unique-local"), ("fd12:3456::1", "unique-local"), ("224.0.0.1", "multicast"), ("ff02::1", "multicast"),
    ("::ffff:127.0.0.1", "IPv6 form of a loopback"), ("::ffff:10.0.0.1", "IPv6 form of a private"), ("100.64.0.1", "reserved"),
    ("64:ff9b::a00:1", "IPv6 form of a private"), ("::", "unspecified"), ("240.0.0.1", "reserved"),
])
def test_every_non_public_address_class_is_refused(address: str, kind: str) -> None:
    reason = refusal(address)
    assert reason is not None and kind in reason


@pytest.mark.parametrize("address", ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111"])
def test_public_addresses_pass(address: str) -> None:
    assert refusal(address) is None


@pytest.fixture
def public_stand_in(monkeypatch: pytest.MonkeyPatch) -> None:
    original = egress.refusal
    monkeypatch.setattr(egress, "refusal", lambda address: None if address == PUBLIC_STAND_IN else original(address))


@pytest.fixture(scope="module")
def public_gateway() -> Iterator[RunningGateway]:
    running = start_in_thread(DemoConfig(api_key=DEMO_KEY, token_delay=0.0), host=PUBLIC_STAND_IN)
    yield running
    running.stop()


def resolver(table: dict[str, str]) -> egress.Resolver:
    async def resolve(host: str, port: int) -> list[str]:
        if host not in table:
            raise OSError("unknown name")
        return [table[host]]
    return resolve


def hosted(guard: EgressGuard, **limits: int) -> GatewayClient:
    return GatewayClient(Transport(connect_timeout=2, read_timeout=5, guard=guard, **limits))


def ask(text: str = "hi", stream: bool = False) -> ChatRequest:
    return ChatRequest.build(model="gx-2.5-flash", messages=[{"role": "user", "content": text}], stream=stream)


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost-alias", "[::1]", "0.0.0.0"])
async def test_base_url_on_a_private_address_is_refused_before_connecting(host: str) -> None:
    with Recorder().running() as recorder:
        port = recorder.server.server_port
        guard = EgressGuard(resolver=resolver({"localhost-alias": "127.0.0.1"}))
        client = hosted(guard)
        with pytest.raises(BlockedAddressError) as caught:
            await client.chat.create(Connection(f"http://{host}:{port}", "sk-visitor"), ask())
        await client.aclose()
    assert recorder.requests == [] and "does not connect there" in str(caught.value)
    assert caught.value.exchange is not None and caught.value.exchange.attempts == 1


@pytest.mark.usefixtures("public_stand_in")
@pytest.mark.parametrize("stream", [False, True], ids=["whole", "streamed"])
async def test_an_allowed_name_works_and_is_connected_at_its_checked_address(public_gateway: RunningGateway, stream: bool) -> None:
    port = public_gateway.url.rsplit(":", 1)[1]
    client = hosted(EgressGuard(resolver=resolver({"gw.public.test": PUBLIC_STAND_IN})))
    conn = Connection(f"http://gw.public.test:{port}", DEMO_KEY)
    if stream:
        async with client.chat.stream(conn, ask("What is 21 + 21?", stream=True)) as reply:
            async for _ in reply:
                pass
        result = reply.result
    else:
        result, _ = await client.chat.create(conn, ask("What is 21 + 21?"))
    await client.aclose()
    assert result.complete and "42" in result.text


@pytest.mark.usefixtures("public_stand_in")
async def test_a_redirect_to_a_private_address_is_refused(public_gateway: RunningGateway) -> None:
    with Recorder().running() as inside:
        redirector = Recorder(PUBLIC_STAND_IN)

        def redirect(handler: object) -> None:
            handler.send_response(302)  # type: ignore[attr-defined]
            handler.send_header("location", f"{inside.url}/secret.mp4")  # type: ignore[attr-defined]
            handler.send_header("content-length", "0")  # type: ignore[attr-defined]
            handler.end_headers()  # type: ignore[attr-defined]

        redirector.server.RequestHandlerClass.do_GET = redirect  # type: ignore[attr-defined]
        with redirector.running():
            transport = Transport(connect_timeout=2, read_timeout=5, guard=EgressGuard())
            with pytest.raises(BlockedAddressError):
                async with transport.fetch(f"{redirector.url}/video.mp4"):
                    pass
            await transport.aclose()
    assert inside.requests == []


async def test_a_name_that_resolves_to_a_private_address_is_refused() -> None:
    client = hosted(EgressGuard(resolver=resolver({"innocent.example": "10.0.0.5"})))
    with pytest.raises(BlockedAddressError) as caught:
        await client.chat.create(Connection("https://innocent.example", "k"), ask())
    await client.aclose()
    assert "innocent.example (10.0.0.5) is a private address" in str(caught.value)


async def test_allowed_hosts_narrow_the_guard() -> None:
    guard = EgressGuard(allowed_hosts=("gw.example.com", "*.corp.example"), resolver=resolver({"api.corp.example": "93.184.216.34"}))
    assert await guard.address_for("api.corp.example", 443) == "93.184.216.34"
    with pytest.raises(BlockedAddressError, match="GATEWAY_ALLOWED_HOSTS"):
        await guard.address_for("other.example", 443)


async def test_the_servers_own_gateway_is_trusted(gateway: RunningGateway) -> None:
    guard = EgressGuard()
    guard.trust(gateway.url)
    client = hosted(guard)
    result, _ = await client.chat.create(Connection(gateway.url, DEMO_KEY), ask("What is 21 + 21?"))
    await client.aclose()
    assert "42" in result.text


async def test_session_limits_name_their_setting() -> None:
    quota = SessionQuota(requests_per_minute=2, concurrent_calls=1)
    for _ in range(1):
        async with quota.call("POST"):
            with pytest.raises(LimitError, match="PLAYGROUND_CONCURRENT_CALLS"):
                async with quota.call("POST"):
                    pass
    async with quota.call("POST"):
        pass
    with pytest.raises(LimitError, match="PLAYGROUND_REQUESTS_PER_MINUTE"):
        async with quota.call("POST"):
            pass
    async with quota.call("GET"):  # polls are not generations
        pass


async def test_the_process_wide_cap_waits_then_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    from playground.client import limits
    monkeypatch.setattr(limits, "UPSTREAM_WAIT_S", 0.1)
    cap = UpstreamCap(1)
    async with cap.slot():
        with pytest.raises(LimitError, match="PLAYGROUND_UPSTREAM_CONCURRENCY"):
            async with cap.slot():
                pass
    async with cap.slot():
        pass


async def test_request_body_cap(gateway: RunningGateway) -> None:
    client = GatewayClient(Transport(max_body_bytes=1000))
    with pytest.raises(RequestValidationError, match="PLAYGROUND_MAX_REQUEST_MB"):
        await client.chat.create(Connection(gateway.url, DEMO_KEY), ask("x" * 2000))
    await client.aclose()


async def test_demo_callbacks_go_through_the_guard(tmp_path: object) -> None:
    from playground.client.transport import GuardedHTTPTransport
    from playground.client.video_requests import VideoInput, build_video_request
    from tests.fakes import FakeClock

    clock = FakeClock()
    demo = start_in_thread(DemoConfig(api_key=DEMO_KEY, clock=clock, callback_transport=lambda: GuardedHTTPTransport(EgressGuard())))
    try:
        with Recorder().running() as inside:
            client = GatewayClient(Transport())
            request = build_video_request(VideoInput(model="vidD-1-5-pro-251215", prompt="a hook", callback_url=f"{inside.url}/hook"))
            await client.video.submit(Connection(demo.url, DEMO_KEY), request)
            clock.advance(60)
            await asyncio.sleep(0.8)
            await client.aclose()
        assert inside.requests == []
    finally:
        demo.stop()
