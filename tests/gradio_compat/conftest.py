"""The internals check runs before every other test of the suite: when a Gradio upgrade moved what
a patch relies on, the first failure names the patch, not a behaviour far from it."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    first = [item for item in items if item.path.name == "test_internals.py" and item.path.parent.name == "gradio_compat"]
    chosen = {id(item) for item in first}
    items[:] = first + [item for item in items if id(item) not in chosen]
