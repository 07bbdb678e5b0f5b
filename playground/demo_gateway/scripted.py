"""Scripted answers: what the demo models say to the playground's own example prompts.

Every example a tab offers gets a written, correct answer (and, for thinking models, written
reasoning), looked up by its prompt; other prompts fall back to the generated text in `text.py`.
Tool calls take their arguments from the prompt (the city named in the sentence, the numbers it
contains) and answers that come with sources are written in the question's language.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

from playground.demo_gateway import schema_fill, scripted_zh
from playground.demo_gateway.story import LIGHTHOUSE_STORY

RIDDLE_ANSWER = "A piano. It has plenty of keys, but not one of them opens a lock."
RIDDLE_STEPS = (
    "Keys that cannot open locks must be a different kind of key.",
    "Musical instruments and keyboards have keys.",
    "A piano has 88 keys and no lock anywhere, so it fits best.",
    "A computer keyboard would fit too, but the classic answer to this riddle is a piano.",
    "So the answer is: a piano.",
)
WEATHER_WITHOUT_TOOL = ("I cannot look up live weather by myself. Give me the get_weather tool "
                        "(the example fills it in) and I will ask it for the current weather in Paris.")

ANSWERS: dict[str, str] = {
    "what has keys but can't open locks? think it through.": RIDDLE_ANSWER,
    "what has keys but can't open locks? answer in one sentence.": "A piano has keys, but none of them can open a lock.",
    "what's the weather in paris right now?": WEATHER_WITHOUT_TOOL,
    "what's the weather in paris?": WEATHER_WITHOUT_TOOL,
    "describe a cat.": ("A cat is a small, soft-furred animal with four legs, whiskers, sharp claws and a long tail. "
                        "It sleeps much of the day, hunts at dusk, purrs when it is content and says \"meow\" to people."),
    "describe an animal of the savanna.": ("The lion is a large cat of the African savanna: a tawny coat, a tufted tail and, on "
                                           "the males, a dark mane. Lions live in prides, hunt zebra and antelope together at "
                                           "dusk and rest in the shade through the hot day."),
    "write a long story about a lighthouse.": LIGHTHOUSE_STORY,
    "summarise the document in one sentence.": ("In a hundred numbered sections the document says one thing: the gateway "
                                                 "routes each request to the model family named by its model id."),
    "what happened in ai this week?": ("The search here is simulated, so I cannot report real news: the one result I "
                                       "found (example.com) is a placeholder. Against a real gateway this answer would "
                                       "summarise this week's AI news and cite the pages it read."),
    "why do cats purr? think first.": ("Cats purr by twitching the muscles of their voice box many times a second while "
                                       "they breathe in and out, so the vocal folds buzz at about 25 to 150 Hz. They purr "
                                       "when content, but also when stressed or hurt: purring seems to calm them, and "
                                       "those low frequencies may even help bones and tissue heal."),
    "a lighthouse at dusk": ("Here is a lighthouse at dusk: a white tower on a rocky point, its lamp just lit "
                             "against an orange and violet sky, the sea going dark below."),
    "what is the gateway?": ("The gateway is one API in front of many AI model families: one base URL and one key, "
                             "and each request is routed to the family named by its model id."),
    "why is the sky blue? reason it out.": ("Sunlight contains every colour. Air molecules scatter short wavelengths far "
                                            "more than long ones (Rayleigh scattering, about 1/wavelength^4), so blue light "
                                            "is bounced around the whole sky and reaches your eyes from every direction. "
                                            "Violet scatters even more, but the sun sends less of it and our eyes are less "
                                            "sensitive to it, so the sky looks blue."),
    "give me a word for happy.": "Joyful. (Also: cheerful, glad, content, delighted.)",
    "what is new in the gateway?": ("The gateway now speaks four wire formats for its chat models, adds video "
                                    "models behind one task API, and lets embeddings be shortened on request."),
    "why do we have seasons? think it through.": ("Because the Earth's axis is tilted by about 23.4 degrees. As the Earth "
                                                  "orbits the sun, each hemisphere spends half the year tilted towards it "
                                                  "(longer days, steeper sunlight: summer) and half tilted away (short days, "
                                                  "slanting light: winter). The distance to the sun hardly matters."),
}

REASONING: dict[str, tuple[str, ...]] = {
    "what has keys but can't open locks? think it through.": RIDDLE_STEPS,
    "what has keys but can't open locks? answer in one sentence.": RIDDLE_STEPS,
    "why do cats purr? think first.": (
        "Purring is a sound, so something must vibrate.",
        "The muscles of the larynx twitch rapidly and make the vocal folds buzz on both the in- and out-breath.",
        "Cats purr when happy but also when hurt, so it is not only a sign of contentment.",
        "Low-frequency vibration is studied for healing, which may explain purring when injured.",
        "I will explain the mechanism first, then why they do it.",
    ),
    "why is the sky blue? reason it out.": (
        "The colour of the sky is sunlight scattered by the air.",
        "Scattering by small molecules grows steeply as the wavelength gets shorter (Rayleigh).",
        "So blue is scattered much more than red and comes from all directions.",
        "Violet is shorter still, but the sun emits less of it and our eyes see it poorly.",
        "Answer: Rayleigh scattering of blue light.",
    ),
    "why do we have seasons? think it through.": (
        "A common guess is the distance to the sun, but the orbit is nearly a circle.",
        "The Earth's axis is tilted about 23.4 degrees and keeps pointing the same way.",
        "That tilt changes how high the sun climbs and how long the days are.",
        "The hemisphere tilted towards the sun gets more energy: summer.",
        "So the seasons come from the tilt, not the distance.",
    ),
}

STRUCTURED: dict[str, dict[str, Any]] = {
    "describe a cat.": {"name": "Cat", "species": "Felis catus", "legs": 4, "sound": "meow", "colour": "tabby",
                        "description": "A small, soft-furred animal with whiskers and a long tail."},
    "describe an animal of the savanna.": {"name": "Lion", "diet": "carnivore", "legs": 4,
                                           "habitat": {"continent": "Africa", "climate": "hot, with a dry and a rainy season"},
                                           "facts": ["Lions live in prides.", "The males have a dark mane.", "They hunt together at dusk."]},
}

CITY_FIELDS = frozenset({"city", "location", "place", "town", "where", "city_name", "location_name"})
QUERY_FIELDS = frozenset({"query", "q", "search", "question", "text", "prompt"})
_CITY = re.compile(r"\b(?:in|at|for|near|from|to)\s+((?:[A-Z][\w'.-]*)(?:\s+[A-Z][\w'.-]*)*)")
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
EXPRESSION_FIELDS = frozenset({"expression", "formula", "calculation", "equation", "math"})
_ARITHMETIC = re.compile(r"[-+(]*\s*\d[\d.\s]*(?:[-+*/×÷^%()]+\s*[\d.(][\d.\s()]*)+")
_CONVERSION = re.compile(r"(-?\d+(?:\.\d+)?)\s*(°?[A-Za-z]+)\s+(?:to|in|into)\s+(°?[A-Za-z]+)")


def key(prompt: str) -> str:
    """The table key of a prompt: case, curly quotes and spacing do not matter."""
    text = unicodedata.normalize("NFKC", prompt).replace("\u2019", "'").replace("\u2018", "'")
    return " ".join(text.lower().split())


SCRIPTED_PROMPT_CHARS = 400
"""Longer prompts are no example (and are not normalised whole)."""


# The Chinese wording of the examples (`scripted_zh`), looked up as the English is.
ANSWERS.update({key(prompt): text for prompt, text in scripted_zh.ANSWERS.items()})
REASONING.update({key(prompt): steps for prompt, steps in scripted_zh.REASONING.items()})
STRUCTURED.update({key(prompt): value for prompt, value in scripted_zh.STRUCTURED.items()})


def answer(prompt: str) -> str | None:
    """The written answer to one of the examples, or None."""
    return ANSWERS.get(key(prompt)) if len(prompt) <= SCRIPTED_PROMPT_CHARS else None


def reasoning(prompt: str) -> tuple[str, ...] | None:
    return REASONING.get(key(prompt)) if len(prompt) <= SCRIPTED_PROMPT_CHARS else None


def city_in(prompt: str) -> str | None:
    """The place a sentence names ("the weather in Paris right now" -> "Paris")."""
    match = _CITY.search(prompt)
    if match:
        return match.group(1).rstrip(".?!'")
    words = re.findall(r"(?<!^)(?<![.?!]\s)\b[A-Z][a-z]+", prompt)
    return words[0] if words else None


def arithmetic_in(prompt: str) -> str | None:
    """The longest arithmetic expression a sentence holds ("what is 17*23?" -> "17*23")."""
    found = [match.group(0).strip() for match in _ARITHMETIC.finditer(prompt)]
    return max(found, key=len) if found else None


def _numbers(prompt: str) -> list[float]:
    return [float(n) for n in _NUMBER.findall(prompt)]


def _fits(value: float, schema: dict[str, Any]) -> bool:
    low, high = schema.get("minimum"), schema.get("maximum")
    return (low is None or value >= low) and (high is None or value <= high)


def _from_prompt(name: str, schema: Any, prompt: str, numbers: list[float]) -> tuple[bool, Any]:
    if not isinstance(schema, dict):
        return False, None
    kind = schema.get("type")
    if kind == "string" and not schema.get("enum") and not schema.get("format"):
        if name.lower() in EXPRESSION_FIELDS and (expression := arithmetic_in(prompt)):
            return True, expression
        if name.lower() in ("from_unit", "to_unit") and (units := _CONVERSION.search(prompt)):
            return True, units.group(2) if name.lower() == "from_unit" else units.group(3)
        if name.lower() in CITY_FIELDS and (city := city_in(prompt)):
            return True, city
        if name.lower() in QUERY_FIELDS:
            return True, prompt.strip()
    if kind in ("integer", "number") and numbers:
        value = numbers[0]
        if kind == "integer" and not value.is_integer():
            return False, None
        if _fits(value, schema):
            numbers.pop(0)
            return True, int(value) if kind == "integer" else value
    return False, None


def tool_arguments(schema: Any, prompt: str) -> Any:
    """Arguments that validate against `schema`, taken from the prompt where it says them."""
    value = schema_fill.fill(schema, prompt[:60])
    if not isinstance(schema, dict) or not isinstance(value, dict):
        return value
    numbers = _numbers(prompt)
    for name, field_schema in (schema.get("properties") or {}).items():
        if name in value:
            found, chosen = _from_prompt(name, field_schema, prompt, numbers)
            if found:
                value[name] = chosen
    return value


def structured(schema: Any, prompt: str) -> Any:
    """Structured output for a schema: the scripted values where the schema asks for them."""
    value = tool_arguments(schema, prompt)
    known = STRUCTURED.get(key(prompt))
    if not known or not isinstance(value, dict) or not isinstance(schema, dict):
        return value
    types = {"string": str, "integer": int, "number": (int, float), "boolean": bool, "object": dict, "array": list}
    for name, field_schema in (schema.get("properties") or {}).items():
        wanted = types.get(field_schema.get("type") if isinstance(field_schema, dict) else None)
        if name in value and name in known and wanted and isinstance(known[name], wanted):
            value[name] = known[name]
    return value


def _units(name: str, value: Any) -> str:
    label = name.replace("_", " ")
    for suffix, unit in ((" c", " °C"), (" f", " °F"), (" pct", "%"), (" percent", "%"), (" kmh", " km/h")):
        if label.endswith(suffix):
            return f"{label[: -len(suffix)]} {value}{unit}"
    return f"{label} {value}"


def tool_answer(results: list[tuple[str, str]]) -> str:
    """A sentence built from what the tools returned (JSON objects read out field by field)."""
    said = []
    for name, content in results:
        try:
            data = json.loads(content)
        except ValueError:
            data = content.strip()
        if isinstance(data, dict) and data:
            shown = ", ".join(_units(str(k), v) for k, v in data.items() if not isinstance(v, (dict, list)))
        else:
            shown = str(data)
        said.append(f"{name or 'the tool'} reports {shown or 'nothing'}")
    if not said:
        return "The tool returned nothing."
    text = "; ".join(said) + "."
    return text[0].upper() + text[1:] if text.startswith("the tool") else text
