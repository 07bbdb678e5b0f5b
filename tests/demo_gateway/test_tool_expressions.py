"""The demo gateway fills a calculator's expression and a converter's units from the prompt, so a
tool offered from the demo MCP server gets arguments it can use."""

from __future__ import annotations

import pytest

from playground.demo_gateway.scripted import tool_arguments

CALCULATOR = {"type": "object", "properties": {"expression": {"type": "string"}}, "required": ["expression"]}
CONVERTER = {"type": "object", "properties": {"value": {"type": "number"}, "from_unit": {"type": "string"}, "to_unit": {"type": "string"}},
             "required": ["value", "from_unit", "to_unit"]}


@pytest.mark.parametrize(("prompt", "expression"), [
    ("What is 17*23 with the calculator?", "17*23"),
    ("Use the calculator: (2 + 3) * 4 - 1", "(2 + 3) * 4 - 1"),
    ("calculator, please: 12.5 / 5 and nothing else", "12.5 / 5"),
])
def test_an_expression_field_gets_the_arithmetic_of_the_prompt(prompt: str, expression: str) -> None:
    assert tool_arguments(CALCULATOR, prompt) == {"expression": expression}


def test_unit_fields_get_the_units_the_prompt_names() -> None:
    assert tool_arguments(CONVERTER, "Convert 10 km to mi with convert_units") == {"value": 10.0, "from_unit": "km", "to_unit": "mi"}
    assert tool_arguments(CONVERTER, "convert_units: 100 F in C") == {"value": 100.0, "from_unit": "F", "to_unit": "C"}
