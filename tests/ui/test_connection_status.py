"""The connection check: a gateway without a model list is normal, and the counts agree."""

from __future__ import annotations

import pytest

from playground.client import catalog
from playground.client.errors import AuthenticationError
from playground.client.gateway import GatewayClient
from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.server import RunningGateway, start_in_thread
from playground.ui.connection import ServerDefaults, test_connection as check_connection
from tests.conftest import DEMO_KEY


async def test_gateway_with_a_model_list_counts_what_the_picker_shows(client: GatewayClient, gateway: RunningGateway) -> None:
    message, ids = await check_connection(client, ServerDefaults(gateway.url, DEMO_KEY, demo=True), "", "")
    assert message.startswith("✅") and f"the picker shows {len(ids)}" in message
    assert set(catalog.chat_model_ids()) <= set(ids)


async def test_gateway_without_a_model_list_is_normal(client: GatewayClient) -> None:
    bare = start_in_thread(DemoConfig(api_key=DEMO_KEY, list_models=False))
    try:
        message, ids = await check_connection(client, ServerDefaults(bare.url, DEMO_KEY, demo=True), "", "")
    finally:
        bare.stop()
    assert message.startswith("✅") and "lists no models" in message and "HTTP 404" not in message
    assert ids == catalog.chat_model_ids() and f"{len(ids)} models" in message


async def test_a_wrong_key_is_still_an_error(client: GatewayClient, gateway: RunningGateway) -> None:
    with pytest.raises(AuthenticationError):
        await check_connection(client, ServerDefaults(gateway.url, DEMO_KEY, demo=True), "", "sk-wrong-key-000")
