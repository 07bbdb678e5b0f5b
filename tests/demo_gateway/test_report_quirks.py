"""The demo gateway's planted defects for the Report's error and accounting checks, on the wire:
each changes exactly what its row in `report_quirks` says, only for the model it names."""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx
import pytest

from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.quirks import parse_quirks
from playground.demo_gateway.server import RunningGateway, start_in_thread

KEY = "sk-report-quirks-key-1234"
HEADERS = {"Authorization": f"Bearer {KEY}"}
THINKING = {"contents": [{"role": "user", "parts": [{"text": "Why is the sky blue?"}]}],
            "generationConfig": {"thinkingConfig": {"thinkingBudget": 1024}}}
TOOL = {"name": "get_weather", "description": "Weather", "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}}}


@pytest.fixture(scope="module")
def quirky() -> Iterator[RunningGateway]:
    running = start_in_thread(DemoConfig(api_key=KEY, retry_after_ms=10, quirks=(
        "flat-errors@gpt-4o-mini", "no-retry-after@gpt-4o-mini", "count-skips-tools", "thoughts-outside-total", "cache-in-input")))
    yield running
    running.stop()


def _post(gateway: RunningGateway, path: str, body: dict[str, object]) -> httpx.Response:
    return httpx.post(gateway.url + path, json=body, headers=HEADERS, timeout=10)


def _chat(model: str, text: str = "Hello", **extra: object) -> dict[str, object]:
    return {"model": model, "messages": [{"role": "user", "content": text}], **extra}


def test_flat_errors_drop_the_error_object_for_the_named_model_only(quirky: RunningGateway) -> None:
    flat = _post(quirky, "/v1/chat/completions", _chat("gpt-4o-mini", temperature=5))
    assert flat.status_code == 400 and flat.json() == {"code": 400, "message": "temperature must be a number from 0 to 2."}
    kept = _post(quirky, "/v1/chat/completions", _chat("gpt-4.1", temperature=5))
    assert kept.json()["error"]["type"] == "invalid_request_error"


def test_no_retry_after_leaves_the_wait_out_of_a_429(quirky: RunningGateway) -> None:
    limited = _post(quirky, "/v1/chat/completions", _chat("gx-2.5-flash", "Hi [[fault:rate_limit]]"))
    assert limited.status_code == 429 and limited.headers["retry-after-ms"] == "10"
    bare = _post(quirky, "/v1/chat/completions", _chat("gpt-4o-mini", "Hi [[fault:rate_limit]]"))
    assert bare.status_code == 429 and "retry-after" not in bare.headers and "retry-after-ms" not in bare.headers


def test_count_skips_tools_counts_a_request_as_if_it_had_none(quirky: RunningGateway) -> None:
    body = {"model": "cl-sonnet-4-5-20250929", "messages": [{"role": "user", "content": "Weather in Paris?"}]}
    plain = _post(quirky, "/v1/messages/count_tokens", body).json()["input_tokens"]
    assert _post(quirky, "/v1/messages/count_tokens", {**body, "tools": [TOOL]}).json()["input_tokens"] == plain
    used = _post(quirky, "/v1/messages", {**body, "tools": [TOOL], "max_tokens": 64}).json()["usage"]["input_tokens"]
    assert used > plain, "the answer's usage still counts the tool"


def test_thoughts_outside_total_whole_and_streamed(quirky: RunningGateway) -> None:
    whole = _post(quirky, "/v1beta/models/gx-2.5-flash:generateContent", THINKING).json()["usageMetadata"]
    assert whole["thoughtsTokenCount"] and whole["totalTokenCount"] == whole["promptTokenCount"] + whole["candidatesTokenCount"]
    streamed = httpx.post(quirky.url + "/v1beta/models/gx-2.5-flash:streamGenerateContent?alt=sse", json=THINKING, headers=HEADERS, timeout=10)
    frames = [json.loads(line[5:]) for line in streamed.text.splitlines() if line.startswith("data:")]
    last = frames[-1]["usageMetadata"]
    assert last == whole and streamed.text.count("\r\n\r\n") == len(frames), "frames keep their CRLF ends"


def test_cache_in_input_counts_cached_tokens_twice(quirky: RunningGateway) -> None:
    long_text = " ".join(f"Line {i} of the cached ledger." for i in range(400))
    body = {"model": "cl-sonnet-4-5-20250929", "max_tokens": 64,
            "messages": [{"role": "user", "content": [{"type": "text", "text": long_text, "cache_control": {"type": "ephemeral"}},
                                                      {"type": "text", "text": "Which line is 7?"}]}]}
    counted = _post(quirky, "/v1/messages/count_tokens", {k: v for k, v in body.items() if k != "max_tokens"}).json()["input_tokens"]
    usage = _post(quirky, "/v1/messages", body).json()["usage"]
    assert usage["cache_creation_input_tokens"] > 0
    assert usage["input_tokens"] == counted, "input_tokens holds the cache write too"


def test_the_report_quirks_are_known_names() -> None:
    assert [q.name for q in parse_quirks("flat-errors,cache-in-input@cl-sonnet-4-5-20250929")] == ["flat-errors", "cache-in-input"]
    with pytest.raises(ValueError, match="thoughts-outside-total"):
        parse_quirks("no-such-quirk")


def test_cache_in_input_counts_responses_cached_tokens_twice(quirky: RunningGateway) -> None:
    body = {"model": "gpt-4o-mini", "input": " ".join(f"Entry {i} of the responses ledger." for i in range(300))}
    first = _post(quirky, "/v1/responses", body).json()["usage"]
    second = _post(quirky, "/v1/responses", body).json()["usage"]
    cached = second["input_tokens_details"]["cached_tokens"]
    assert first["input_tokens_details"]["cached_tokens"] == 0 and cached == first["input_tokens"]
    assert second["input_tokens"] == first["input_tokens"] + cached, "the cached tokens are counted a second time"
    assert second["total_tokens"] == second["input_tokens"] + second["output_tokens"]
