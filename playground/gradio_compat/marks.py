"""The one mark every patch leaves on what it installs: the patch's name, and what it replaced.

A patch is installed once: it checks for its mark before replacing anything (`patch_of`), so applying
twice changes nothing, and a test that swapped the original for its own stand-in gets it wrapped
like the original. `unpatched` follows the marks back to Gradio's own object, which is what the
internals check (`internals.py`) compares with the recorded signatures.
"""

from __future__ import annotations

from typing import Any, TypeVar

MARK = "_playground_patch"
ORIGINAL = "_playground_original"

T = TypeVar("T")


def mark(replacement: T, patch: str, original: Any = None) -> T:
    """Label `replacement` as installed by `patch`, remembering the `original` it stands in for."""
    setattr(replacement, MARK, patch)
    if original is not None:
        setattr(replacement, ORIGINAL, original)
    return replacement


def patch_of(target: Any) -> str | None:
    """The patch that installed `target`, or None for Gradio's own."""
    found = getattr(target, MARK, None)
    return found if isinstance(found, str) else None


def unpatched(target: Any) -> Any:
    """Gradio's own object behind `target` (itself when no patch replaced it)."""
    while patch_of(target) is not None and ORIGINAL in vars(target):
        target = vars(target)[ORIGINAL]
    return target
