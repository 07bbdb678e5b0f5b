"""DEMO_QUIRKS: parsed strictly, read from the environment, and scoped to a model with @."""

from __future__ import annotations

import httpx
import pytest

from playground.demo_gateway.config import DemoConfig
from playground.demo_gateway.quirks import Quirk, parse_quirks
from playground.demo_gateway.server import start_in_thread
from playground.settings import Settings


def test_quirks_are_parsed_and_unknown_names_refused() -> None:
    assert parse_quirks("no-done, ignore-schema@gpt-4.1,") == (Quirk("no-done"), Quirk("ignore-schema", "gpt-4.1"))
    with pytest.raises(ValueError, match="unknown demo quirk 'no-end'"):
        parse_quirks("no-end")


def test_settings_read_demo_quirks() -> None:
    settings = Settings.from_env({"DEMO_QUIRKS": "no-done, drop-usage@qwen-plus"}, dotenv=None)
    assert settings.demo_quirks == ("no-done", "drop-usage@qwen-plus")


def test_a_quirk_scoped_to_a_model_leaves_the_others_alone() -> None:
    gateway = start_in_thread(DemoConfig(api_key="k", quirks=("no-done@qwen-plus",)))
    try:
        with httpx.Client(base_url=gateway.url, headers={"Authorization": "Bearer k"}) as http:
            def last_frame(model: str) -> str:
                body = {"model": model, "stream": True, "messages": [{"role": "user", "content": "Hi"}]}
                return http.post("/v1/chat/completions", json=body).text.strip().split("\n\n")[-1]
            assert last_frame("gpt-4.1") == "data: [DONE]"
            assert last_frame("qwen-plus").startswith("data: {")
            system = {"model": "gpt-4.1", "messages": [{"role": "system", "content": 'Start every answer with the word "OKAPI".'},
                                                       {"role": "user", "content": "Hi"}]}
            assert "OKAPI" in http.post("/v1/chat/completions", json=system).json()["choices"][0]["message"]["content"]
    finally:
        gateway.stop()


def test_the_schema_quirks_touch_only_the_chat_json_schema() -> None:
    """Images have a `response_format` of their own (`b64_json` only for this family): ignore-schema
    must not make a bad one valid, and schema-drift must not break on its string value."""
    gateway = start_in_thread(DemoConfig(api_key="k", quirks=("ignore-schema", "schema-drift")))
    try:
        with httpx.Client(base_url=gateway.url, headers={"Authorization": "Bearer k"}, timeout=10) as http:
            body = {"model": "gx-2.5-flash-image", "prompt": "A small red apple.", "n": 1, "response_format": "url"}
            refused = http.post("/v1/images/generations", json=body)
            assert refused.status_code == 400 and "response_format" in refused.json()["error"]["message"]
    finally:
        gateway.stop()
