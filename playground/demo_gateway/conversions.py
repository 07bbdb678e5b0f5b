"""Conversions the demo works out: units of length, mass, volume, time, speed and temperature
(no currencies), and calendar questions: the weekday of a date, the days between two dates, a
date some days before or after another, and leap years."""

from __future__ import annotations

import datetime
import re

from playground.demo_gateway.answer_kit import HEAD, Found, grouped, number

# unit -> (dimension, size in the dimension's base unit, English name, Chinese name, spellings)
_UNITS: dict[str, tuple[str, float, str, str, str]] = {
    "km": ("length", 1000, "km", "公里", "km|kilometer|kilometers|kilometre|kilometres|公里|千米"),
    "m": ("length", 1, "m", "米", "m|meter|meters|metre|metres|米"),
    "cm": ("length", 0.01, "cm", "厘米", "cm|centimeter|centimeters|centimetre|centimetres|厘米"),
    "mm": ("length", 0.001, "mm", "毫米", "mm|millimeter|millimeters|millimetre|millimetres|毫米"),
    "mile": ("length", 1609.344, "miles", "英里", "mile|miles|mi|英里"),
    "yard": ("length", 0.9144, "yards", "码", "yard|yards|yd|码"),
    "foot": ("length", 0.3048, "feet", "英尺", "foot|feet|ft|英尺"),
    "inch": ("length", 0.0254, "inches", "英寸", "inch|inches|英寸"),
    "kg": ("mass", 1, "kg", "千克", "kg|kilogram|kilograms|kilo|kilos|千克|公斤"),
    "g": ("mass", 0.001, "g", "克", "g|gram|grams|gramme|grammes|克"),
    "lb": ("mass", 0.45359237, "pounds", "磅", "lb|lbs|pound|pounds|磅"),
    "oz": ("mass", 0.028349523125, "ounces", "盎司", "oz|ounce|ounces|盎司"),
    "tonne": ("mass", 1000, "tonnes", "吨", "tonne|tonnes|ton|tons|吨"),
    "jin": ("mass", 0.5, "jin", "斤", "jin|斤"),
    "l": ("volume", 1, "litres", "升", "l|liter|liters|litre|litres|升"),
    "ml": ("volume", 0.001, "ml", "毫升", "ml|milliliter|milliliters|millilitre|millilitres|毫升"),
    "gallon": ("volume", 3.785411784, "US gallons", "加仑", "gallon|gallons|gal|加仑"),
    "cup": ("volume", 0.2365882365, "US cups", "杯", "cup|cups"),
    "pint": ("volume", 0.473176473, "US pints", "品脱", "pint|pints|品脱"),
    "s": ("time", 1, "seconds", "秒", "s|sec|secs|second|seconds|秒"),
    "min": ("time", 60, "minutes", "分钟", "min|mins|minute|minutes|分钟"),
    "h": ("time", 3600, "hours", "小时", "h|hr|hrs|hour|hours|小时"),
    "day": ("time", 86400, "days", "天", "day|days|天"),
    "week": ("time", 604800, "weeks", "周", "week|weeks|周|星期"),
    "kmh": ("speed", 1 / 3.6, "km/h", "公里每小时", "km/h|kph|kmh|kilometers per hour|kilometres per hour|公里每小时|千米每小时|公里/小时"),
    "mph": ("speed", 0.44704, "mph", "英里每小时", "mph|miles per hour|英里每小时"),
    "ms": ("speed", 1, "m/s", "米每秒", "m/s|meters per second|metres per second|米每秒|米/秒"),
    "c": ("temperature", 0, "°C", "摄氏度", "°c|c|celsius|degrees celsius|degree celsius|centigrade|摄氏度|℃"),
    "f": ("temperature", 0, "°F", "华氏度", "°f|f|fahrenheit|degrees fahrenheit|degree fahrenheit|华氏度|℉"),
    "k": ("temperature", 0, "K", "开尔文", "kelvin|kelvins|开尔文|开"),
}
_SPELLING = {spelling: unit for unit, row in _UNITS.items() for spelling in row[4].split("|")}
_UNIT = "(" + "|".join(re.escape(s) for s in sorted(_SPELLING, key=len, reverse=True)) + ")"
_EDGE, _END = r"(?<![a-z])", r"(?![a-z])"
_NUM = r"(-?\d+(?:\.\d+)?)"
_FORWARD = re.compile(rf"{_NUM}\s*(?:degrees?\s+)?{_EDGE}{_UNIT}{_END}\s*(?:in|to|into|as|in terms of)\s+(?:degrees?\s+)?{_EDGE}{_UNIT}{_END}")
_HOW_MANY = re.compile(rf"how many\s+{_EDGE}{_UNIT}{_END}\s+(?:are\s+|is\s+)?(?:there\s+)?(?:in|make)\s+(?:a|an|one|{_NUM})\s*{_EDGE}{_UNIT}{_END}")
_ZH = re.compile(rf"{_NUM}\s*{_UNIT}\s*(?:等于|是|合|换算成|换算为|折合|转换成|转换为|为|相当于|(?:里|内|中|一共|共)?(?:有|包含))?\s*多少\s*{_UNIT}")
_ZH_ONE = re.compile(rf"一\s*{_UNIT}\s*(?:等于|是|合|有|相当于)\s*多少\s*{_UNIT}")


def _temperature(value: float, source: str, target: str) -> float:
    celsius = value if source == "c" else (value - 32) * 5 / 9 if source == "f" else value - 273.15
    return celsius if target == "c" else celsius * 9 / 5 + 32 if target == "f" else celsius + 273.15


def _rounded(value: float) -> float:
    return round(value, 2) if abs(value) >= 1 else float(f"{value:.4g}")


def convert(prompt: str, zh: bool) -> Found | None:
    """A unit conversion the question asks for, or None."""
    text = re.sub(r"degrees? ([cf])(?![a-z])", r"°\1", prompt[:HEAD].lower())  # "degrees C", not the start of "degrees Celsius"
    found = _FORWARD.search(text)
    if found:
        value, source, target = float(found[1]), _SPELLING[found[2]], _SPELLING[found[3]]
    elif (found := _HOW_MANY.search(text)) is not None:
        value, source, target = float(found[2] or 1), _SPELLING[found[3]], _SPELLING[found[1]]
    elif (found := _ZH.search(text)) is not None:
        value, source, target = float(found[1]), _SPELLING[found[2]], _SPELLING[found[3]]
    elif (found := _ZH_ONE.search(text)) is not None:
        value, source, target = 1.0, _SPELLING[found[1]], _SPELLING[found[2]]
    else:
        return None
    kind, kind_target = _UNITS[source], _UNITS[target]
    if kind[0] != kind_target[0] or source == target:
        return None
    result = _temperature(value, source, target) if kind[0] == "temperature" else value * kind[1] / kind_target[1]
    shown = _rounded(result)
    if zh:
        sentence = f"{number(value)} {kind[3]}等于 {number(shown)} {kind_target[3]}。"
        return Found("conversion", f"{number(shown)} {kind_target[3]}", sentence, f"换算：{number(value)} {kind[3]} → {number(shown)} {kind_target[3]}。", zh=True)
    detail = ("°F = °C × 9/5 + 32, °C = (°F − 32) × 5/9, K = °C + 273.15." if kind[0] == "temperature"
              else f"{_named(1, kind[2])} = {_named(_rounded(kind[1] / kind_target[1]), kind_target[2])}.")
    return Found("conversion", _named(shown, kind_target[2]), f"{_named(value, kind[2])} is {_named(shown, kind_target[2])}.", detail)


_MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"]
_MONTH = "(" + "|".join(m[:3] + f"(?:{m[3:]})?" for m in _MONTHS) + r")\.?"
_DATE_PATTERNS = (
    (re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})"), (1, 2, 3)),
    (re.compile(r"(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]"), (1, 2, 3)),
    (re.compile(rf"{_MONTH}\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})"), (3, 1, 2)),
    (re.compile(rf"(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH},?\s+(\d{{4}})"), (3, 2, 1)),
)
_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_WEEKDAYS_ZH = ("星期一", "星期二", "星期三", "星期四", "星期五", "星期六", "星期日")
_SHIFT = re.compile(r"(\d{1,5})\s*days?\s+(after|from|later than|before|earlier than|prior to)|(\d{1,5})\s*天\s*(?:以|之)?(后|前)"
                    r"|(?:以|之)?(后|前)\s*(\d{1,5})\s*天")
_SINGULAR = {"miles": "mile", "yards": "yard", "feet": "foot", "inches": "inch", "pounds": "pound", "ounces": "ounce",
             "tonnes": "tonne", "litres": "litre", "US gallons": "US gallon", "US cups": "US cup", "US pints": "US pint",
             "seconds": "second", "minutes": "minute", "hours": "hour", "days": "day", "weeks": "week"}


def _named(value: float, name: str) -> str:
    return f"{grouped(value, False)} {_SINGULAR.get(name, name) if value == 1 else name}"


def _month(word: str) -> int:
    return next(i for i, m in enumerate(_MONTHS, 1) if m.startswith(word[:3]))


def _dates(text: str) -> list[tuple[int, datetime.date]]:
    found: list[tuple[int, datetime.date]] = []
    for pattern, (y, m, d) in _DATE_PATTERNS:
        for match in pattern.finditer(text):
            if any(start == match.start() for start, _ in found):
                continue
            month = match.group(m)
            try:
                day = datetime.date(int(match.group(y)), int(month) if month.isdigit() else _month(month), int(match.group(d)))
            except ValueError:
                continue
            found.append((match.start(), day))
    return sorted(found)


def _day_text(day: datetime.date, zh: bool) -> str:
    return f"{day.year}年{day.month}月{day.day}日" if zh else f"{day.day} {_MONTHS[day.month - 1].title()} {day.year}"


def calendar(prompt: str, zh: bool) -> Found | None:
    """A calendar question (weekday, days between, days after or before, leap year), or None."""
    text = prompt[:HEAD].lower()
    dates = [day for _, day in _dates(text)]
    shift = _SHIFT.search(text)
    if len(dates) >= 2 and re.search(r"how many days|days between|days from|days until|days are there|多少天|几天|相差|相隔", text):
        days = abs((dates[1] - dates[0]).days)
        first, second = _day_text(dates[0], zh), _day_text(dates[1], zh)
        return Found("date", str(days), f"{first}到{second}相隔 {days} 天。" if zh else f"There are {grouped(days, False)} days from {first} to {second}.",
                     "", zh)
    if dates and shift:
        count = int(shift[1] or shift[3] or shift[6])
        later = (shift[2] or "").startswith(("after", "from", "later")) or "后" in (shift[4], shift[5])
        try:
            day = dates[0] + datetime.timedelta(days=count if later else -count)
        except OverflowError:
            return None
        shown = _day_text(day, zh)
        weekday = _WEEKDAYS_ZH[day.weekday()] if zh else _WEEKDAYS[day.weekday()]
        return Found("date", shown, f"是{shown}，{weekday}。" if zh else f"It is {weekday}, {shown}.", "", zh)
    if dates and re.search(r"what day|which day|day of the week|weekday|星期几|周几|礼拜几|星期", text):
        day = dates[0]
        weekday = _WEEKDAYS_ZH[day.weekday()] if zh else _WEEKDAYS[day.weekday()]
        return Found("date", weekday, f"{_day_text(day, zh)}是{weekday}。" if zh else f"{_day_text(day, zh)} is a {weekday}.", "", zh)
    leap = re.search(r"(\d{4})\s*(?:年)?.{0,12}?(?:leap year|闰年)|(?:leap year|闰年).{0,12}?(\d{4})", text)
    if leap:
        year = int(leap[1] or leap[2])
        is_leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
        rule = "能被 4 整除且不能被 100 整除，或能被 400 整除的年份是闰年" if zh else "a leap year divides by 4, except centuries that do not divide by 400"
        if zh:
            return Found("date", "是" if is_leap else "不是", f"{year}年{'是' if is_leap else '不是'}闰年。", f"规则：{rule}。", True)
        return Found("date", "Yes" if is_leap else "No", f"{'Yes' if is_leap else 'No'}: {year} is {'' if is_leap else 'not '}a leap year.",
                     f"The rule: {rule}.")
    return None
