"""The (format, model) column choice Compare and Batch share: a preset radio, one format and one
model picker per column, the column list from their values, presets filling the pickers, and the
column slots on screen (those in use, and those "Add a column" asked for)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import gradio as gr

from playground.ui.i18n import choices, t, t_client

from playground.client import catalog
from playground.client.intent import FORMATS
from playground.client.report.model import FORMAT_LABELS
from playground.ui.shared.slots import one_more, shown, shown_count

CUSTOM = "Your own choice"
FORMAT_CHOICES = [(t("columns.no_format"), "")] + [(t_client(FORMAT_LABELS[f]), f) for f in FORMATS]
Presets = dict[str, list[tuple[str, str]]]


def model_ids() -> list[str]:
    return list(dict.fromkeys([*catalog.chat_model_ids(), *catalog.MESSAGES_MODELS]))


def slots(values: tuple[Any, ...] | list[Any]) -> list[tuple[str, str]]:
    """Interleaved (format, model) picker values -> one pair per column slot (blank slots kept)."""
    return [(values[i] or "", values[i + 1] or "") for i in range(0, len(values), 2)]


def chosen(values: tuple[Any, ...] | list[Any]) -> list[tuple[str, str]]:
    """The slots that name a format and a model, model trimmed."""
    return [(fmt, model.strip()) for fmt, model in slots(values) if fmt and model and model.strip()]


def columns_in_use(picker_values: tuple[Any, ...] | list[Any]) -> int:
    """How many column slots up to the last one that names a format and a model."""
    used = [index for index, (fmt, model) in enumerate(slots(list(picker_values))) if fmt and str(model).strip()]
    return used[-1] + 1 if used else 0


@dataclass
class ColumnPicker:
    prefix: str
    presets: Presets
    preset: gr.Radio | None = None
    formats: list[gr.Dropdown] = field(default_factory=list)
    models: list[gr.Dropdown] = field(default_factory=list)
    boxes: list[gr.Column] = field(default_factory=list)
    """Each column's box (`build` lays them out; a tab that lays out its own adds them), shown by `wire_slots`."""

    @classmethod
    def start(cls, prefix: str, presets: Presets) -> ColumnPicker:
        """The preset radio; add columns with `column` where the tab lays them out."""
        picker = cls(prefix, presets)
        picker.preset = gr.Radio([*choices(presets), (t("batch_columns.custom"), CUSTOM)], value=next(iter(presets)), label=t("batch_columns.columns"), elem_id=f"{prefix}-preset")
        return picker

    def column(self, index: int) -> tuple[gr.Dropdown, gr.Dropdown]:
        """One column's format and model pickers, filled from the first preset."""
        first = self.presets[next(iter(self.presets))]
        fmt, model = first[index] if index < len(first) else ("", "")
        self.formats.append(gr.Dropdown(FORMAT_CHOICES, value=fmt, label=t("batch_columns.format") + f" {index + 1}", elem_id=f"{self.prefix}-format-{index}"))
        self.models.append(gr.Dropdown(model_ids(), value=model, allow_custom_value=True, label=t("common.model"), elem_id=f"{self.prefix}-model-{index}"))
        return self.formats[-1], self.models[-1]

    @classmethod
    def build(cls, prefix: str, presets: Presets, count: int, per_row: int = 4,
              extra: Callable[[int], None] | None = None) -> ColumnPicker:
        """The radio and `count` columns in rows of `per_row`; `extra(index)` lays out more of a
        column under its pickers (Batch's per-column settings)."""
        picker = cls.start(prefix, presets)
        for first in range(0, count, per_row):
            with gr.Row():
                for index in range(first, min(count, first + per_row)):
                    with gr.Column(min_width=200) as box:
                        picker.boxes.append(box)
                        picker.column(index)
                        if extra is not None:
                            extra(index)
        return picker

    @property
    def inputs(self) -> list[gr.Dropdown]:
        """Format and model pickers interleaved (read them with `slots` or `chosen`)."""
        return [component for pair in zip(self.formats, self.models) for component in pair]

    def values_for(self, name: str) -> tuple[Any, ...]:
        if name not in self.presets:
            return (gr.skip(),) * len(self.inputs)
        pairs = list(self.presets[name]) + [("", "")] * len(self.formats)
        return tuple(value for fmt, model in pairs[:len(self.formats)] for value in (fmt, model))

    def preset_of(self, *values: Any) -> str:
        """The preset whose columns the pickers hold, else "Your own choice" (an import, a session or a
        link set them, or a person changed one)."""
        held = chosen(values)
        return next((name for name, pairs in self.presets.items() if list(pairs) == held), CUSTOM)

    def slots_shown(self, added: Any, *values: Any) -> tuple[Any, ...]:
        """Each column box's visibility (those in use, or asked for by "Add a column"), then the button's."""
        return shown(added, columns_in_use(values), len(self.formats))

    def slot_added(self, added: Any, *values: Any) -> tuple[Any, ...]:
        """"Add a column": the count asked for, each column box's visibility, the button's."""
        return one_more(added, columns_in_use(values), len(self.formats))

    def wire_slots(self, add: gr.Button) -> None:
        """Only the columns in use on screen, at first and whenever the pickers change (a preset, an import, a
        link), and one more each time `add` is pressed."""
        count = shown_count(0, columns_in_use([component.value for component in self.inputs]), len(self.formats))
        for index, box in enumerate(self.boxes):
            box.visible = index < count
        add.visible = count < len(self.formats)
        added = gr.State(0)
        gr.on([picker.change for picker in self.inputs], self.slots_shown, [added, *self.inputs], [*self.boxes, add], queue=False,
              show_progress="hidden")
        add.click(self.slot_added, [added, *self.inputs], [added, *self.boxes, add], queue=False)

    def wire(self) -> None:
        """The radio fills the pickers; the pickers, however set, show which preset they hold."""
        assert self.preset is not None
        self.preset.input(self.values_for, self.preset, self.inputs, queue=False)
        gr.on([picker.change for picker in self.inputs], self.preset_of, self.inputs, self.preset, queue=False, show_progress="hidden",
              trigger_mode="always_last")
