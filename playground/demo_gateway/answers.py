"""The demo's answer to a question no example script covers: worked out (arithmetic, word
problems, conversions, dates), looked up (facts), written from curated material (recipes, poems,
translations, summaries), or an honest "this is the offline demo" that says what it can do and
how to connect a real gateway, in the question's language. The reasoning a thinking model shows
is built from the same answer, so it never quotes the prompt."""

from __future__ import annotations

import re

from playground.demo_gateway import arithmetic, conversions, facts, word_problems, writing
from playground.demo_gateway.answer_kit import HEAD, Found, is_chinese, say, without_form

_SOLVERS = (writing.translate, writing.summary, writing.recipe, writing.poem, conversions.calendar,
            conversions.convert, word_problems.solve, arithmetic.solve, facts.look_up)

FALLBACK = (
    "This is the playground's offline demo gateway: there is no language model behind it, so it cannot answer that.",
    "What it can do: work out arithmetic, word problems (journeys, shopping), unit conversions and dates; look up built-in facts "
    "(capitals, heights, dates of events, who made what, definitions); and write from a small curated collection (recipes, "
    "short poems, translations of common phrases, a summary of text you paste).",
    "To ask anything else, connect a real gateway: open the connection panel at the top of the page, enter the gateway's base URL "
    "and your API key, and press Test connection.",
)
FALLBACK_ZH = (
    "这是演练场的离线演示网关：它背后没有语言模型，所以无法回答这个问题。",
    "它能做的：计算算术题、应用题（行程、购物）、单位换算和日期；查询内置的事实（首都、高度、历史事件日期、作者和发明者、名词解释）；"
    "以及根据少量精选材料写作（菜谱、短诗、常用短语翻译、对你贴入文字的概括）。",
    "如需其他回答，请连接真实网关：打开页面顶部的连接面板，填入网关的基础地址和你的 API 密钥，然后点击“测试连接”。",
)
EXAMPLES = "Try, for example: “What is 15% of 240?”, “How tall is Mount Everest?”, “Translate ‘thank you’ into French”."
EXAMPLES_ZH = "例如可以问：“240 的 15% 是多少？”、“珠穆朗玛峰有多高？”、“‘谢谢’用法语怎么说？”"


def fallback(zh: bool) -> Found:
    lines, joint = (FALLBACK_ZH, "") if zh else (FALLBACK, " ")
    return Found("unknown", joint.join((lines[0], lines[2])), joint.join(lines), EXAMPLES_ZH if zh else EXAMPLES, zh)


_GREETING = re.compile(r"^\s*(?:hi|hello|hey|good (?:morning|afternoon|evening)|你好|您好|嗨|早上好|晚上好)[\s!！.。,，~]*(?:there)?[\s!！.。]*$",
                       re.IGNORECASE)


def greeting(zh: bool) -> Found:
    """A hello gets a hello, then what the demo can do."""
    lines = FALLBACK_ZH if zh else FALLBACK
    hello = say(zh, "Hello! This is the playground's offline demo gateway, so no language model is answering.",
                "你好！这是演练场的离线演示网关，回答你的不是语言模型。")
    joint = "" if zh else " "
    return Found("about", joint.join((hello, lines[2])), joint.join((hello, lines[1], lines[2])), EXAMPLES_ZH if zh else EXAMPLES, zh)


_IDENTITY = re.compile(r"^\s*(?:who|what) are you\b|\b(?:what|which) (?:ai |language )?model (?:are you|is this|am i talking to)\b|"
                       r"^\s*are you (?:an? )?(?:ai|bot|robot|human|person|real|language model)\b|你是谁|你是什么|你是哪个|什么模型|哪个模型",
                       re.IGNORECASE)


def identity(zh: bool) -> Found:
    """"Who are you?" gets what is answering (the offline demo, never a model's name), then what it can do."""
    lines = FALLBACK_ZH if zh else FALLBACK
    who = say(zh, "I am the playground's offline demo gateway, not a language model: my answers are worked out, looked up or "
                  "written from a small built-in collection.",
              "我是演练场的离线演示网关，不是语言模型：我的回答是计算出来的、查出来的，或根据少量内置材料写的。")
    joint = "" if zh else " "
    return Found("about", joint.join((who, lines[2])), joint.join((who, lines[1], lines[2])), EXAMPLES_ZH if zh else EXAMPLES, zh)


def find(prompt: str) -> Found:
    """The best answer the demo has for `prompt` (a fallback when it has none)."""
    zh = is_chinese(prompt)
    if not prompt.strip():
        return Found("unknown", "", say(zh, "The message was empty: ask a question and the demo will answer it.",
                                        "消息是空的：请提一个问题，演示网关会回答。"), zh=zh)
    if len(prompt) < 40 and _GREETING.match(prompt):
        return greeting(zh)
    if len(prompt) < 80 and _IDENTITY.search(prompt):
        return identity(zh)
    question = without_form(prompt[:HEAD]) + prompt[HEAD:]
    for solve in _SOLVERS:
        found = solve(question, zh)
        if found is not None:
            return found
    return fallback(zh)


_OPENING = {
    "arithmetic": ("This is arithmetic, so it can be worked out exactly.", "这是算术题，可以精确算出。"),
    "word_problem": ("This is a word problem: find the numbers and what happens to them, one step at a time.", "这是应用题：找出数字和它们的变化，一步一步算。"),
    "conversion": ("This is a unit conversion: multiply by the size of one unit in the other.", "这是单位换算：乘以一个单位折合成另一单位的大小。"),
    "date": ("This is a calendar question: count the days on the Gregorian calendar.", "这是日期问题：按公历数天数。"),
    "fact": ("This is a factual question; the answer should be the fact itself, nothing invented.", "这是事实性问题，答案应该就是事实本身，不能编造。"),
    "recipe": ("This asks for a recipe: list the ingredients, then the steps in order.", "这是要菜谱：先列材料，再按顺序写步骤。"),
    "poem": ("This asks for a short poem: keep the images simple and the lines even.", "这是要一首短诗：意象简单，句子匀称。"),
    "translation": ("This asks for a translation of a common phrase.", "这是要翻译一个常用短语。"),
    "summary": ("This asks for a summary: keep only the sentences that carry the main points.", "这是要概括：只保留承载要点的句子。"),
    "unknown": ("This is not something the offline demo can answer reliably.", "这不是离线演示能可靠回答的问题。"),
    "about": ("This asks what is answering: the offline demo, not a language model.", "这是在问回答的是谁：离线演示，而不是语言模型。"),
}


def reasoning_steps(found: Found) -> list[str]:
    """Five steps of reasoning that lead to `found` (a thinking model shows the first few and the last)."""
    zh = found.zh
    opening = _OPENING.get(found.kind, _OPENING["unknown"])[1 if zh else 0]
    working = found.detail if found.detail and found.kind not in ("recipe", "poem", "summary", "unknown", "about") else ""
    if not working:
        working = say(zh, "The material for this is in the demo's built-in collection.", "这方面的材料在演示的内置资料里。")
    if found.kind == "unknown":
        working = say(zh, "Guessing would mislead, so the honest answer is to say so.", "乱猜会误导人，所以诚实的回答是直接说明。")
    check = say(zh, "Let me check that once more before answering.", "回答前再检查一遍。")
    sure = say(zh, "It is consistent, so the answer can be short.", "结果一致，回答可以简短。")
    if found.kind in ("unknown", "about"):
        last = say(zh, "I will say what the demo can do and how to connect a real gateway.", "我会说明演示能做什么，以及如何连接真实网关。")
    elif found.kind in ("recipe", "poem", "summary"):
        last = say(zh, "I will write it out now.", "现在写出来。")
    else:
        short = found.short if len(found.short) <= 80 else found.short[:77] + "..."
        last = say(zh, f"So the answer is: {short}.", f"所以答案是：{short}。")
    return [opening, working, check, sure, last]
