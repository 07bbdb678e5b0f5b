"""Word problems the demo works out step by step: journeys (distance, speed, time, and the
arrival time from a departure) and counting or shopping stories (has 12, gives away 3, buys 2
boxes of 6; 3 notebooks at 4 each, pays with 20). Each answer keeps its steps, and `slip` is the
answer of a model that stops one step short (the weaker demo model's known mistake)."""

from __future__ import annotations

import re

from playground.demo_gateway.answer_kit import HEAD, Found, number

_N = r"(\d+(?:\.\d+)?)"
_SPEED = re.compile(rf"{_N}\s*(?:km/h|kph|km per hour|kilomet(?:er|re)s? (?:per|an|a) hour|mph|miles? (?:per|an|a) hour)"
                    rf"|(?:时速|每小时|速度为每小时|速度是每小时)\s*{_N}\s*(?:公里|千米|英里)|{_N}\s*(?:公里|千米)(?:/|每)(?:小时|时)")
_DISTANCE = re.compile(rf"{_N}\s*(?:km|kilomet(?:er|re)s?|miles?|公里|千米|英里)(?![a-z/])")
_HOURS = re.compile(rf"{_N}\s*(?:hours?|hrs?|h\b|个?小时)")
_CLOCK = re.compile(r"(?:at|leaves|departs|starts|sets off|出发|从)\D{0,12}?(\d{1,2})[:.：](\d{2})\s*(am|pm|a\.m\.|p\.m\.)?"
                    r"|(上午|下午|早上|晚上)?(\d{1,2})[点:：](\d{1,2})?分?\s*(?:出发|开出|离开)")
_JOURNEY_CUE = re.compile(r"how long|how many hours|when|what time|arrive|how far|how fast|what speed|average speed|"
                          r"多久|几点|几个小时|多少小时|多长时间|到达|多远|多少公里|多快|速度是多少", re.IGNORECASE)
_COUNT_CUE = re.compile(r"how many|how much|how much change|多少|几个|几本|几支", re.IGNORECASE)
_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
                 "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "hundred": 100,
                 "a dozen": 12, "dozen": 12}
_WORD_NUMBER = re.compile(r"\b(" + "|".join(sorted(_NUMBER_WORDS, key=len, reverse=True)) + r")\b", re.IGNORECASE)
_GROUP = re.compile(rf"{_N}\s+(?:\w+\s+){{0,2}}?(?:of|with|containing|holding)\s+{_N}(?:\s+\w+)?(?:\s+each)?"
                    rf"|{_N}\s*(?:盒|袋|箱|包|排|组|筐|篮)[^\d。]{{0,4}}每(?:盒|袋|箱|包|排|组|筐|篮)[^\d]{{0,3}}?{_N}"
                    rf"|{_N}\s+(?:\w+\s+){{0,2}}?(?:to|for)\s+each\s+of\s+(?:\w+\s+){{0,2}}?{_N}"
                    rf"|{_N}\s*(?:个|位|名)[^\d。]{{0,6}}?每(?:人|个人|位|个)[^\d。]{{0,3}}?{_N}")
_PRICE = re.compile(rf"{_N}\s+(?:\w+\s+){{0,2}}?(?:at|for|costing)\s+(?:\$|€|£)?{_N}\s*(?:\w+\s+)?each"
                    rf"|{_N}\s*(?:个|支|本|斤|件|瓶|张)[^\d。]{{0,6}}每(?:个|支|本|斤|件|瓶|张)\s*{_N}\s*元?")
_BUY = re.compile(r"\b(buys?|bought|purchases?|purchased|orders?|ordered)\b|又买了|买了|购买了?")
_MONEY = re.compile(r"^\s*(?:dollars?|euros?|pounds?|yuan|pence|cents?|元|块)|[$€£¥]\s*$", re.IGNORECASE)
_PLUS = re.compile(r"\b(gets?|got|finds?|found|receives?|received|picks?|picked|adds?|added|more|earns?|earned|"
                   r"collects?|collected|gains?|gained|wins?|won|bakes?|baked|makes?|made|another|joins?|joined|arrive[sd]?)\b"
                   r"|得到|收到|捡到|又来了|来了|多了|增加了|做了|摘了|赢了|又有")
_MINUS = re.compile(r"\b(gives?|gave|eats?|ate|loses?|lost|sells?|sold|spends?|spent|uses?|used|away|breaks?|broke|drops?|"
                    r"dropped|takes?|took|removes?|removed|leaves?|fewer|less|absent|missing)\b"
                    r"|吃了|吃掉|送给|送了|给了|卖了|卖掉|用了|用掉|丢了|拿走|飞走|走了|花了|少了|借给|坏了|缺席了?|请假了?")
_TOTAL_CUE = re.compile(r"\b(?:in total|altogether|all together|together|in all|combined|total)\b|一共|总共|合计|共计|加起来", re.IGNORECASE)
_LEFT_CUE = re.compile(r"\b(?:left|remain(?:s|ing)?|still ha(?:s|ve))\b|剩|还有", re.IGNORECASE)
_PAY = re.compile(r"\b(pays? with|paid with|pays?|paid|hands? over|gives? the cashier)\b|付了|付|拿出|给收银员")


def _hours_text(hours: float, zh: bool) -> str:
    whole, minutes = int(hours), round((hours - int(hours)) * 60)
    if minutes == 60:
        whole, minutes = whole + 1, 0
    if zh:
        return f"{whole}小时" + (f"{minutes}分钟" if minutes else "")
    text = f"{whole} hour{'s' if whole != 1 else ''}"
    return text + (f" {minutes} minutes" if minutes else "")


def _clock(minutes: float) -> str:
    total = round(minutes) % (24 * 60)
    return f"{total // 60}:{total % 60:02d}"


def _departure(text: str) -> float | None:
    match = _CLOCK.search(text)
    if not match:
        return None
    if match.group(1):
        hour, minute, half = int(match.group(1)), int(match.group(2)), (match.group(3) or "").replace(".", "")
        hour += 12 if half == "pm" and hour < 12 else 0
    else:
        hour, minute = int(match.group(5)), int(match.group(6) or 0)
        hour += 12 if match.group(4) in ("下午", "晚上") and hour < 12 else 0
    return hour * 60 + minute if hour < 24 and minute < 60 else None


def _journey(text: str, zh: bool) -> Found | None:
    if not _JOURNEY_CUE.search(text):
        return None
    speed_match = _SPEED.search(text)
    speed = float(next(g for g in speed_match.groups() if g)) if speed_match else None
    rest = text[: speed_match.start()] + " " + text[speed_match.end():] if speed_match else text
    distance_match, hours_match = _DISTANCE.search(rest), _HOURS.search(rest)
    distance = float(distance_match.group(1)) if distance_match else None
    hours = float(hours_match.group(1)) if hours_match else None
    unit = "英里" if zh and "英里" in text else "公里" if zh else "miles" if re.search(r"\bmiles?\b|mph", text) else "km"
    if speed and distance and not hours:
        taken = distance / speed
        step = f"{number(distance)} ÷ {number(speed)} = {number(taken)} 小时" if zh else f"{number(distance)} {unit} ÷ {number(speed)} {unit}/h = {number(taken)} h"
        start = _departure(text)
        duration = _hours_text(taken, zh)
        if start is None:
            sentence = f"需要{duration}。" if zh else f"It takes {duration}."
            return Found("word_problem", duration, sentence, step, zh)
        arrive = _clock(start + taken * 60)
        detail = (f"第一步：{step}。第二步：{_clock(start)} 加上 {duration}，得到 {arrive}。" if zh
                  else f"Step 1: {step}. Step 2: {_clock(start)} plus {duration} is {arrive}.")
        wrong = _clock(taken * 60)
        slip = Found("word_problem", wrong, f"{wrong}到达。" if zh else f"It arrives at {wrong}.", f"{step}。" if zh else f"{step}.", zh)
        return Found("word_problem", arrive, f"{arrive}到达（路上{duration}）。" if zh else f"It arrives at {arrive} ({duration} on the way).",
                     detail, zh, slip)
    if speed and hours and not distance:
        far = speed * hours
        step = f"{number(speed)} × {number(hours)} = {number(far)}"
        return Found("word_problem", f"{number(far)} {unit}", f"一共行驶 {number(far)} {unit}。" if zh else f"It covers {number(far)} {unit}.",
                     step, zh)
    if distance and hours and not speed:
        fast = distance / hours
        step = f"{number(distance)} ÷ {number(hours)} = {number(fast)}"
        label = f"{unit}/h" if not zh else f"{unit}每小时"
        return Found("word_problem", f"{number(fast)} {label}", f"平均速度是每小时 {number(fast)} {unit}。" if zh
                     else f"The average speed is {number(fast)} {label}.", step, zh)
    return None


def _with_number_words(text: str) -> str:
    return _WORD_NUMBER.sub(lambda m: str(_NUMBER_WORDS[m.group(1).lower()]), text)


def _verbs(text: str, money: bool) -> list[tuple[int, str]]:
    """(position, sign) of the verbs in `text`: buying adds things, but takes from money."""
    return ([(m.start(), "+") for m in _PLUS.finditer(text)] + [(m.start(), "-") for m in _MINUS.finditer(text)]
            + [(m.start(), "-" if money else "+") for m in _BUY.finditer(text)])


def _steps(text: str) -> list[tuple[str, float, str]]:
    """(operation, value, words) in the order the story tells them: start, +, -, pay."""
    grouped: list[tuple[int, int, float, str]] = []
    for match in list(_PRICE.finditer(text)) + list(_GROUP.finditer(text)):
        a, b = (float(g) for g in match.groups() if g)
        if not any(start <= match.start() < end for start, end, _, _ in grouped):
            grouped.append((match.start(), match.end(), a * b, f"{number(a)} × {number(b)} = {number(a * b)}"))
    items: list[tuple[int, int, float, str]] = list(grouped)
    for match in re.finditer(_N, text):
        if not any(start <= match.start() < end for start, end, _, _ in grouped):
            items.append((match.start(), match.end(), float(match.group(1)), number(float(match.group(1)))))
    items.sort()
    steps, previous_end = [], 0
    money = bool(items) and bool(_MONEY.search(text[items[0][1]: items[0][1] + 8]) or _MONEY.search(text[max(0, items[0][0] - 2): items[0][0]]))
    for position, (start, end, value, words) in enumerate(items):
        before = text[previous_end:start]
        after = text[end: items[position + 1][0] if position + 1 < len(items) else min(len(text), end + 16)]
        after = re.split(r"[.,;!?，。；！？]", after, maxsplit=1)[0]
        if position == 0:
            operation = "start"
        elif _PAY.search(before):
            operation = "pay"
        else:
            verbs = _verbs(before, money)
            if verbs:
                operation = max(verbs)[1]
            elif _MINUS.search(after):
                operation = "-"
            else:
                operation = "+?"  # no verb says so: a guess, not enough on its own
        steps.append((operation, value, words))
        previous_end = end
    return steps


def _opening_verb(story: str) -> str | None:
    """"+" or "-" when the story's first number is what someone did (bakes 30, sells 12), None when it
    is what someone has (Tom has 12 apples)."""
    first = re.search(r"\d", story)
    lead = story[: first.start()] if first else ""
    verbs = _verbs(lead, False)
    return max(verbs)[1] if verbs else None


def _tallied(steps: list[tuple[str, float, str]], opening: str | None, total: bool,
             left: bool) -> list[tuple[str, float, str]] | None:
    """The steps with every operation decided, or None when the story does not say enough.

    A story that opens with taking away (sells 12 on Monday and 9 on Tuesday) counts those events:
    asked for a total they add up, asked what is left it has no stock to take them from. Asked for
    a total, numbers no verb explains are added; otherwise they are a guess that cannot stand alone."""
    if opening == "-":
        if left or not total:
            return None
        return [(operation if operation in ("start", "pay") else "+", amount, words) for operation, amount, words in steps]
    told = [step for step in steps[1:] if step[0] != "+?" or total] + [step for step in steps if "×" in step[2]]
    if not told:
        return None
    return [("+" if operation == "+?" else operation, amount, words) for operation, amount, words in steps]


def _count(text: str, zh: bool) -> Found | None:
    if not _COUNT_CUE.search(text) or _SPEED.search(text):
        return None
    question = re.split(r"(?<=[.!。！])\s*(?=[^.!。！]*[?？]\s*$)", text)
    story = question[0] if len(question) > 1 else text
    read = story if zh else _with_number_words(story)
    steps = _tallied(_steps(read), _opening_verb(read), bool(_TOTAL_CUE.search(text)), bool(_LEFT_CUE.search(text)))
    if steps is None:
        return None
    value, lines, values = 0.0, [], []
    for operation, amount, words in steps:
        if operation == "start":
            value = amount
            lines.append(words if "×" in words else number(amount))
        elif operation == "pay":
            lines.append(f"{number(amount)} - {number(value)} = {number(amount - value)}")
            value = amount - value
        else:
            after = value + amount if operation == "+" else value - amount
            lines.append((f"{words.split(' = ')[0]} = {number(amount)}; " if "×" in words else "")
                         + f"{number(value)} {operation} {number(amount)} = {number(after)}")
            value = after
        values.append(value)
    result = number(value)
    if zh:
        detail = "；".join(f"第{i}步：{line}" for i, line in enumerate(lines, 1)) + "。"
        found = Found("word_problem", result, f"答案是 {result}。", detail, True)
    else:
        detail = " ".join(f"Step {i}: {line}." for i, line in enumerate(lines, 1))
        found = Found("word_problem", result, f"The answer is {result}.", detail)
    if len(values) - 1 + ("×" in lines[0]) >= 2:  # two steps worked out: stopping one short leaves a number that was reached, not one that was given
        wrong = number(values[-2])
        slip = Found("word_problem", wrong, f"答案是 {wrong}。" if zh else f"The answer is {wrong}.",
                     ("；".join(lines[:-1]) + "。") if zh else " ".join(f"{line}." for line in lines[:-1]), zh)
        found = Found(found.kind, found.short, found.sentence, found.detail, zh, slip)
    return found


def solve(prompt: str, zh: bool) -> Found | None:
    """The answer to a journey or counting word problem, or None."""
    text = prompt[:HEAD]
    if not re.search(r"\d", text) and not _WORD_NUMBER.search(text):
        return None
    return _journey(text, zh) or _count(text, zh)
