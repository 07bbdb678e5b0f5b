"""The connection check: a gateway without a model list is normal, and the counts agree."""

from __future__ import annotations

from typing import Any

import pytest

from playground.client import catalog
from playground.client.errors import AuthenticationError
from playground.client.gateway import GatewayClient
from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.server import RunningGateway, start_in_thread
from playground.settings import Settings
from playground.ui.app import build_app
from playground.ui.shared.connection import ServerDefaults, test_connection as check_connection
from tests.conftest import DEMO_KEY
from tests.ui.page_model import PageModel


async def test_gateway_with_a_model_list_counts_what_the_picker_shows(client: GatewayClient, gateway: RunningGateway) -> None:
    message, ids = await check_connection(client, ServerDefaults(gateway.url, DEMO_KEY, demo=True), "", "")
    assert message.startswith("✓") and f"the picker shows {len(ids)}" in message
    assert set(catalog.chat_model_ids()) <= set(ids)


async def test_gateway_without_a_model_list_is_normal(client: GatewayClient) -> None:
    bare = start_in_thread(DemoConfig(api_key=DEMO_KEY, list_models=False))
    try:
        message, ids = await check_connection(client, ServerDefaults(bare.url, DEMO_KEY, demo=True), "", "")
    finally:
        bare.stop()
    assert message.startswith("✓") and "lists no models" in message and "HTTP 404" not in message
    assert ids == catalog.chat_model_ids() and f"{len(ids)} models" in message


async def test_a_wrong_key_is_still_an_error(client: GatewayClient, gateway: RunningGateway) -> None:
    with pytest.raises(AuthenticationError):
        await check_connection(client, ServerDefaults(gateway.url, DEMO_KEY, demo=True), "", "sk-wrong-key-000")


@pytest.mark.parametrize("suffix", ["/v1", "/v1/", "/v1beta"])
async def test_a_base_url_ending_in_a_version_is_used_without_it_and_says_so(client: GatewayClient, suffix: str) -> None:
    """A base URL ending in /v1 used to pass the check and then 404 on /v1/v1/... for every call."""
    from playground.ui.tabs.chat.handlers import ChatAdapter, ChatForm
    from playground.ui.shared.connection import badge_text
    from tests.ui.conversation.conversation_screen import send

    bare = start_in_thread(DemoConfig(api_key=DEMO_KEY, list_models=False, token_delay=0.0))
    try:
        defaults = ServerDefaults(bare.url, DEMO_KEY, demo=True)
        typed = bare.url + suffix
        message, _ = await check_connection(client, defaults, typed, "")
        views = await send(defaults, ChatAdapter(client, ChatForm(model="gx-2.5-flash")), "hi there", url=typed)
    finally:
        bare.stop()
    dropped = suffix.rstrip("/")
    assert f"Drop the trailing {dropped}" in message and f"`{bare.url}`" in message
    assert f"Drop the trailing {dropped}" in badge_text(defaults, typed)
    assert not views[-1].error and views[-1].exchange is not None
    assert views[-1].exchange.url == f"{bare.url}/v1/chat/completions" and views[-1].exchange.status == 200


def test_a_base_url_with_a_version_inside_its_path_is_left_alone() -> None:
    from playground.ui.shared.connection import badge_text, resolve_connection

    defaults = ServerDefaults("http://127.0.0.1:9", DEMO_KEY)
    assert resolve_connection(defaults, "https://gw.example/v1/proxy", "k").base_url == "https://gw.example/v1/proxy"
    assert resolve_connection(defaults, "https://v1.example", "k").base_url == "https://v1.example"
    assert "Drop the trailing" not in badge_text(defaults, "https://gw.example/api")


def _restore_step(page: PageModel) -> Any:
    return next(fn for fn in page.app.fns.values() if fn.name == "restore_connection" and fn.outputs and fn.outputs[0].elem_id == "connection-url")


async def test_a_base_url_typed_while_the_page_loads_is_kept_and_its_test_wins(tmp_path: Any) -> None:
    """The page's load answer (the connection saved in this browser) and its first model list can
    arrive after a visitor typed a base URL and pressed Test: with nothing saved the boxes are
    left alone, and Test cancels the first model list so its status is the one shown."""
    page = PageModel(build_app(Settings(data_dir=tmp_path), ServerDefaults("http://127.0.0.1:9", DEMO_KEY, demo=True)))
    url_box = page.component("connection-url")
    page.set(url_box, "https://typed.example")
    restore = _restore_step(page)
    page._write(restore, restore.fn({"url": "", "key": "", "remember": False}))
    assert page.get(url_box) == "https://typed.example"
    page._write(restore, restore.fn({"url": "https://saved.example", "key": "sk-kept", "remember": True}))
    assert page.get(url_box) == "https://saved.example" and page.get(page.component("connection-key")) == "sk-kept"

    first_list = next(fn for fn in page.app.fns.values() if fn.trigger_after == restore._id and fn.name == "refresh_models")
    test_button = page.component("connection-test")
    cancels = [fn.cancels for fn in page.app.fns.values() if (test_button._id, "click") in fn.targets and fn.is_cancel_function]
    assert [first_list._id] in cancels
