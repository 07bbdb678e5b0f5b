"""The demo reads an ordinary question the way a person means it, over the wire: an instruction about
the answer's form ("Answer in one sentence") is not a number in the story; a story that counts what
was sold adds it up; buying takes from money; "5 to each of 3" is 15; a question that only looks
like "what is X in <language>" or "how ... bake" is not a translation or a recipe; "degrees
Fahrenheit" converts; a summary opens with what the text is about; a worked date or translation is
not said to come from the table of facts; the weaker model's slip is a step reached, not the number given."""

from __future__ import annotations

import httpx
import pytest

from playground.demo_gateway.server import RunningGateway
from tests.conftest import DEMO_KEY


@pytest.fixture
def http(gateway: RunningGateway) -> httpx.Client:
    with httpx.Client(base_url=gateway.url, headers={"authorization": f"Bearer {DEMO_KEY}"}, timeout=10) as client:
        yield client


def ask(http: httpx.Client, prompt: str, model: str = "gx-2.5-flash") -> str:
    response = http.post("/v1/chat/completions", json={"model": model, "messages": [{"role": "user", "content": prompt}]})
    assert response.status_code == 200, response.text
    return str(response.json()["choices"][0]["message"]["content"])


SHOP = "A shop sells 12 apples on Monday and 9 on Tuesday. How many in total?"


@pytest.mark.parametrize(("prompt", "expected"), [
    (SHOP, "The answer is 21."),
    ("Answer in one sentence: " + SHOP, "The answer is 21."),
    ("Answer in one sentence: Tom has 12 apples and eats 3. How many are left?", "The answer is 9."),
    ("In two words, what is the capital of Italy?", "The capital of Italy is Rome."),
    ("Lisa reads 15 pages on Saturday and 20 pages on Sunday. How many pages did she read altogether?", "The answer is 35."),
    ("A baker bakes 30 loaves and sells 12. How many are left?", "The answer is 18."),
    ("Mia had 24 stickers. She gave 5 to each of her 3 friends. How many stickers does she have left?", "The answer is 9."),
    ("Sam has 20 dollars and buys a book for 7 dollars. How much money is left?", "The answer is 13."),
    ("Convert 100 degrees Fahrenheit to Celsius", "100 °F is 37.78 °C."),
    ("How tall is the Eiffel Tower?", "The Eiffel Tower is 330 m (1,083 ft) tall."),
    ("How tall is Mount Fuji?", "Mount Fuji is 3,776 m (12,388 ft) tall."),
    ("What is the tallest mountain in the world?", "The highest mountain on Earth is Mount Everest, 8,849 m above sea level."),
    ("I have 3 apples and you have 5. How many do we have together?", "The answer is 8."),
    ("There are 25 students in a class. 7 are absent. How many are present?", "The answer is 18."),
    ("商店星期一卖了12个苹果，星期二卖了9个，一共卖了多少个？", "答案是 21。"),
    ("用一句话回答：小明有5个苹果，吃了2个，还剩几个？", "答案是 3。"),
    ("小红有20元，买了3本练习本，每本4元，还剩多少元？", "答案是 8。"),
])
def test_a_question_is_read_as_a_person_means_it(http: httpx.Client, prompt: str, expected: str) -> None:
    assert ask(http, prompt) == expected


def test_an_instruction_alone_or_sales_with_no_stock_get_the_honest_answer(http: httpx.Client) -> None:
    for prompt in ("Answer in one sentence.", "A shop sells 12 apples on Monday and 9 on Tuesday. How many are left?"):
        assert "offline demo gateway" in ask(http, prompt) and "The answer is" not in ask(http, prompt)


def test_a_recipe_is_asked_for_in_words_that_ask_for_one(http: httpx.Client) -> None:
    assert "200 g flour" in ask(http, "How do I make pancakes?")
    assert "Mash the avocados" in ask(http, "Can you tell me how to make guacamole?")
    assert "offline demo only knows a few recipes" in ask(http, "Give me a recipe for tomato soup")


def test_a_summary_opens_with_what_the_text_is_about(http: httpx.Client) -> None:
    text = ("Summarise this: The library will close early on Friday for repairs. Books due that day can be returned on Saturday "
            "without a fine. The repairs fix the roof, which leaked during the storm. The reading room reopens next Monday.")
    assert ask(http, text) == "In short: The library will close early on Friday for repairs."
    chinese = "总结一下：图书馆周五因维修提前闭馆。当天到期的书可以在周六归还，不收罚款。这次维修是修补暴风雨中漏水的屋顶。阅览室下周一重新开放。"
    assert ask(http, chinese) == "概括：图书馆周五因维修提前闭馆。"


def test_a_thorough_model_names_the_table_of_facts_only_for_a_fact(http: httpx.Client) -> None:
    thorough = "gx-2.5-pro"
    assert "table of facts" in ask(http, "What is the capital of Canada?", thorough)
    assert ask(http, "What day of the week is 25 December 2025?", thorough) == "25 December 2025 is a Thursday."
    assert ask(http, "把“谢谢”翻译成法语", thorough) == "“谢谢”用法语说是“Merci”。"


def test_a_quoted_text_longer_than_a_known_phrase_is_said_to_be_only_partly_translated(http: httpx.Client) -> None:
    partly = ask(http, "Translate 'good morning, my friend' into French.")
    assert "not all of “good morning, my friend”" in partly and "“Good morning” is “Bonjour”" in partly and "real gateway" in partly
    partly_zh = ask(http, "把“早上好，我的朋友”翻译成英语。")
    assert "无法翻译整句“早上好，我的朋友”" in partly_zh and "“早上好”用英语说是“Good morning”" in partly_zh
    assert ask(http, "Translate 'good morning' into French.") == "In French, “Good morning” is “Bonjour”."
    assert ask(http, "What's 'thank you' in German?") == "In German, “Thank you” is “Danke”."


def test_the_weaker_model_slips_only_where_a_step_was_worked_out(http: httpx.Client) -> None:
    assert ask(http, SHOP, "gpt-4o-mini") == "21"  # one addition: nothing to stop short of
    two_steps = "Anna has 5 apples and buys 3 bags of 4 apples each, then eats 2. How many apples does she have?"
    assert ask(http, two_steps, "gpt-4o-mini") == "17" and ask(http, two_steps, "cl-haiku-4-5-20251001") == "15"


@pytest.mark.parametrize(("prompt", "opening"), [
    ("Who are you?", "I am the playground's offline demo gateway, not a language model"),
    ("What model are you?", "I am the playground's offline demo gateway, not a language model"),
    ("你是谁？", "我是演练场的离线演示网关，不是语言模型"),
    ("Hello!", "Hello! This is the playground's offline demo gateway"),  # a headline model no longer opens a hello with "cannot answer"
])
def test_who_is_answering_is_the_demo_never_a_model(http: httpx.Client, prompt: str, opening: str) -> None:
    for model in ("gx-2.5-flash", "gpt-4o-mini", "gpt-4.1"):
        answer = ask(http, prompt, model)
        assert opening in answer and model not in answer and "cannot answer" not in answer and "无法回答" not in answer


@pytest.mark.parametrize(("prompt", "expected"), [
    ("What is the tallest mountain in Europe?", "The highest mountain in Europe is Mount Elbrus, 5,642 m above sea level."),
    ("Which is the highest peak in Africa?", "The highest mountain in Africa is Kilimanjaro, 5,895 m above sea level."),
    ("What is the highest mountain in Japan?", "The highest mountain in Japan is Mount Fuji, 3,776 m above sea level."),
    ("What is the tallest mountain in the world?", "The highest mountain on Earth is Mount Everest, 8,849 m above sea level."),
    ("欧洲最高的山是什么？", "欧洲最高的山是厄尔布鲁士山，海拔 5642 米。"),
    ("日本最高的山是哪座？", "日本最高的山是富士山，海拔 3776 米。"),
])
def test_the_highest_mountain_of_a_region_is_that_regions(http: httpx.Client, prompt: str, expected: str) -> None:
    assert ask(http, prompt) == expected


def test_a_region_the_demo_does_not_hold_gets_the_honest_answer_not_the_worlds_peak(http: httpx.Client) -> None:
    answer = ask(http, "What is the tallest mountain in Australia?")
    assert "offline demo gateway" in answer and "Everest" not in answer
