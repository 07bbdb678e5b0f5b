"""The demo MCP server's tools as plain functions: a calculator, a unit converter and a lookup
in a tiny table of chemical elements. Arguments they cannot use raise `ToolError` with a
sentence the model (and the person watching) can read."""

from __future__ import annotations

import ast
import math
import operator
import re
from collections.abc import Callable
from typing import Any

from mcp.server.mcpserver.exceptions import ToolError

MAX_EXPRESSION_CHARS = 200
MAX_EXPONENT = 100
MAX_MAGNITUDE = 1e100

_BINARY: dict[type[ast.operator], Callable[[Any, Any], Any]] = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
           ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow}
_UNARY: dict[type[ast.unaryop], Callable[[Any], Any]] = {ast.UAdd: operator.pos, ast.USub: operator.neg}
_FUNCTIONS: dict[str, Callable[[Any], Any]] = {"sqrt": math.sqrt, "abs": abs, "round": round}


def calculate(expression: str) -> dict[str, Any]:
    """Work out an arithmetic expression: numbers, + - * / // % **, brackets, sqrt(), abs(), round()."""
    text = expression.strip().replace("×", "*").replace("÷", "/").replace("^", "**")
    if not text:
        raise ToolError("The expression is empty: give one such as 17 * 23.")
    if len(text) > MAX_EXPRESSION_CHARS:
        raise ToolError(f"The expression is {len(text)} characters long; this calculator takes at most {MAX_EXPRESSION_CHARS}.")
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError:
        raise ToolError(f"'{text}' is not an arithmetic expression: use numbers, + - * / ** and brackets, e.g. (2 + 3) * 4.") from None
    value = _evaluate(tree.body)
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        value = int(value)
    return {"expression": text, "result": value}


def _evaluate(node: ast.AST) -> float | int:
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _evaluate(node.left), _evaluate(node.right)
        if isinstance(node.op, ast.Pow) and abs(right) > MAX_EXPONENT:
            raise ToolError(f"The exponent {right} is too large: this calculator takes powers up to {MAX_EXPONENT}.")
        try:
            value = _BINARY[type(node.op)](left, right)
        except ZeroDivisionError:
            raise ToolError("The expression divides by zero, which has no answer.") from None
        return _bounded(value)
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _UNARY[type(node.op)](_evaluate(node.operand))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _FUNCTIONS and len(node.args) == 1 and not node.keywords:
        argument = _evaluate(node.args[0])
        if node.func.id == "sqrt" and argument < 0:
            raise ToolError(f"The square root of a negative number ({argument}) is not a real number.")
        return _bounded(_FUNCTIONS[node.func.id](argument))
    shown = ast.unparse(node) if isinstance(node, ast.expr) else type(node).__name__
    raise ToolError(f"'{shown}' is not something this calculator knows: use numbers, + - * / // % **, brackets, sqrt(), abs() and round().")


def _bounded(value: Any) -> float | int:
    if isinstance(value, complex) or not math.isfinite(value) or abs(value) > MAX_MAGNITUDE:
        raise ToolError("The result is too large (or not a real number) for this calculator.")
    return float(value) if isinstance(value, float) else int(value)


# Each unit: its kind and its size in the kind's base unit (metre, kilogram, litre, second).
_UNITS: dict[str, tuple[str, float]] = {
    "mm": ("length", 0.001), "cm": ("length", 0.01), "m": ("length", 1.0), "km": ("length", 1000.0),
    "in": ("length", 0.0254), "ft": ("length", 0.3048), "yd": ("length", 0.9144), "mi": ("length", 1609.344),
    "g": ("mass", 0.001), "kg": ("mass", 1.0), "lb": ("mass", 0.45359237), "oz": ("mass", 0.028349523125),
    "ml": ("volume", 0.001), "l": ("volume", 1.0), "gal": ("volume", 3.785411784), "cup": ("volume", 0.2365882365),
    "s": ("time", 1.0), "min": ("time", 60.0), "h": ("time", 3600.0), "day": ("time", 86400.0),
}
_TEMPERATURES = ("c", "f", "k")
_ALIASES = {"metre": "m", "meter": "m", "metres": "m", "meters": "m", "kilometre": "km", "kilometer": "km", "kilometres": "km",
            "kilometers": "km", "mile": "mi", "miles": "mi", "foot": "ft", "feet": "ft", "inch": "in", "inches": "in",
            "centimetre": "cm", "centimeter": "cm", "centimetres": "cm", "centimeters": "cm", "yard": "yd", "yards": "yd",
            "gram": "g", "grams": "g", "kilogram": "kg", "kilograms": "kg", "pound": "lb", "pounds": "lb", "lbs": "lb",
            "ounce": "oz", "ounces": "oz", "litre": "l", "liter": "l", "litres": "l", "liters": "l", "gallon": "gal",
            "gallons": "gal", "cups": "cup", "second": "s", "seconds": "s", "minute": "min", "minutes": "min",
            "hour": "h", "hours": "h", "days": "day", "celsius": "c", "°c": "c", "fahrenheit": "f", "°f": "f", "kelvin": "k"}


def _unit(name: str) -> str:
    unit = name.strip().lower()
    unit = _ALIASES.get(unit, unit)
    if unit not in _UNITS and unit not in _TEMPERATURES:
        known = ", ".join([*_UNITS, "C", "F", "K"])
        raise ToolError(f"'{name}' is not a unit this converter knows. Known units: {known}.")
    return unit


def convert_units(value: float, from_unit: str, to_unit: str) -> dict[str, Any]:
    """Convert a quantity between units of length, mass, volume, time or temperature (C, F, K)."""
    if not math.isfinite(value):
        raise ToolError("The value must be a finite number.")
    source, target = _unit(from_unit), _unit(to_unit)
    if source in _TEMPERATURES or target in _TEMPERATURES:
        if not (source in _TEMPERATURES and target in _TEMPERATURES):
            raise ToolError(f"Cannot convert {from_unit} to {to_unit}: a temperature converts only to another temperature (C, F, K).")
        kelvin = {"c": value + 273.15, "f": (value - 32) * 5 / 9 + 273.15, "k": value}[source]
        if kelvin < 0:
            raise ToolError(f"{value} {from_unit} is below absolute zero.")
        result = {"c": kelvin - 273.15, "f": (kelvin - 273.15) * 9 / 5 + 32, "k": kelvin}[target]
    else:
        (source_kind, source_size), (target_kind, target_size) = _UNITS[source], _UNITS[target]
        if source_kind != target_kind:
            raise ToolError(f"Cannot convert {from_unit} ({source_kind}) to {to_unit} ({target_kind}): they measure different things.")
        result = value * source_size / target_size
    return {"value": value, "from_unit": from_unit, "to_unit": to_unit, "result": round(result, 6)}


# A tiny table: the first twelve chemical elements.
ELEMENTS: tuple[dict[str, Any], ...] = (
    {"number": 1, "symbol": "H", "name": "hydrogen", "mass": 1.008, "group": "nonmetal"},
    {"number": 2, "symbol": "He", "name": "helium", "mass": 4.0026, "group": "noble gas"},
    {"number": 3, "symbol": "Li", "name": "lithium", "mass": 6.94, "group": "alkali metal"},
    {"number": 4, "symbol": "Be", "name": "beryllium", "mass": 9.0122, "group": "alkaline earth metal"},
    {"number": 5, "symbol": "B", "name": "boron", "mass": 10.81, "group": "metalloid"},
    {"number": 6, "symbol": "C", "name": "carbon", "mass": 12.011, "group": "nonmetal"},
    {"number": 7, "symbol": "N", "name": "nitrogen", "mass": 14.007, "group": "nonmetal"},
    {"number": 8, "symbol": "O", "name": "oxygen", "mass": 15.999, "group": "nonmetal"},
    {"number": 9, "symbol": "F", "name": "fluorine", "mass": 18.998, "group": "halogen"},
    {"number": 10, "symbol": "Ne", "name": "neon", "mass": 20.180, "group": "noble gas"},
    {"number": 11, "symbol": "Na", "name": "sodium", "mass": 22.990, "group": "alkali metal"},
    {"number": 12, "symbol": "Mg", "name": "magnesium", "mass": 24.305, "group": "alkaline earth metal"},
)


def lookup_element(query: str) -> dict[str, Any]:
    """Look up one of the first twelve chemical elements by name, symbol or atomic number (or a
    sentence that names one)."""
    wanted = query.strip().lower()
    for element in ELEMENTS:
        if wanted in (element["name"], element["symbol"].lower(), str(element["number"])):
            return dict(element)
    words = set(re.findall(r"[a-z]+", wanted))
    for element in ELEMENTS:  # a sentence naming one ("look up the element sodium")
        if element["name"] in words:
            return dict(element)
    names = ", ".join(element["name"] for element in ELEMENTS)
    raise ToolError(f"'{query}' is not in this table. It holds the first twelve elements: {names}.")
