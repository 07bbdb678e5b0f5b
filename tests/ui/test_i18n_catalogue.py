"""The interface's words come from one catalogue (`playground/ui/i18n.py`) in English and
Simplified Chinese: no key is missing in either language, every key the code asks for exists, and
the converted modules write no interface text outside the catalogue."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from playground.ui import i18n

ROOT = Path(__file__).resolve().parents[2]
TEXT_KEYWORDS = {"label", "info", "placeholder"}
SHOWN_VALUE = {"Button", "Markdown", "HTML", "UploadButton"}
"""Components whose value is text the interface writes (a Textbox's or Dropdown's value is data)."""
TEXT_FIRST_ARG = {"Accordion", "Tab", "Checkbox"} | SHOWN_VALUE
"""Components whose first positional argument is a label or shown text."""


def module_path(name: str) -> Path:
    return ROOT / (name.replace(".", "/") + ".py")


def is_text(node: ast.AST) -> bool:
    """A literal an interface would show: a non-empty string or an f-string."""
    return (isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.strip() != "") or isinstance(node, ast.JoinedStr)


def written_outside(tree: ast.AST) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        gradio = isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "gr"
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if gradio:
            texts = [kw.value for kw in node.keywords if kw.arg in TEXT_KEYWORDS or (kw.arg == "value" and name in SHOWN_VALUE)]
            if name in TEXT_FIRST_ARG and node.args:
                texts.append(node.args[0])
        elif name == "Example":
            texts = list(node.args[:2])
        else:
            continue
        found += [f"line {text.lineno}: gr.{name}({ast.unparse(text)[:60]})" for text in texts if is_text(text)]
    return found


def test_both_languages_have_every_key() -> None:
    assert set(i18n.EN) == set(i18n.ZH), f"missing in Chinese: {sorted(set(i18n.EN) - set(i18n.ZH))}; missing in English: {sorted(set(i18n.ZH) - set(i18n.EN))}"
    assert all(value.strip() for value in [*i18n.EN.values(), *i18n.ZH.values()])
    assert set(i18n.I18N.translations_dict) >= {"en", "zh-CN"}


def test_every_key_the_code_asks_for_is_in_the_catalogue() -> None:
    used = set()
    for path in (ROOT / "playground" / "ui").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "t" and node.args:
                if isinstance(node.args[0], ast.Constant):
                    used.add(node.args[0].value)
    assert used, "no module uses the catalogue"
    assert used <= set(i18n.EN), f"keys not in the catalogue: {sorted(used - set(i18n.EN))}"


@pytest.mark.parametrize("module", i18n.CONVERTED_MODULES)
def test_converted_modules_write_no_interface_text_outside_the_catalogue(module: str) -> None:
    importlib.import_module(module)
    found = written_outside(ast.parse(module_path(module).read_text(encoding="utf-8")))
    assert not found, f"{module} writes interface text outside the catalogue:\n" + "\n".join(found)


def test_an_unknown_key_fails_at_once() -> None:
    with pytest.raises(KeyError):
        i18n.t("no.such.key")
