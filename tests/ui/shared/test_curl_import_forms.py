"""A pasted request fills the tab's form so that sending it rebuilds the same body (none dropped)."""

from __future__ import annotations

import pytest

from playground.demo_gateway.server import RunningGateway
from playground.settings import Settings
from playground.ui.app import build_app
from tests.conftest import DEMO_KEY
from playground.ui.shared.render import flatten_text
from tests.ui.page_model import PageModel

from dataclasses import fields

from playground.client.curl_import import parse_curl
from playground.ui.tabs.chat.handlers import ChatForm, chat_form_values
from playground.ui.shared.curl_panel import ImportRegistry, imported_values
from playground.ui.conversation.imported import conversation_from
from playground.ui.shared.connection import ServerDefaults
from playground.ui.tabs.messages.handlers import MessagesForm, messages_form_values

CHAT_BODY = {
    "model": "gx-2.5-pro",
    "messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Weather in Oslo?"}],
    "stream": True,
    "temperature": 0.3,
    "top_p": 0.9,
    "max_tokens": 300,
    "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}],
    "tool_choice": {"type": "function", "function": {"name": "get_weather"}},
    "response_format": {"type": "json_schema", "json_schema": {"name": "answer", "schema": {"type": "object"}}},
    "reasoning_effort": "low",
    "stream_options": {"include_usage": True},
    "thinking": {"type": "enabled"},
    "extra_body": {"svc": {"thinking_config": {"thinking_budget": 512}}},
}
MESSAGES_BODY = {
    "model": "cl-opus-4-5-20251101",
    "system": [{"type": "text", "text": "You are a librarian.", "cache_control": {"type": "ephemeral"}}],
    "messages": [{"role": "user", "content": "Recommend a book."}],
    "max_tokens": 2000,
    "stream": True,
    "temperature": 1.0,
    "top_p": 1.0,
    "top_k": 40,
    "stop_sequences": ["THE END"],
    "thinking": {"type": "enabled", "budget_tokens": 1500},
    "tools": [{"name": "lookup", "input_schema": {"type": "object"}},
              {"type": "web_search_20250305", "name": "web_search", "max_uses": 3, "user_location": {"type": "approximate", "city": "Oslo"}}],
    "tool_choice": {"type": "auto", "disable_parallel_tool_use": True},
    "metadata": {"user_id": "u-1"},
}


def test_chat_body_round_trips_through_the_form() -> None:
    values = chat_form_values(CHAT_BODY)
    assert list(values) == [f.name for f in fields(ChatForm)]
    draft, history, session = conversation_from(CHAT_BODY["messages"])
    assert draft == {"text": "Weather in Oslo?", "files": []} and history == [] and session.messages == []
    request = ChatForm(**values).request([{"role": "user", "content": draft["text"]}])
    assert request.to_body() == CHAT_BODY


def test_messages_body_round_trips_through_the_form() -> None:
    values = messages_form_values(MESSAGES_BODY)
    assert list(values) == [f.name for f in fields(MessagesForm)]
    request = MessagesForm(**values).request([{"role": "user", "content": "Recommend a book."}])
    assert request.to_body() == MESSAGES_BODY


def test_earlier_turns_become_the_conversation() -> None:
    turns = [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello!"}, {"role": "user", "content": "And now?"}]
    draft, history, session = conversation_from(turns)
    assert draft["text"] == "And now?"
    assert [m["content"] for m in history] == ["Hi", "Hello!"] and session.messages == turns[:2]


def test_import_status_never_shows_the_key_and_unknown_paths_are_explained() -> None:
    registry = ImportRegistry()
    defaults = ServerDefaults("http://127.0.0.1:9", "server-key", demo=True)
    command = "curl https://gw.example/v1/embeddings -H 'Authorization: Bearer sk-secret-123456' -d '{\"model\": \"m\", \"input\": \"x\"}'"
    tab, status, _request, _values = imported_values(registry, defaults, command)
    assert tab is None and "/v1/embeddings" in status and "sk-secret" not in status
    assert parse_curl(command).api_key == "sk-secret-123456"


def test_responses_body_round_trips_through_the_form() -> None:
    from playground.ui.tabs.responses.handlers import ResponsesForm, responses_form_values

    body = {"model": "o4-mini", "input": [{"role": "user", "content": "Plan a trip."}], "instructions": "Be brief.", "stream": True,
            "temperature": 0.4, "top_p": 0.9, "max_output_tokens": 500, "reasoning": {"effort": "low", "summary": "auto"},
            "tools": [{"type": "function", "function": {"name": "book", "parameters": {"type": "object"}}},
                      {"type": "web_search_preview", "search_context_size": "high"}],
            "tool_choice": {"type": "function", "function": {"name": "book"}}, "truncation": "auto", "metadata": {"k": "v"}, "user": "u1"}
    values = responses_form_values(body)
    assert list(values) == [f.name for f in fields(ResponsesForm)]
    rebuilt = ResponsesForm(**values).request([{"role": "user", "content": "Plan a trip."}]).to_body()
    assert rebuilt == body


def test_native_body_round_trips_through_the_form() -> None:
    from playground.ui.tabs.native.handlers import NativeForm, native_form_values

    body = {"contents": [{"role": "user", "parts": [{"text": "Hi"}]}], "systemInstruction": {"parts": [{"text": "Be brief."}]},
            "generationConfig": {"temperature": 0.4, "topP": 0.9, "topK": 20, "maxOutputTokens": 300,
                                 "thinkingConfig": {"thinkingBudget": 512, "includeThoughts": True}, "responseModalities": ["TEXT", "IMAGE"],
                                 "stopSequences": ["END"]},
            "tools": [{"functionDeclarations": [{"name": "f", "parameters": {"type": "object"}}]}, {"svcSearch": {}}],
            "toolConfig": {"functionCallingConfig": {"mode": "ANY"}}, "safetySettings": [{"category": "HARM_CATEGORY_HATE_SPEECH", "threshold": "BLOCK_NONE"}],
            "cachedContent": "cachedContents/abc"}
    values = native_form_values(body, "gx-2.5-pro", "query")
    assert list(values) == [f.name for f in fields(NativeForm)] and values["auth"] == "key= in the URL"
    rebuilt = NativeForm(**values).request(body["contents"]).to_body()
    assert rebuilt == body


@pytest.mark.parametrize(("tab", "path", "body"), [
    ("chat", "v1/chat/completions", '{"model": "gx-2.5-flash", "messages": [{"role": "user", "content": "earlier"}, {"role": "assistant", "content": "yes"}, {"role": "user", "content": "next"}]}'),
    ("messages", "v1/messages", '{"model": "cl-haiku-4-5-20251001", "max_tokens": 50, "messages": [{"role": "user", "content": "earlier"}, {"role": "assistant", "content": "yes"}, {"role": "user", "content": "next"}]}'),
])
async def test_an_imported_conversation_leaves_no_figures_of_the_chat_it_replaced(tab: str, path: str, body: str, gateway: RunningGateway) -> None:
    """The metrics line under the chat belongs to the last reply: a curl import that replaces the
    chat empties it (issue 40: a stale stats line stayed)."""
    page = PageModel(build_app(Settings(read_timeout=10), ServerDefaults(gateway.url, DEMO_KEY, demo=True)))
    draft = page.component(f"{tab}-input")
    page.set(draft, {"text": "hello", "files": []})
    await page.run(page.dependency(draft, "submit"))
    assert "tokens" in page.get(page.component(f"{tab}-metrics"))
    page.set(page.component("curl-command"), f"curl {gateway.url}/{path} -d '{body}'")
    await page.click("curl-import-button")
    assert [flatten_text(turn["content"]) for turn in page.get(page.component(f"{tab}-chatbot"))] == ["earlier", "yes"]
    assert page.get(page.component(f"{tab}-metrics")) == ""
