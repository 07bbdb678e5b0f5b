"""The demo gateway's parallel tool calls (one per city of "for each of", one when the request turns
parallel calls off) and native stop sequences, over real sockets."""

from __future__ import annotations

import json

import httpx

from playground.demo_gateway.server import RunningGateway
from tests.conftest import DEMO_KEY

ASK = "What is the weather for each of Paris and Rome? Use the get_weather tool."
PARAMETERS = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}


def _http(gateway: RunningGateway) -> httpx.Client:
    return httpx.Client(base_url=gateway.url, headers={"Authorization": f"Bearer {DEMO_KEY}"})


def test_responses_calls_once_per_city_unless_parallel_calls_are_off(gateway: RunningGateway) -> None:
    body = {"model": "gpt-4o-mini", "input": ASK, "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": PARAMETERS}}]}
    with _http(gateway) as http:
        calls = [item for item in http.post("/v1/responses", json=body).json()["output"] if item["type"] == "function_call"]
        alone = [item for item in http.post("/v1/responses", json={**body, "parallel_tool_calls": False}).json()["output"] if item["type"] == "function_call"]
    assert [json.loads(call["arguments"])["city"] for call in calls] == ["Paris", "Rome"]
    assert len({call["call_id"] for call in calls}) == 2 and len({call["id"] for call in calls}) == 2
    assert [json.loads(call["arguments"])["city"] for call in alone] == ["Paris"]


def test_messages_calls_once_per_city_unless_parallel_use_is_disabled(gateway: RunningGateway) -> None:
    body = {"model": "cl-sonnet-4-5-20250929", "max_tokens": 200, "messages": [{"role": "user", "content": ASK}],
            "tools": [{"name": "get_weather", "input_schema": PARAMETERS}]}
    with _http(gateway) as http:
        blocks = http.post("/v1/messages", json=body).json()["content"]
        alone = http.post("/v1/messages", json={**body, "tool_choice": {"type": "auto", "disable_parallel_tool_use": True}}).json()["content"]
    assert [block["input"]["city"] for block in blocks if block["type"] == "tool_use"] == ["Paris", "Rome"]
    assert len({block["id"] for block in blocks}) == 2
    assert [block["input"]["city"] for block in alone if block["type"] == "tool_use"] == ["Paris"]


def test_native_text_ends_before_a_stop_sequence(gateway: RunningGateway) -> None:
    path = "/v1beta/models/gx-2.5-flash:generateContent"
    body = {"contents": [{"role": "user", "parts": [{"text": "How do I bake bread?"}]}]}
    with _http(gateway) as http:
        whole = http.post(path, json=body).json()["candidates"][0]["content"]["parts"][0]["text"]
        stop = whole.split()[len(whole.split()) // 2]
        cut = http.post(path, json={**body, "generationConfig": {"stopSequences": [stop]}}).json()["candidates"][0]["content"]["parts"][0]["text"]
        refused = http.post(path, json={**body, "generationConfig": {"stopSequences": [""]}})
    assert cut == whole[: whole.find(stop)] and stop not in cut
    assert refused.status_code == 400 and "stopSequences" in refused.text
