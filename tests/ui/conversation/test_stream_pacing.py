"""How often a streaming reply updates the page (issue 25): the first words go out at once, and
beyond twenty replies at once each updates less often, so a burst does not cost more updates a
second than twenty replies."""

from __future__ import annotations

import pytest

from playground.client.gateway import GatewayClient
from playground.ui.conversation import turns as conversation
from playground.ui.tabs.messages.handlers import MessagesAdapter, MessagesForm
from playground.ui.shared.connection import ServerDefaults
from playground.ui.shared.forms import Pacing, Throttle
from playground.ui.shared.render import flatten_text
from tests.ui.conversation.conversation_screen import send


def test_the_interval_stretches_beyond_the_full_rate_and_the_count_survives_an_error() -> None:
    pacing = Pacing(full_rate=20)
    with pytest.raises(RuntimeError), pacing.streaming():
        raise RuntimeError("the stream broke")
    assert pacing.active == 0
    pacing.active = 20
    assert pacing.interval(0.05) == 0.05
    pacing.active = 100
    assert pacing.interval(0.05) == pytest.approx(0.25)


def test_a_throttle_reads_its_interval_at_each_call() -> None:
    now, interval = [0.0], [1.0]
    throttle = Throttle(lambda: interval[0], clock=lambda: now[0])
    assert throttle.due()
    now[0], interval[0] = 0.5, 0.25
    assert throttle.due(), "a shorter interval applies at once"
    now[0], interval[0] = 1.0, 2.0
    assert not throttle.due()


async def test_the_first_words_are_shown_without_waiting_for_the_interval(client: GatewayClient, defaults: ServerDefaults,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A Messages stream opens with events that carry no words (message_start, content_block_start):
    the update they make is due at once, and the first words must not wait an interval after it."""
    monkeypatch.setattr(conversation, "STREAM_UPDATE_INTERVAL", 60.0)
    adapter = MessagesAdapter(client, MessagesForm(model="cl-sonnet-4-5-20250929"))
    views = await send(defaults, adapter, "Please repeat tokfirst")
    partial = [flatten_text(view.history[-1]["content"]) for view in views[1:-2] if len(view.history) == 2]
    assert any(text.strip() for text in partial), f"no update with words before the end: {partial}"
    assert conversation.PACING.active == 0, "a finished reply still counts as streaming"
