"""Clickable examples for people who do not write JSON: each fills a tab's form (and its input)
and says in one line what it shows. A tab declares its examples and, once its form exists, the
fields they fill by name."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import gradio as gr


@dataclass(frozen=True)
class Example:
    label: str
    explains: str
    values: dict[str, Any] = field(default_factory=dict)
    """Field name -> value; a conversation input takes `{"text": ..., "files": []}`."""


@dataclass
class ExampleRow:
    examples: list[Example]
    buttons: list[gr.Button]

    @classmethod
    def build(cls, prefix: str, examples: list[Example]) -> ExampleRow:
        """Lay out a row of example buttons with their one-line explanations."""
        buttons = []
        with gr.Row(elem_id=f"{prefix}-examples", elem_classes=["example-row"]):
            for index, example in enumerate(examples):
                with gr.Column(min_width=150, elem_classes=["example-card"]):
                    buttons.append(gr.Button(example.label, size="sm", elem_id=f"{prefix}-example-{index}"))
                    gr.Markdown(example.explains, elem_classes=["example-explains"])
        return cls(examples, buttons)

    def wire(self, fields: dict[str, Any]) -> None:
        """Clicking an example sets the fields it names (and leaves the others as they are)."""
        for example, button in zip(self.examples, self.buttons):
            unknown = set(example.values) - set(fields)
            if unknown:
                raise ValueError(f"example {example.label!r} names fields the tab does not have: {sorted(unknown)}")
            button.click(None, None, [fields[name] for name in example.values], js=browser_filler(list(example.values.values())))


def browser_filler(values: list[Any]) -> str:
    """A `js=` function that returns `values`: the browser fills the fields itself, so an Enter
    pressed right after the click sends the example even when the server is busy."""
    return f"() => {json.dumps(values if len(values) > 1 else values[0], ensure_ascii=False)}"
