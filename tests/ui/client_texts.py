"""The prose written in English outside the UI's catalogue, as templates: every string and
f-string with words in it (docstrings, log lines, markup and code excepted) of `playground/client`
and of the UI's modules (`ui_modules`), as an f-string's body: each value as `{expression}`, a
literal brace doubled, exactly as `locales/client.<code>.json` keys their words (`playground.ui.i18n.client_words`).

`python -m tests.ui.client_texts [path …]` prints the templates of those files that some
language has no words for yet and are not marked never shown.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

from playground.ui.i18n.client_words import split_template

ROOT = Path(__file__).resolve().parents[2]
CLIENT = ROOT / "playground" / "client"
UI = ROOT / "playground" / "ui"
WORDS = UI / "i18n"
CODE_MODULES = ("codegen", "language", "client_words", "scrolling", "draft_keys", "worded_defaults")
"""UI modules whose texts are code (the inspector's curl and Python, the browser's JavaScript) or the wording itself."""
PROSE = re.compile(r"[A-Za-z]{2,}[,;:]? +[A-Za-z({“\"'][A-Za-z]")
NOT_PROSE_CALLS = re.compile(r"(^|\.)(log|logger|logging)\.|\.(startswith|endswith|removeprefix|removesuffix|split|replace|strip|rstrip|lstrip|match|search|sub|compile|fullmatch)$")


def _literal(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


def template(node: ast.AST) -> str | None:
    """The text of a string, an f-string or a `+` chain holding one, each value as `{its source}`;
    None for anything else."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return _literal(node.value)
    if isinstance(node, ast.JoinedStr):
        return "".join(_literal(part.value) if isinstance(part, ast.Constant) else "{" + ast.unparse(part.value) + "}" for part in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = template(node.left), template(node.right)
        if left is None and right is None:
            return None
        return (left if left is not None else "{" + ast.unparse(node.left) + "}") + (right if right is not None else "{" + ast.unparse(node.right) + "}")
    return None


def _skipped_nodes(tree: ast.AST) -> set[int]:
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):  # docstrings, attribute notes
            skipped.add(id(node.value))
        if isinstance(node, ast.JoinedStr):
            skipped.update(id(part) for part in node.values)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and template(node) is not None:
            skipped.update(id(child) for child in ast.walk(node) if child is not node)
        if isinstance(node, ast.Call) and NOT_PROSE_CALLS.search(ast.unparse(node.func)):
            skipped.update(id(arg) for arg in ast.walk(node) if arg is not node.func)
        if isinstance(node, ast.Subscript):
            skipped.update(id(child) for child in ast.walk(node.slice))
        if isinstance(node, ast.Compare):
            skipped.update(id(child) for child in ast.walk(node))
    return skipped


def is_prose(text: str) -> bool:
    bare = "".join(part if kind == "text" else " " for kind, part in split_template(text))
    return bool(PROSE.search(bare)) and not bare.lstrip().startswith(("<", "#!", "import ", "from ", "curl ")) and not re.search(r"\n    |\{\{\n|\{\{[a-z-]+:[^ ]", text)


def ui_modules() -> list[Path]:
    """The UI's modules, but for the catalogue itself and the modules whose texts are code."""
    return [path for path in sorted(UI.rglob("*.py")) if path.stem not in CODE_MODULES and WORDS not in path.parents]


def prose_in(source: str) -> list[tuple[int, str]]:
    """(line, template) for every prose text of one module's source."""
    tree = ast.parse(source)
    skipped = _skipped_nodes(tree)
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        text = template(node)
        if text is not None and is_prose(text):
            found.append((node.lineno, text))
    return found


def client_templates(paths: list[Path] | None = None) -> list[tuple[str, int, str]]:
    """(file, line, template) for every prose text of the client and the UI's modules, in file order."""
    found: list[tuple[str, int, str]] = []
    for path in paths or [*sorted(CLIENT.rglob("*.py")), *ui_modules()]:
        file = str(path.relative_to(ROOT))
        found += [(file, line, text) for line, text in prose_in(path.read_text(encoding="utf-8"))]
    return sorted(found, key=lambda row: (row[0], row[1]))


if __name__ == "__main__":
    from playground.ui.i18n import CATALOGUE
    from playground.ui.i18n.client_words import NOT_SHOWN

    chosen = [Path(arg).resolve() for arg in sys.argv[1:]] or None
    for file, line, text in client_templates(chosen):
        if any(text not in words for words in CATALOGUE.client.values()) and text not in NOT_SHOWN:
            print(f"{file}:{line}\t{text!r}")
