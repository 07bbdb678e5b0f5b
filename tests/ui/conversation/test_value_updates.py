"""An action's updates change a component's value with the value itself: a `gr.update` that
carries only a value makes Gradio build the component anew (issue 41)."""

from __future__ import annotations

from typing import Any

import pytest

from playground.ui.conversation.handlers import BEGIN_OUTPUTS, begin_outputs
from playground.ui.conversation.turns import Session, View


def value_only(update: Any) -> bool:
    return isinstance(update, dict) and update.get("__type__") == "update" and set(update) == {"__type__", "value"}


@pytest.mark.parametrize("clears", ["draft", "tool", "both", "none"])
@pytest.mark.parametrize("error", ["", "**The gateway said no**"])
def test_no_begin_output_is_an_update_of_the_value_alone(clears: str, error: str) -> None:
    view = View([], Session(), error=error, clear_draft=True)
    outputs = dict(zip(BEGIN_OUTPUTS, begin_outputs(view, clears), strict=True))
    assert not [name for name, update in outputs.items() if value_only(update)]
    if clears in ("tool", "both"):
        assert outputs["tool_result"] == ""  # the tool box is still emptied
