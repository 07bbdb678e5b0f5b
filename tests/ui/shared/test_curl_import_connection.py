"""Importing a curl command says what happened to the connection: a switch of base URL is named,
the current one can be kept, a host that does not resolve (or that hosted mode refuses) is not
switched to, and a key only ever goes with the host it came with."""

from __future__ import annotations

import asyncio

import pytest

from playground.client import egress
from playground.client.egress import EgressGuard
from playground.client.gateway import GatewayClient
from playground.client.transport import Transport
from playground.demo_gateway.server import RunningGateway
from playground.ui.shared.connection import ServerDefaults
from playground.ui.shared.curl_panel import ImportRegistry, connection_after_import, imported_values
from playground.ui.tabs.chat.handlers import chat_form_values
from playground.ui.shared.curl_panel import FormImport
from tests.conftest import DEMO_KEY


def command(url: str, key: str | None = "sk-pasted-7777") -> str:
    header = f" -H 'Authorization: Bearer {key}'" if key else ""
    return f"""curl {url}/v1/chat/completions{header} -d '{{"model": "gx-2.5-flash", "messages": [{{"role": "user", "content": "Hi"}}]}}'"""


def registry() -> ImportRegistry:
    imports = ImportRegistry()
    imports.register(FormImport("chat", "Chat", ("chat",), ["model"], lambda request: [chat_form_values(request.body)["model"]]))
    return imports


async def imported(client: GatewayClient, defaults: ServerDefaults, text: str, current: str = "", keep: bool = False) -> tuple[object, object, str]:
    tab, status, request, _ = imported_values(registry(), defaults, text)
    assert tab == "chat" and request is not None
    url, key, note = await connection_after_import(client, defaults, request, current, keep)
    return url, key, status + note


def skipped(value: object) -> bool:
    return isinstance(value, dict) and value.get("__type__") == "update" and len(value) == 1


async def test_a_switch_to_the_commands_host_is_named(client: GatewayClient, gateway: RunningGateway) -> None:
    defaults = ServerDefaults(gateway.url, DEMO_KEY, demo=True)
    other = gateway.url.replace("127.0.0.1", "localhost")
    url, key, status = await imported(client, defaults, command(other))
    assert url == other and key == "sk-pasted-7777"
    assert f"Switched the base URL from `{gateway.url}` to `{other}`" in status and "sk-pasted" not in status


async def test_the_current_base_url_can_be_kept_and_the_commands_key_stays_out(client: GatewayClient, gateway: RunningGateway) -> None:
    defaults = ServerDefaults(gateway.url, DEMO_KEY, demo=True)
    url, key, status = await imported(client, defaults, command(gateway.url.replace("127.0.0.1", "localhost")), keep=True)
    assert skipped(url) and skipped(key)
    assert f"Kept your base URL `{gateway.url}`" in status and "The command's key was not used" in status


async def test_a_host_that_does_not_resolve_is_not_switched_to(client: GatewayClient, gateway: RunningGateway) -> None:
    defaults = ServerDefaults(gateway.url, DEMO_KEY, demo=True)
    url, key, status = await imported(client, defaults, command("https://gateway.does-not-exist.invalid"))
    assert skipped(url) and skipped(key)
    assert f"Kept the base URL `{gateway.url}`" in status and "does not resolve" in status


async def test_a_switch_without_a_key_clears_the_key_typed_for_the_old_host(client: GatewayClient, gateway: RunningGateway) -> None:
    defaults = ServerDefaults(gateway.url, DEMO_KEY, demo=True)
    url, key, status = await imported(client, defaults, command("http://localhost:9", key=None), current="http://127.0.0.1:9")
    assert url == "http://localhost:9" and key == "" and "key box was cleared" in status


async def test_the_same_host_keeps_the_url_and_takes_the_key(client: GatewayClient, gateway: RunningGateway) -> None:
    defaults = ServerDefaults(gateway.url, DEMO_KEY, demo=True)
    url, key, status = await imported(client, defaults, command(gateway.url + "/"))
    assert skipped(url) and key == "sk-pasted-7777" and f"The base URL stays `{gateway.url}`" in status


async def test_hosted_mode_does_not_switch_to_an_address_the_guard_refuses(gateway: RunningGateway) -> None:
    guard = EgressGuard()
    guard.trust(gateway.url)
    hosted = GatewayClient(Transport(guard=guard))
    try:
        url, key, status = await imported(hosted, ServerDefaults(gateway.url, DEMO_KEY, demo=True, hosted=True), command("http://localhost:8080"))
    finally:
        await hosted.aclose()
    assert skipped(url) and skipped(key) and "Kept the base URL" in status and "loopback" in status


async def test_a_slow_resolver_does_not_hold_the_event_loop() -> None:
    ticks = 0

    async def slow(host: str, port: int) -> list[str]:
        await asyncio.sleep(5)
        return ["93.184.216.34"]

    async def ticker() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0.01)

    running = asyncio.create_task(ticker())
    problem = await egress.host_problem("https://slow.example", None, resolver=slow, timeout=0.3)
    running.cancel()
    assert problem is not None and "did not resolve within 0.3 s" in problem and ticks > 5


@pytest.mark.parametrize("url", ["https://8.8.8.8", "http://127.0.0.1:9"])
async def test_an_address_needs_no_lookup_locally(url: str) -> None:
    assert await egress.host_problem(url, None) is None
