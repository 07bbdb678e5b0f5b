"""The demo gateway answers ordinary questions sensibly offline, in the language asked, over the
wire: it computes, looks facts up and writes from curated material; anything else gets an honest
answer saying what the demo can do and how to connect a real gateway. No answer quotes the
prompt or names its model; the models differ (style, pace) and the weaker one makes its known
mistake; the same request always gets the same answer."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from playground.demo_gateway.answer_kit import load
from playground.demo_gateway.catalog import CHAT_MODELS
from playground.demo_gateway.characters import CHARACTERS, pace
from playground.demo_gateway.server import RunningGateway
from tests.conftest import DEMO_KEY

ENGLISH = [
    ("What is 12 times 7?", "84"),
    ("What is 15% of 240?", "36"),
    ("A train leaves at 9:15 and travels 180 km at 60 km/h. When does it arrive?", "12:15"),
    ("Tom has 12 apples. He gives 3 to Ann and buys 5 more. How many apples does he have now?", "14"),
    ("Convert 10 km to miles", "6.21 miles"),
    ("What day of the week was 20 July 1969?", "Sunday"),
    ("What is the capital of Australia?", "Canberra"),
    ("How tall is Mount Everest?", "8,849 m"),
    ("Who wrote Pride and Prejudice?", "Jane Austen"),
    ("How do you say thank you in French?", "Merci"),
]
CHINESE = [
    ("12乘以7等于多少？", "84"),
    ("200的15%是多少？", "30"),
    ("一列火车上午9点15分出发，以每小时60公里的速度行驶180公里，几点到达？", "12:15"),
    ("妈妈买了3支笔，每支4元，她付了20元，应该找回多少元？", "8"),
    ("10公里等于多少英里？", "6.21 英里"),
    ("2024年1月1日是星期几？", "星期一"),
    ("日本的首都是哪里？", "东京"),
    ("珠穆朗玛峰有多高？", "8849 米"),
    ("谁写了红楼梦？", "曹雪芹"),
    ("“谢谢”用日语怎么说？", "ありがとう"),
    ("3.5小时有多少分钟？", "210 分钟"),
]
WRITING = [
    ("How do I make pancakes?", "200 g flour"),
    ("Write a short poem about the sea", "The sea rolls in with silver hands"),
    ("番茄炒蛋怎么做？", "番茄切块"),
    ("写一首关于月亮的诗", "月亮沿着云的梯子"),
]
PASTED = ("Summarise this:\nThe city council met on Monday to discuss the new park. Residents asked for more trees and a "
          "playground. The council agreed to plant two hundred trees next spring. A playground will be built near the river. "
          "The cost of the park is shared by the city and a local charity. Work starts in March.")


@pytest.fixture
def http(gateway: RunningGateway) -> httpx.Client:
    with httpx.Client(base_url=gateway.url, headers={"authorization": f"Bearer {DEMO_KEY}"}, timeout=10) as client:
        yield client


def ask(http: httpx.Client, prompt: str, model: str = "gx-2.5-flash", **extra: Any) -> str:
    body = {"model": model, "messages": [{"role": "user", "content": prompt}], **extra}
    response = http.post("/v1/chat/completions", json=body)
    assert response.status_code == 200, response.text
    return str(response.json()["choices"][0]["message"]["content"])


@pytest.mark.parametrize(("prompt", "expected"), ENGLISH + CHINESE + WRITING)
def test_ordinary_questions_get_the_computed_value_or_the_fact(http: httpx.Client, prompt: str, expected: str) -> None:
    answer = ask(http, prompt)
    assert expected in answer and prompt not in answer


@pytest.mark.parametrize(("prompt", "expected"), CHINESE[:3] + CHINESE[6:])
def test_a_chinese_question_is_answered_in_chinese(http: httpx.Client, prompt: str, expected: str) -> None:
    answer = ask(http, prompt, model="cl-sonnet-4-5-20250929")
    assert expected in answer and any("\u4e00" <= ch <= "\u9fff" for ch in answer) and "The " not in answer


def test_a_pasted_text_is_summarised_by_its_key_sentences(http: httpx.Client) -> None:
    answer = ask(http, PASTED)
    assert answer.startswith("In short: The city council met on Monday to discuss the new park.") and PASTED not in answer


@pytest.mark.parametrize(("prompt", "first_line", "not_in_haiku"), [
    ("Write a haiku about autumn", "Red leaves letting go;", "The trees let go of what they kept"),
    ("写一首关于秋天的俳句", "红叶松开手，", "树放下了一整年的收藏"),
])
def test_a_haiku_asked_for_is_a_haiku(http: httpx.Client, prompt: str, first_line: str, not_in_haiku: str) -> None:
    titled, terse = ask(http, prompt, model="gx-2.5-flash").split("\n\n"), ask(http, prompt, model="cl-haiku-4-5-20251001")
    assert ("haiku" in titled[0] or "俳句" in titled[0]) and titled[1] == terse
    assert terse.splitlines()[0] == first_line and len(terse.splitlines()) == 3 and not_in_haiku not in terse


def test_every_curated_poem_has_a_haiku_of_three_lines_and_the_chinese_one_counts_5_7_5() -> None:
    for row in load("writing.json")["poems"]:
        haiku, chinese = row[6], row[7]
        assert len(haiku.splitlines()) == 3, row[2]
        assert [len(line.rstrip("，。；")) for line in chinese.splitlines()] == [5, 7, 5], row[3]


@pytest.mark.parametrize(("prompt", "opening", "connect"), [
    ("Tell me about the history of jazz", "This is the playground's offline demo gateway", "connect a real gateway"),
    ("给我讲讲爵士乐的历史", "这是演练场的离线演示网关", "连接真实网关"),
])
def test_an_unknown_question_gets_the_honest_fallback_in_its_language(http: httpx.Client, prompt: str, opening: str, connect: str) -> None:
    for model in ("gx-2.5-flash", "gpt-4o-mini", "cl-opus-4-5-20251101", "gpt-4.1"):
        answer = ask(http, prompt, model=model)
        assert opening in answer and connect in answer and prompt not in answer


@pytest.mark.parametrize(("prompt", "opening"), [("Hello!", "Hello! This is the playground's offline demo gateway"), ("你好", "你好！这是演练场的离线演示网关")])
def test_a_greeting_gets_a_greeting_and_what_the_demo_can_do(http: httpx.Client, prompt: str, opening: str) -> None:
    assert ask(http, prompt).startswith(opening) and ask(http, prompt, model="gpt-4o-mini").startswith(opening)


def test_no_answer_quotes_the_prompt_or_names_a_model(http: httpx.Client) -> None:
    prompts = [prompt for prompt, _ in ENGLISH[::3] + CHINESE[::3]] + ["Tell me about the history of jazz", "hello there"]
    for model in CHAT_MODELS:
        for prompt in prompts:
            answer = ask(http, prompt, model=model, stream=False)
            assert prompt not in answer
            assert not any(name in answer for name in CHAT_MODELS), (model, answer)


def test_two_models_answer_the_same_question_differently(http: httpx.Client) -> None:
    question = "What is the capital of Canada?"
    answers = {model: ask(http, question, model=model) for model in ("gx-2.5-flash", "gpt-4.1", "cl-sonnet-4-5-20250929", "cl-haiku-4-5-20251001")}
    assert answers["gx-2.5-flash"] == "The capital of Canada is Ottawa."
    assert answers["gpt-4.1"].startswith("**Ottawa**") and answers["cl-haiku-4-5-20251001"] == "Ottawa"
    assert answers["cl-sonnet-4-5-20250929"].startswith("The capital of Canada is Ottawa.\n\n")
    assert len(set(answers.values())) == 4


def test_the_weaker_model_stops_a_multi_step_word_problem_one_step_short(http: httpx.Client) -> None:
    train = ENGLISH[2][0]
    assert ask(http, train, model="gpt-4o-mini") == "3:00"  # forgot to add the departure time
    assert "12:15" in ask(http, train, model="gpt-4.1") and "12:15" in ask(http, train, model="cl-haiku-4-5-20251001")
    shopping = "Sam has 3 boxes of 12 eggs. He uses 7 eggs. How many eggs are left?"
    assert ask(http, shopping, model="gpt-4o-mini") == "36" and ask(http, shopping, model="cl-haiku-4-5-20251001") == "29"
    assert ask(http, "What is the capital of Peru?", model="gpt-4o-mini") == "Lima"  # right on the other kinds
    frames = http.post("/v1/chat/completions", json={"model": "gpt-4o-mini", "stream": True, "reasoning_effort": "high",
                                                      "messages": [{"role": "user", "content": shopping}]}).text.split("\n\n")
    deltas = [json.loads(f[6:])["choices"][0]["delta"] for f in frames if f.startswith("data: {") and '"delta"' in f]
    reasoning = "".join(d.get("reasoning_content") or "" for d in deltas)
    assert reasoning.endswith("So the answer is: 36.") and "".join(d.get("content") or "" for d in deltas) == "36"


def test_models_differ_in_pace_and_every_model_has_a_character() -> None:
    assert set(CHARACTERS) == set(CHAT_MODELS)
    assert pace("gx-2.5-pro") > pace("gx-2.5-flash") and pace("gx-2.5-flash-thinking") == pace("gx-2.5-flash")
    assert pace("cl-haiku-4-5-20251001") < pace("cl-opus-4-5-20251101")


def test_the_same_request_gets_the_same_answer_and_a_huge_prompt_is_not_parsed_whole(http: httpx.Client) -> None:
    assert ask(http, ENGLISH[3][0], model="qwen-plus") == ask(http, ENGLISH[3][0], model="qwen-plus")
    huge = "What is the capital of France? " + "blah " * 200_000
    assert ask(http, huge) == "The capital of France is Paris."
    long_paste = "Summarise this:\n" + "The cat sat on the mat. " * 20_000
    assert ask(http, long_paste).startswith("In short: The cat sat on the mat.")


def test_every_format_answers_and_a_system_prompt_word_still_leads(http: httpx.Client) -> None:
    question = "What is the capital of Italy?"
    native = http.post("/v1beta/models/gx-2.5-flash:generateContent", json={"contents": [{"role": "user", "parts": [{"text": question}]}]})
    assert "Rome" in native.json()["candidates"][0]["content"]["parts"][0]["text"]
    messages = http.post("/v1/messages", json={"model": "cl-haiku-4-5-20251001", "max_tokens": 100, "messages": [{"role": "user", "content": question}]})
    assert messages.json()["content"][0]["text"] == "Rome"
    responses = http.post("/v1/responses", json={"model": "gpt-4.1", "input": question}).json()
    assert responses["output"][-1]["content"][0]["text"].startswith("**Rome**")
    led = ask(http, "Name one colour.", model="gpt-4.1", messages=[{"role": "system", "content": 'Start every answer with the word "OKAPI".'},
                                                                   {"role": "user", "content": "Name one colour."}])
    assert led.startswith("OKAPI ") and "Blue" in led and "Name one colour." not in led
