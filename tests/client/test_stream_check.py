"""The protocol validators: a good stream from the demo gateway passes, each broken rule is caught."""

from __future__ import annotations

from typing import Any

import pytest

from playground.client.chat import ChatRequest
from playground.client.errors import GatewayError
from playground.client.gateway import GatewayClient
from playground.client.messages import MessagesRequest
from playground.client.stream_check import check_stream, format_for_path
from playground.client.exchange import RecordedEvent
from playground.client.transport import Connection

CHAT_BREAKS = {
    "break_no_done": "did not end with data: [DONE]",
    "break_double_finish": "a second finish_reason",
    "break_double_usage": "usage sent more than once",
    "break_after_done": "after [DONE]",
}
MESSAGES_BREAKS = {
    "break_no_start": "not message_start",
    "break_delta_first": "outside its start and stop",
    "break_unstopped": "never stopped",
    "break_no_delta": "message_stop before any message_delta",
    "break_after_stop": "after message_stop",
}


async def drain(stream: Any) -> None:
    """Read a stream to its end; a broken stream may be reported as an error, the record stays."""
    try:
        async with stream:
            async for _ in stream:
                pass
    except GatewayError:
        pass
    assert stream.exchange is not None


async def _chat_events(client: GatewayClient, conn: Connection, text: str) -> tuple[str, list[RecordedEvent]]:
    request = ChatRequest.build(model="gx-2.5-flash", messages=[{"role": "user", "content": text}], stream=True)
    stream = client.chat.stream(conn, request)
    await drain(stream)
    return stream.exchange.url, stream.exchange.events


async def _messages_events(client: GatewayClient, conn: Connection, text: str) -> tuple[str, list[RecordedEvent]]:
    request = MessagesRequest.build(model="cl-sonnet-4-5-20250929", messages=[{"role": "user", "content": text}], max_tokens=200, stream=True)
    stream = client.messages.stream(conn, request)
    await drain(stream)
    return stream.exchange.url, stream.exchange.events


async def test_good_streams_pass(client: GatewayClient, conn: Connection) -> None:
    for read in (_chat_events, _messages_events):
        url, events = await read(client, conn, "hello there")
        assert events and check_stream(url, events) == []


@pytest.mark.parametrize(("fault", "rule"), sorted(CHAT_BREAKS.items()))
async def test_chat_rule_broken_by_the_demo_is_caught(client: GatewayClient, conn: Connection, fault: str, rule: str) -> None:
    url, events = await _chat_events(client, conn, f"hello [[fault:{fault}]]")
    problems = check_stream(url, events)
    assert problems and any(rule in str(problem) for problem in problems), problems
    assert all(str(problem).startswith("event #") for problem in problems)


@pytest.mark.parametrize(("fault", "rule"), sorted(MESSAGES_BREAKS.items()))
async def test_messages_rule_broken_by_the_demo_is_caught(client: GatewayClient, conn: Connection, fault: str, rule: str) -> None:
    url, events = await _messages_events(client, conn, f"hello [[fault:{fault}]]")
    problems = check_stream(url, events)
    assert problems and any(rule in str(problem) for problem in problems), problems


def _events(*frames: tuple[str | None, str]) -> list[RecordedEvent]:
    return [RecordedEvent(i * 0.01, name, data) for i, (name, data) in enumerate(frames)]


def test_responses_rules() -> None:
    def delta(seq: int, text: str, item: str = "m1") -> tuple[str, str]:
        return ("response.output_text.delta", f'{{"type":"response.output_text.delta","sequence_number":{seq},"item_id":"{item}","content_index":0,"delta":"{text}"}}')

    good = [
        ("response.created", '{"type":"response.created","sequence_number":0,"response":{}}'),
        ("response.output_item.added", '{"type":"response.output_item.added","sequence_number":1,"item":{"id":"m1","type":"message"}}'),
        delta(2, "Hel"), delta(3, "lo"),
        ("response.output_text.done", '{"type":"response.output_text.done","sequence_number":4,"item_id":"m1","content_index":0,"text":"Hello"}'),
        ("response.output_item.done", '{"type":"response.output_item.done","sequence_number":5,"item":{"id":"m1"}}'),
        ("response.completed", '{"type":"response.completed","sequence_number":6,"response":{}}'),
    ]
    url = "http://gw/v1/responses"
    assert check_stream(url, _events(*good)) == []
    repeated = good[:3] + [delta(2, "lo")] + good[4:]
    assert "does not increase" in str(check_stream(url, _events(*repeated)))
    wrong_text = good[:4] + [(good[4][0], good[4][1].replace("Hello", "Hullo"))] + good[5:]
    assert "differs from its joined deltas" in str(check_stream(url, _events(*wrong_text)))
    stray = good[:6] + [delta(7, "x")]
    assert "outside its added and done" in str(check_stream(url, _events(*stray))) or "after the response ended" in str(check_stream(url, _events(*stray)))
    assert "did not end with response.completed" in str(check_stream(url, _events(*good[:-1])))
    assert "after the response ended" in str(check_stream(url, _events(*good, good[0])))


def test_native_rules() -> None:
    url = "http://gw/v1beta/models/gx-2.5-flash:streamGenerateContent?alt=sse"
    part = '{"candidates":[{"content":{"parts":[{"text":"a"}]}}]}'
    last = '{"candidates":[{"content":{"parts":[{"text":"b"}]},"finishReason":"STOP"}]}'
    assert check_stream(url, _events((None, part), (None, last))) == []
    assert "no finish reason" in str(check_stream(url, _events((None, part), (None, part))))
    assert "before the last fragment" in str(check_stream(url, _events((None, last), (None, last))))


def test_paths_map_to_formats() -> None:
    assert format_for_path("http://x/v1/chat/completions") == "chat"
    assert format_for_path("http://x/v1/messages") == "messages"
    assert format_for_path("http://x/v1/messages/count_tokens") is None
    assert format_for_path("http://x/v1/responses") == "responses"
    assert format_for_path("http://x/v1beta/models/m:streamGenerateContent?alt=sse&key=***") == "native"
    assert check_stream("http://x/v1/embeddings", _events((None, "{}"))) is None


async def test_timeline_marks_every_event_and_says_what_broke(client: GatewayClient, conn: Connection) -> None:
    from playground.ui.shared.timeline import long_gaps, timeline_html

    request = ChatRequest.build(model="gx-2.5-flash", messages=[{"role": "user", "content": "hi <b>there</b> [[fault:break_double_usage]]"}], stream=True)
    async with client.chat.stream(conn, request) as stream:
        async for _ in stream:
            pass
    html = timeline_html(stream.exchange)
    assert html.count('class="mark"') == len(stream.exchange.events)
    assert "first byte" in html and "first token" in html and "chat.completion.chunk" in html
    assert "usage sent more than once" in html and "<b>there</b>" not in html
    events = [RecordedEvent(0.0, None, "{}"), RecordedEvent(0.1, None, "{}"), RecordedEvent(2.5, None, "{}")]
    assert long_gaps(events) == [(0.1, 2.5)]


RESPONSES_BREAKS = {
    "break_sequence": "does not increase",
    "break_stray_delta": "outside its added and done",
    "break_done_text": "differs from its joined deltas",
    "break_after_completed": "after the response ended",
}


@pytest.mark.parametrize(("fault", "rule"), sorted(RESPONSES_BREAKS.items()))
async def test_responses_rule_broken_by_the_demo_is_caught(client: GatewayClient, conn: Connection, fault: str, rule: str) -> None:
    from playground.client.responses import ResponsesRequest

    request = ResponsesRequest.build(model="gpt-4.1", input=f"hello [[fault:{fault}]]", stream=True)
    stream = client.responses.stream(conn, request)
    await drain(stream)
    good = await _good_responses(client, conn)
    assert check_stream(good.url, good.events) == []
    problems = check_stream(stream.exchange.url, stream.exchange.events)
    assert problems and any(rule in str(problem) for problem in problems), problems


async def _good_responses(client: GatewayClient, conn: Connection):  # type: ignore[no-untyped-def]
    from playground.client.responses import ResponsesRequest

    stream = client.responses.stream(conn, ResponsesRequest.build(model="o4-mini", input="hello", stream=True, tools=[{"type": "web_search_preview"}]))
    async with stream:
        async for _ in stream:
            pass
    return stream.exchange


@pytest.mark.parametrize(("fault", "rule"), [("break_no_finish", "no finish reason"), ("break_early_finish", "before the last fragment")])
async def test_native_rule_broken_by_the_demo_is_caught(client: GatewayClient, conn: Connection, fault: str, rule: str) -> None:
    from playground.client.native import NativeRequest

    request = NativeRequest.build(model="gx-2.5-flash", stream=True, contents=[{"role": "user", "parts": [{"text": f"hello [[fault:{fault}]]"}]}])
    stream = client.native.stream(conn, request)
    await drain(stream)
    problems = check_stream(stream.exchange.url, stream.exchange.events)
    assert problems and any(rule in str(problem) for problem in problems), problems
