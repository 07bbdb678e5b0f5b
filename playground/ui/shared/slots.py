"""Which of a form's pre-built slots are on screen (Compare's and Batch's columns, Batch's graders):
the ones in use (a column with a format and a model, a grader with a kind), at least one, and as many
more as "Add a column" / "Add a grader" asked for. Gradio cannot add components cheaply at run time,
so every slot is built once and shown or hidden by these counts. Plain functions, no events."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gradio as gr


def graders_in_use(kinds: Sequence[Any]) -> int:
    """How many grader slots (their kind boxes, in order) up to the last one with a kind."""
    used = [index for index, kind in enumerate(kinds) if kind]
    return used[-1] + 1 if used else 0


def shown_count(added: Any, in_use: int, total: int) -> int:
    """Slots on screen: those in use or asked for, at least one, at most `total`."""
    asked = added if isinstance(added, int) and not isinstance(added, bool) else 0
    return max(1, min(total, max(asked, in_use)))


def visibility(count: int, total: int) -> list[Any]:
    """One update per slot: the first `count` shown, the rest hidden."""
    return [gr.update(visible=index < count) for index in range(total)]


def add_button(count: int, total: int) -> Any:
    """The "Add" button, hidden once every slot is on screen."""
    return gr.update(visible=count < total)


def shown(added: Any, in_use: int, total: int) -> tuple[Any, ...]:
    """Each slot's visibility, then the "Add" button's."""
    count = shown_count(added, in_use, total)
    return (*visibility(count, total), add_button(count, total))


def one_more(added: Any, in_use: int, total: int) -> tuple[Any, ...]:
    """"Add" pressed: the count asked for (one more than on screen), each slot's visibility, the button's."""
    count = min(total, shown_count(added, in_use, total) + 1)
    return (count, *shown(count, in_use, total))
