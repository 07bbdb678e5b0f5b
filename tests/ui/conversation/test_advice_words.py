"""A request's advice (valid, but probably not what was meant) reaches the notice banner in the visitor's
language, as every other message of the client does."""

from __future__ import annotations

from playground.client.gateway import GatewayClient
from playground.ui.shared.connection import ServerDefaults
from playground.ui.tabs.messages.handlers import MessagesAdapter, MessagesForm
from tests.ui.conversation.conversation_screen import send
from tests.ui.i18n.test_i18n_views import chinese


async def test_the_thinking_advice_is_worded_in_the_visitors_language(client: GatewayClient, defaults: ServerDefaults) -> None:
    adapter = MessagesAdapter(client, MessagesForm(model="cl-sonnet-4-5-20250929", thinking=True, top_p=0.9))
    english = [screen.notice for screen in await send(defaults, adapter, "What has keys?") if screen.notice]
    with chinese():
        worded = [screen.notice for screen in await send(defaults, adapter, "什么东西有键却打不开锁？") if screen.notice]
    assert english and "the spec recommends top_p 0" in english[0]
    assert worded and "规范建议 top_p 为 0" in worded[0] and "spec recommends" not in worded[0]
