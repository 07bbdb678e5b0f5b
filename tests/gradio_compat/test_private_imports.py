"""Only `playground/gradio_compat` touches Gradio's private modules: every other module of the
app (and `app.py`) uses Gradio's public API, what `import gradio as gr` offers as `gr.X`
(`gradio.__all__`) plus the public classes of `gradio.components` and `gradio.themes`."""

from __future__ import annotations

import ast
from pathlib import Path

import gradio
import gradio.components
import gradio.themes
import gradio_client

ROOT = Path(__file__).resolve().parents[2]
QUARANTINE = ROOT / "playground" / "gradio_compat"
PUBLIC_PACKAGES = {"gradio.components": gradio.components, "gradio.themes": gradio.themes}
PUBLIC_NAMES = {"gradio": set(gradio.__all__) | {"__version__", "components", "themes"},
                "gradio_client": set(gradio_client.__all__) | {"__version__"}}


def public_in(package: object, name: str) -> bool:
    return not name.startswith("_") and hasattr(package, name) and not isinstance(getattr(package, name), type(gradio))


def private_gradio_uses(source: str) -> list[str]:
    """Each import of a private Gradio module or name in `source`, and each `gr.<private module>`."""
    found = []
    aliases: dict[str, str] = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")[0]
                if top in PUBLIC_NAMES and alias.name != top and alias.name not in PUBLIC_PACKAGES:
                    found.append(f"line {node.lineno}: import {alias.name}")
                elif alias.name in PUBLIC_NAMES:
                    aliases[alias.asname or alias.name] = alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in PUBLIC_NAMES:
            for alias in node.names:
                if node.module in PUBLIC_NAMES:
                    public = alias.name in PUBLIC_NAMES[node.module]
                elif node.module in PUBLIC_PACKAGES:
                    public = public_in(PUBLIC_PACKAGES[node.module], alias.name)
                else:
                    public = False
                if not public:
                    found.append(f"line {node.lineno}: from {node.module} import {alias.name}")
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases and node.attr not in PUBLIC_NAMES[aliases[node.value.id]]:
            found.append(f"line {node.lineno}: {node.value.id}.{node.attr}")
    return found


def app_modules() -> list[Path]:
    return [ROOT / "app.py", *(path for path in sorted((ROOT / "playground").rglob("*.py")) if QUARANTINE not in path.parents)]


def test_no_module_outside_gradio_compat_uses_a_private_gradio_name() -> None:
    found = {str(path.relative_to(ROOT)): uses for path in app_modules() if (uses := private_gradio_uses(path.read_text(encoding="utf-8")))}
    assert not found, f"private Gradio names outside playground/gradio_compat (ask gradio_compat for them): {found}"


def test_the_check_sees_each_way_of_reaching_a_private_name() -> None:
    source = """
import gradio as gr
import gradio.context
from gradio import processing_utils, Blocks
from gradio.i18n import I18nData
from gradio.components import Chatbot, chatbot
from gradio.themes import Soft
from gradio_client.utils import apply_diff
request = gr.context.LocalContext.request
box = gr.Textbox(label=gr.__version__)
theme = gr.themes.Soft()
"""
    assert private_gradio_uses(source) == [
        "line 3: import gradio.context", "line 4: from gradio import processing_utils", "line 5: from gradio.i18n import I18nData",
        "line 6: from gradio.components import chatbot", "line 8: from gradio_client.utils import apply_diff", "line 9: gr.context"]
