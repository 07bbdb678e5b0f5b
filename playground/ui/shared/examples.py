"""Clickable examples for people who do not write JSON: each fills a tab's form (and its input)
and says in one line what it shows. A tab declares its examples and, once its form exists, all
its fields by name: an example sets the ones it names and resets the others to the tab's defaults.
A value that is words (`Said`, a catalogue key: the question an example asks) is filled in the page's
language at the moment of the click, read by the page itself (its cookie, as the header's switch keeps
it), so it follows the switch with no server step."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import gradio as gr

from playground.ui.i18n import t, words_in_every_language
from playground.ui.shared.scrolling import scroll_statement
from playground.ui.shared.worded_defaults import worded_fill_js


@dataclass(frozen=True)
class Said:
    """An example's value in words: the catalogue's text `key`, filled in the page's language when clicked."""

    key: str


@dataclass(frozen=True)
class Example:
    label: str
    explains: str
    values: dict[str, Any] = field(default_factory=dict)
    """Field name -> value; a conversation input takes `{"text": ..., "files": []}`."""


RESETS = "examples.resets"
"""The catalogue key of the note under a row of examples."""


def initial_value(component: Any) -> Any:
    """The value a component was created with (the tab's default), as a fill would send it."""
    value = getattr(component, "value", None)
    if callable(value):
        raise ValueError(f"{component!r} has a computed default; an example cannot reset it")
    return "" if value is None and isinstance(component, gr.Textbox) else value


@dataclass(frozen=True)
class ExampleCard:
    """An example the tab wires itself (it does more than fill fields), shown in the row with the others."""

    label: Any
    explains: Any
    elem_id: str


@dataclass
class ExampleRow:
    examples: list[Example]
    buttons: list[gr.Button]
    shows: str
    """The elem_id of where the tab shows what an example starts: a click scrolls it into view."""
    more: list[gr.Button] = field(default_factory=list)
    """The buttons of the `ExampleCard`s, in order, for the tab to wire."""

    @classmethod
    def build(cls, prefix: str, examples: list[Example], shows: str, note: str = RESETS, more: tuple[ExampleCard, ...] = ()) -> ExampleRow:
        """Lay out a row of example buttons with their one-line explanations (the tab's own cards
        `more` after them) and `note` (what a click does to the settings it does not name); a
        click brings `shows` into view."""
        buttons, own = [], []
        with gr.Row(elem_id=f"{prefix}-examples", elem_classes=["example-row"]):
            for index, example in enumerate(examples):
                with gr.Column(min_width=150, elem_classes=["example-card"]):
                    buttons.append(gr.Button(example.label, size="sm", elem_id=f"{prefix}-example-{index}"))
                    gr.Markdown(example.explains, elem_classes=["example-explains"])
            for card in more:
                with gr.Column(min_width=150, elem_classes=["example-card"]):
                    own.append(gr.Button(card.label, size="sm", elem_id=card.elem_id))
                    gr.Markdown(card.explains, elem_classes=["example-explains"])
        gr.Markdown(t(note), elem_id=f"{prefix}-examples-note", elem_classes=["example-explains"])
        return cls(examples, buttons, shows, own)

    def wire(self, fields: dict[str, Any], keep: tuple[str, ...] = ()) -> list[Any]:
        """Clicking an example sets the fields it names and puts every other field in `fields`
        back to its default (except those in `keep`, e.g. how the key is sent), so nothing an
        earlier example, import or preset left behind changes what the example shows. Returns
        each example's click event, in order, for a tab that does more once its fields are filled."""
        defaults = {name: initial_value(component) for name, component in fields.items() if name not in keep}
        clicks = []
        for example, button in zip(self.examples, self.buttons):
            unknown = set(example.values) - set(fields)
            if unknown:
                raise ValueError(f"example {example.label!r} names fields the tab does not have: {sorted(unknown)}")
            names = [name for name in fields if name in example.values or name in defaults]
            values = example_values(example, defaults, names)
            clicks.append(button.click(None, None, [fields[name] for name in names], js=browser_filler(values, self.shows)))
        return clicks


def example_values(example: Example, defaults: dict[str, Any], names: list[str]) -> list[Any]:
    """What a click puts in each of `names`: the example's value, else the default."""
    return [example.values[name] if name in example.values else defaults[name] for name in names]


def browser_filler(values: list[Any], shows: str) -> str:
    """A `js=` function that scrolls `shows` into view and returns `values`: the browser fills the
    fields itself, so an Enter pressed right after the click sends the example even when the server is busy.
    Values in words (`Said`) are filled in the page's language at that moment (the first locale's words for
    a language that has none)."""
    keys = _said_keys(values)
    if not keys:
        filled = json.dumps(values if len(values) > 1 else values[0], ensure_ascii=False)
        return f"() => {{ {scroll_statement(shows)} return {filled}; }}"
    by_language = {code: _worded(values if len(values) > 1 else values[0], words) for code, words in words_in_every_language(keys).items()}
    return worded_fill_js(scroll_statement(shows), by_language)


def in_language(value: Any, language: str) -> Any:
    """`value` as a page in `language` fills it: each `Said` in that language's words."""
    return _worded(value, words_in_every_language(_said_keys(value))[language])


def _said_keys(value: Any) -> set[str]:
    if isinstance(value, Said):
        return {value.key}
    if isinstance(value, dict):
        return set().union(*(_said_keys(item) for item in value.values()))
    if isinstance(value, (list, tuple)):
        return set().union(*(_said_keys(item) for item in value))
    return set()


def _worded(value: Any, words: dict[str, str]) -> Any:
    """`value` with each `Said` replaced by its words in one language."""
    if isinstance(value, Said):
        return words[value.key]
    if isinstance(value, dict):
        return {name: _worded(item, words) for name, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_worded(item, words) for item in value]
    return value
