"""The layers hold (pyproject.toml's import-linter contracts): the UI talks to the client and
never the other way, the client and the demo gateway know nothing of Gradio or of each other,
inside the UI tabs sit over session files over the conversation over the shared widgets over the
words and the web layer, and no sibling modules or packages import each other in a circle."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_import_contracts_are_kept() -> None:
    done = subprocess.run([sys.executable, "-c", "from importlinter.cli import lint_imports_command; lint_imports_command()"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
