"""The demo gateway answers the playground's examples sensibly, on the wire.

Every example prompt of every tab has a written answer; the answers arrive through each
interface with the settings the example sets (thinking, tools, schema, search); tool calls carry
the city from the sentence; grounded answers follow the question's language; other prompts get
no echo prefix.
"""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest

import jsonschema

from playground.demo_gateway import answers, scripted
from playground.demo_gateway.server import RunningGateway
from playground.ui.tabs.chat import layout as chat_tab
from playground.ui.tabs.compare import layout as compare_tab
from playground.ui.tabs.messages import layout as messages_tab
from playground.ui.tabs.native import layout as native_tab
from playground.ui.tabs.responses import layout as responses_tab
from playground.ui.i18n import CATALOGUE
from playground.ui.shared.examples import in_language
from playground.ui.shared.schema_form import EXAMPLE_SCHEMA
from tests.conftest import DEMO_KEY

TAB_EXAMPLES = [*chat_tab.EXAMPLES, *messages_tab.EXAMPLES, *native_tab.EXAMPLES, *responses_tab.EXAMPLES, *compare_tab.EXAMPLES]
WEATHER = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}


def example_prompts(language: str = "en") -> list[str]:
    """Every conversation example's question as a visitor of `language` sends it (an example in words, `Said`, in that language)."""
    prompts = []
    for example in TAB_EXAMPLES:
        draft = example.values.get("draft")
        asked = draft["text"] if draft else example.values["user"]
        prompts.append(in_language(asked, language))
    return prompts


@pytest.fixture
def http(gateway: RunningGateway) -> httpx.Client:
    with httpx.Client(base_url=gateway.url, headers={"authorization": f"Bearer {DEMO_KEY}"}, timeout=10) as client:
        yield client


def post(http: httpx.Client, path: str, body: dict[str, Any]) -> dict[str, Any]:
    response = http.post(path, json=body)
    assert response.status_code == 200, response.text
    return response.json()


def chat(http: httpx.Client, prompt: str, model: str = "gx-2.5-flash", **extra: Any) -> dict[str, Any]:
    body = {"model": model, "messages": [{"role": "user", "content": prompt}], **extra}
    return post(http, "/v1/chat/completions", body)["choices"][0]["message"]


@pytest.mark.parametrize("prompt", sorted(set(example_prompts())))
def test_every_example_prompt_has_a_written_answer_that_arrives(http: httpx.Client, prompt: str) -> None:
    written = scripted.answer(prompt)
    assert written, f"no scripted answer for the example prompt {prompt!r}"
    shown = chat(http, prompt)["content"]
    assert shown.startswith(written[:60]) and prompt not in shown


@pytest.mark.parametrize("prompt", sorted(set(example_prompts("zh-CN")) - set(example_prompts())))
def test_every_example_asked_in_chinese_gets_a_chinese_answer_that_is_no_refusal(http: httpx.Client, prompt: str) -> None:
    """A Chinese visitor's examples (issue 40) are answered in Chinese: written for the example, or worked out or looked up
    by the demo, never its "I cannot answer that"."""
    shown = chat(http, prompt)["content"]
    written = scripted.answer(prompt)
    assert shown.startswith(written[:60]) if written else shown
    assert re.search(r"[\u4e00-\u9fff]", shown) and prompt not in shown and not shown.startswith(answers.FALLBACK_ZH[0][:20])


def test_chinese_examples_still_show_their_feature(http: httpx.Client) -> None:
    """Thinking, a tool call with the city, a JSON schema and a long answer to stop, asked in Chinese."""
    zh = CATALOGUE.texts["zh-CN"]
    body = {"model": "cl-sonnet-4-5-20250929", "max_tokens": 4096, "thinking": {"type": "enabled", "budget_tokens": 2048},
            "messages": [{"role": "user", "content": zh["chat.example.riddle_message"]}]}
    blocks = post(http, "/v1/messages", body)["content"]
    assert "钢琴" in blocks[0]["thinking"] and blocks[-1]["text"].startswith("钢琴。")
    tool = {"type": "function", "function": {"name": "get_weather", "description": "Current weather for a city", "parameters": WEATHER}}
    for key in ("chat.example.weather_message", "responses.example.weather_message"):
        call = chat(http, zh[key], tools=[tool], tool_choice="auto")["tool_calls"][0]
        assert json.loads(call["function"]["arguments"]) == {"city": "Paris"}
    body = {"model": "cl-sonnet-4-5-20250929", "max_tokens": 1024, "tools": json.loads(messages_tab.TOOLS_EXAMPLE),
            "messages": [{"role": "user", "content": zh["chat.example.weather_message"]}]}
    assert post(http, "/v1/messages", body)["content"][-1]["input"] == {"city": "Paris"}
    schema = json.loads(chat_tab.SCHEMA_EXAMPLE)
    cat = chat(http, zh["chat.example.json_message"], response_format={"type": "json_schema", "json_schema": {"name": "cat", "schema": schema}})
    assert json.loads(cat["content"]) == {"name": "猫", "legs": 4, "sound": "喵"}
    story = chat(http, zh["chat.example.stop_message"])["content"]
    assert story.startswith("海鸥角的守灯人") and len(story) > 800
    purr = native(http, zh["native.example.think_message"], generationConfig={"thinkingConfig": {"thinkingBudget": 1024, "includeThoughts": True}})
    assert purr[0].get("thought") and "喉部" in purr[0]["text"] and "呼噜" in purr[-1]["text"]


@pytest.mark.parametrize("language", ["en", "zh-CN"])
def test_the_schema_example_is_answered_with_an_animal_not_the_question(http: httpx.Client, language: str) -> None:
    asked = CATALOGUE.texts[language]["chat.example.schema_message"]
    shown = chat(http, asked, response_format={"type": "json_schema", "json_schema": {"name": "animal", "strict": True, "schema": EXAMPLE_SCHEMA}})
    animal = json.loads(shown["content"])
    jsonschema.validate(animal, EXAMPLE_SCHEMA)
    assert animal["name"] in ("Lion", "狮子") and asked not in json.dumps(animal, ensure_ascii=False)


def test_chat_examples(http: httpx.Client) -> None:
    riddle = chat(http, "What has keys but can't open locks? Think it through.", model="gx-2.5-flash-thinking")
    assert riddle["content"].startswith("A piano.") and "piano" in riddle.get("reasoning_content", riddle["content"]).lower()
    tool = {"type": "function", "function": {"name": "get_weather", "description": "Current weather for a city", "parameters": WEATHER}}
    call = chat(http, "What's the weather in Paris right now?", tools=[tool], tool_choice="auto")["tool_calls"][0]
    assert json.loads(call["function"]["arguments"]) == {"city": "Paris"}
    schema = json.loads(chat_tab.SCHEMA_EXAMPLE)
    cat = chat(http, "Describe a cat.", response_format={"type": "json_schema", "json_schema": {"name": "cat", "schema": schema}})
    assert json.loads(cat["content"]) == {"name": "Cat", "legs": 4, "sound": "meow"}
    story = chat(http, "Write a long story about a lighthouse.")["content"]
    assert story.startswith("The Keeper of Gull Point") and len(story) > 3000


def test_messages_examples(http: httpx.Client) -> None:
    body = {"model": "cl-sonnet-4-5-20250929", "max_tokens": 4096, "thinking": {"type": "enabled", "budget_tokens": 2048},
            "messages": [{"role": "user", "content": "What has keys but can't open locks? Think it through."}]}
    blocks = post(http, "/v1/messages", body)["content"]
    assert "piano" in blocks[0]["thinking"] and blocks[-1]["text"].startswith("A piano.")
    tools = json.loads(messages_tab.TOOLS_EXAMPLE)
    body = {"model": "cl-sonnet-4-5-20250929", "max_tokens": 1024, "tools": tools,
            "messages": [{"role": "user", "content": "What's the weather in Paris right now?"}]}
    assert post(http, "/v1/messages", body)["content"][-1]["input"] == {"city": "Paris"}
    body = {"model": "cl-sonnet-4-5-20250929", "max_tokens": 1024, "system": messages_tab.LONG_DOCUMENT,
            "messages": [{"role": "user", "content": "Summarise the document in one sentence."}]}
    assert "routes each request to the model family" in post(http, "/v1/messages", body)["content"][-1]["text"]


def native(http: httpx.Client, prompt: str, **extra: Any) -> list[dict[str, Any]]:
    body = {"contents": [{"role": "user", "parts": [{"text": prompt}]}], **extra}
    return post(http, "/v1beta/models/gx-2.5-flash:generateContent", body)["candidates"][0]["content"]["parts"]


def test_native_examples(http: httpx.Client) -> None:
    purr = native(http, "Why do cats purr? Think first.", generationConfig={"thinkingConfig": {"thinkingBudget": 1024, "includeThoughts": True}})
    assert "larynx" in purr[0]["text"] and "voice box" in purr[-1]["text"]
    picture = native(http, "A lighthouse at dusk", generationConfig={"responseModalities": ["TEXT", "IMAGE"]})
    assert picture[0]["text"].startswith("Here is a lighthouse at dusk") and picture[1]["inlineData"]["mimeType"] == "image/png"
    call = native(http, "What's the weather in Paris?", tools=[{"functionDeclarations": [{"name": "get_weather", "parameters": WEATHER}]}])
    assert call[0]["functionCall"]["args"] == {"city": "Paris"}


@pytest.mark.parametrize(("question", "expected", "absent"), [
    ("What is the gateway?", "one base URL and one key", "Überblick"),
    ("Was ist neu im Gateway?", "gibt einen Überblick dazu", "overview"),
    ("网关有什么新功能？", "对此有概述", "overview"),
    ("什么是网关？", "统一 API", "来源是这样说的"),  # Native's grounding example asked in Chinese: what the gateway is, with its sources
])
def test_grounded_answers_follow_the_question_language(http: httpx.Client, question: str, expected: str, absent: str) -> None:
    text = " ".join(part["text"] for part in native(http, question, tools=[{"svcSearch": {}}]))
    assert expected in text and absent not in text
    body = {"model": "gpt-4.1", "input": question, "tools": [{"type": "web_search_preview"}]}
    message = post(http, "/v1/responses", body)["output"][-1]["content"][0]
    assert absent not in message["text"] and all(message["text"][a["start_index"]:a["end_index"]] == a["title"] for a in message["annotations"])


def test_responses_reasoning_example(http: httpx.Client) -> None:
    output = post(http, "/v1/responses", {"model": "o4-mini", "input": "Why is the sky blue? Reason it out.", "reasoning": {"summary": "auto"}})["output"]
    assert "Rayleigh" in output[0]["summary"][0]["text"] and "Rayleigh scattering" in output[-1]["content"][0]["text"]


def test_tool_arguments_take_numbers_where_the_schema_asks_numbers(http: httpx.Client) -> None:
    schema = {"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer", "minimum": 1, "maximum": 14},
                                               "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, "required": ["city", "days"]}
    tool = {"type": "function", "function": {"name": "get_forecast", "parameters": schema}}
    call = chat(http, "Give me the forecast for New York for 5 days", tools=[tool], tool_choice="required")["tool_calls"][0]
    assert json.loads(call["function"]["arguments"]) == {"city": "New York", "days": 5, "unit": "celsius"}


def test_other_prompts_get_a_reply_without_an_echo(http: httpx.Client) -> None:
    shown = chat(http, "Tell me something about tea", temperature=0.2)["content"]
    assert "Tell me something about tea" not in shown and "You said" not in shown and "gx-2.5-flash" not in shown
    assert shown.startswith("This is the playground's offline demo gateway") and "temperature" not in shown
