"""Arithmetic the demo works out exactly: an expression in the question, in symbols or words
(12 times 7, 15% of 240, the square root of 144, 3 的平方, 100 除以 8), evaluated by a small
checked evaluator (numbers, + - * / ** %, sqrt; bounded size and magnitude), never `eval`."""

from __future__ import annotations

import ast
import math
import re

from playground.demo_gateway.answer_kit import HEAD, Found, grouped, number

MAX_EXPRESSION = 120
MAX_MAGNITUDE = 1e15
_REPLACE_EN = (
    (r"\bmultiplied by\b", "*"), (r"\btimes\b", "*"), (r"\bdivided by\b", "/"), (r"\bover\b(?=\s*\d)", "/"),
    (r"\bplus\b", "+"), (r"\bminus\b", "-"), (r"\bsquared\b", "**2"), (r"\bcubed\b", "**3"),
    (r"\bto the power of\b", "**"), (r"\bmod(?:ulo)?\b", "%"), (r"(?<=[\d)])\s*[xX]\s*(?=[\d(])", "*"),
)
_REPLACE_ZH = (("乘以", "*"), ("除以", "/"), ("加上", "+"), ("减去", "-"), ("乘", "*"), ("加", "+"), ("减", "-"),
               ("的平方根", "§"), ("的平方", "**2"), ("的立方", "**3"))
_SYMBOLS = str.maketrans({"×": "*", "÷": "/", "^": "^", "−": "-", "（": "(", "）": ")", "＋": "+", "＝": "=", "∗": "*"})
_NUM = r"\d+(?:\.\d+)?"
_PERCENT_EN = re.compile(rf"({_NUM})\s*(?:%|percent|per cent)\s+of\s+({_NUM})")
_PERCENT_ZH = re.compile(rf"({_NUM})\s*的\s*(?:百分之\s*({_NUM})|({_NUM})\s*%)")
_SQRT = re.compile(rf"(?:square root of|sqrt|√|根号)\s*\(?\s*({_NUM})\s*\)?")
_RUN = re.compile(r"[\d.()+\-*/%√\s]+")
_OPERATOR = re.compile(r"\d\s*\)?\s*(?:\*\*|[+\-*/%])\s*\(?\s*[\d√]|√\s*\(?\d")
_CUE = re.compile(r"what|how much|calculate|compute|work out|solve|equals?|is|=|\?|多少|等于|计算|算", re.IGNORECASE)


class _Unsafe(Exception):
    pass


def _value(node: ast.AST) -> float:
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return float(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        inner = _value(node.operand)
        return -inner if isinstance(node.op, ast.USub) else inner
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "sqrt" and len(node.args) == 1:
        inner = _value(node.args[0])
        if inner < 0:
            raise _Unsafe("negative square root")
        return math.sqrt(inner)
    if isinstance(node, ast.BinOp):
        left, right = _value(node.left), _value(node.right)
        if isinstance(node.op, ast.Pow):
            if abs(right) > 64 or abs(left) > 1e6:
                raise _Unsafe("too large")
            result = left**right
        elif isinstance(node.op, ast.Add):
            result = left + right
        elif isinstance(node.op, ast.Sub):
            result = left - right
        elif isinstance(node.op, ast.Mult):
            result = left * right
        elif isinstance(node.op, (ast.Div, ast.Mod)):
            if right == 0:
                raise ZeroDivisionError
            result = left / right if isinstance(node.op, ast.Div) else left % right
        else:
            raise _Unsafe("operator")
        if isinstance(result, complex) or abs(result) > MAX_MAGNITUDE:
            raise _Unsafe("too large")
        return float(result)
    raise _Unsafe("node")


def _prepared(text: str, zh: bool) -> str:
    text = text.translate(_SYMBOLS).replace("^", "**")
    text = re.sub(r"(?<=\d),(?=\d{3}(?!\d))", "", text)
    if zh:
        text = _PERCENT_ZH.sub(lambda m: f"({m[2] or m[3]}/100*{m[1]})", text)
        text = re.sub(rf"({_NUM})\s*的平方根", r"√(\1)", text)
        for word, symbol in _REPLACE_ZH:
            text = text.replace(word, symbol)
    else:
        text = _PERCENT_EN.sub(r"(\1/100*\2)", text.lower())
        for pattern, symbol in _REPLACE_EN:
            text = re.sub(pattern, symbol, text)
    return _SQRT.sub(r"√(\1)", text)


def _expression(text: str) -> str | None:
    best = None
    for match in _RUN.finditer(text):
        run = match.group(0).strip().strip(".")
        while run.count("(") > run.count(")") and run.startswith("("):
            run = run[1:].strip()
        while run.count(")") > run.count("(") and run.endswith(")"):
            run = run[:-1].strip()
        if _OPERATOR.search(run) and (best is None or len(run) > len(best)):
            best = run
    return best if best is not None and len(best) <= MAX_EXPRESSION else None


def _shown(expression: str) -> str:
    shown = expression.replace("**", "^").replace("*", " × ").replace("/", " ÷ ").replace("√", "√")
    shown = re.sub(r"\s*([+\-%^])\s*", r" \1 ", shown)
    shown = re.sub(r"\((\d+(?:\.\d+)?) ÷ 100 × (\d+(?:\.\d+)?)\)", r"\1% × \2", re.sub(r"\s+", " ", shown))
    return re.sub(r"\s+", " ", shown).replace("( ", "(").replace(" )", ")").strip()


def solve(prompt: str, zh: bool) -> Found | None:
    """The value of the arithmetic in a question, or None when there is none."""
    text = prompt[:HEAD]
    if not re.search(r"\d", text) or not _CUE.search(text):
        return None
    expression = _expression(_prepared(text, zh))
    if expression is None:
        return None
    try:
        tree = ast.parse(expression.replace("√", "sqrt"), mode="eval")
        value = _value(tree.body)
    except ZeroDivisionError:
        return Found("arithmetic", "undefined", "除数不能为零，这个算式没有结果。" if zh else "That divides by zero, which has no answer.", zh=zh)
    except (SyntaxError, _Unsafe, OverflowError, ValueError, RecursionError):
        return None
    shown = _shown(expression)
    result = number(value)
    if zh:
        return Found("arithmetic", result, f"{shown} = {result}", f"计算：{shown} = {result}。", zh=True)
    return Found("arithmetic", result, f"{shown} = {grouped(value, False)}", f"Working it out: {shown} = {result}.")
