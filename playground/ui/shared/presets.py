"""Named presets per tab, kept in this browser only when a person saves one (never a key).

The store is one `gr.BrowserState` for the page (`{"tabs": {tab: {name: {field: value}}}}`),
created outside the tabs; each tab's preset bar reads and writes its own part. Only plain
values (text, numbers, booleans and lists of them) are kept: uploads and secrets never are.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import gradio as gr

from playground.ui.i18n import t, say
from playground.ui.web.browser_stores import kept_in_browser

STORAGE_KEY = "gateway-playground-presets"
MAX_PRESETS_PER_TAB = 30
MAX_NAME = 60
PLAIN = (str, int, float, bool, type(None))


def presets_state() -> gr.BrowserState:
    """Create it outside the tabs (a tab's content mounts only when first opened)."""
    return kept_in_browser({"tabs": {}}, STORAGE_KEY)


def _plain(value: Any) -> bool:
    return isinstance(value, PLAIN) or (isinstance(value, list) and all(isinstance(v, PLAIN) for v in value))


def _tab_presets(store: Any, tab: str) -> dict[str, dict[str, Any]]:
    tabs = store.get("tabs") if isinstance(store, dict) else None
    presets = tabs.get(tab) if isinstance(tabs, dict) else None
    return presets if isinstance(presets, dict) else {}


def preset_names(store: Any, tab: str) -> list[str]:
    return sorted(_tab_presets(store, tab))


def save_preset(store: Any, tab: str, name: str, values: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """(new store, message). Keeps only plain values; refuses an empty or over-long name."""
    name = (name or "").strip()
    if not name:
        return store, say("presets.say.type_name_preset_first")
    if len(name) > MAX_NAME:
        return store, say("presets.say.preset_names_most_characters", max_name=MAX_NAME)
    presets = dict(_tab_presets(store, tab))
    if name not in presets and len(presets) >= MAX_PRESETS_PER_TAB:
        return store, say("presets.say.tab_already_keeps_presets_delete", max_presets_per_tab=MAX_PRESETS_PER_TAB)
    presets[name] = {field: value for field, value in values.items() if _plain(value)}
    tabs = dict(store.get("tabs") or {}) if isinstance(store, dict) else {}
    tabs[tab] = presets
    return {"tabs": tabs}, say("presets.say.saved_browser_settings_only_never", name=name)


def delete_preset(store: Any, tab: str, name: str | None) -> tuple[dict[str, Any], str]:
    presets = dict(_tab_presets(store, tab))
    if not name or name not in presets:
        return store if isinstance(store, dict) else {"tabs": {}}, say("presets.say.pick_preset_delete")
    del presets[name]
    tabs = dict(store.get("tabs") or {})
    tabs[tab] = presets
    return {"tabs": tabs}, f"Deleted “{name}”."


def preset_values(store: Any, tab: str, name: str | None, fields: list[str]) -> list[Any] | None:
    """The stored value per field (`gr.skip()`-able None entries where a field was not stored)."""
    preset = _tab_presets(store, tab).get(name or "")
    if preset is None:
        return None
    return [preset.get(field, _MISSING) for field in fields]


_MISSING = object()


@dataclass
class PresetBar:
    tab: str
    picker: gr.Dropdown
    name: gr.Textbox
    save: gr.Button
    delete: gr.Button
    status: gr.Markdown
    fields: list[str] = field(default_factory=list)
    """The names of the fields a preset keeps, in the order `wire` got them."""

    @classmethod
    def build(cls, tab: str) -> PresetBar:
        with gr.Accordion(t("presets.panel"), open=False, elem_id=f"{tab}-presets"):
            with gr.Row():
                picker = gr.Dropdown([], label=t("presets.pick"), value=None, scale=2, elem_id=f"{tab}-preset-pick")
                name = gr.Textbox(label=t("presets.name"), placeholder=t("presets.name_example"), scale=2, elem_id=f"{tab}-preset-name")
            with gr.Row():
                save = gr.Button(t("presets.save"), size="sm", elem_id=f"{tab}-preset-save")
                delete = gr.Button(t("presets.delete"), size="sm", elem_id=f"{tab}-preset-delete")
            status = gr.Markdown(t("presets.note"),
                                 elem_id=f"{tab}-preset-status")
        return cls(tab, picker, name, save, delete, status)

    def wire(self, store: gr.BrowserState, fields: dict[str, Any]) -> None:
        self.fields = list(fields)
        components = list(fields.values())
        self.picker.focus(self.on_focus, store, self.picker, queue=False)
        self.save.click(self.on_save, [store, self.name, *components], [store, self.status, self.picker], queue=False)
        self.delete.click(self.on_delete, [store, self.picker], [store, self.status, self.picker], queue=False)
        # `change`, not `input`: a link (`ui.links`) picks a preset by setting the picker.
        self.picker.change(self.on_pick, [store, self.picker], components, queue=False)

    def on_focus(self, current: Any) -> Any:
        """The picker's choices: the presets this browser keeps for the tab."""
        return gr.update(choices=preset_names(current, self.tab))

    def on_save(self, current: Any, name: str, *values: Any) -> tuple[Any, ...]:
        """(store, message, picker) after saving the fields' `values` as preset `name`."""
        new, message = save_preset(current, self.tab, name, dict(zip(self.fields, values)))
        return new, message, gr.update(choices=preset_names(new, self.tab), value=(name or "").strip() or None)

    def on_delete(self, current: Any, name: str | None) -> tuple[Any, ...]:
        new, message = delete_preset(current, self.tab, name)
        return new, message, gr.update(choices=preset_names(new, self.tab), value=None)

    def on_pick(self, current: Any, name: str | None) -> tuple[Any, ...]:
        """One value per field (skipped where the preset holds none, all skipped for no preset)."""
        values = preset_values(current, self.tab, name, self.fields)
        if values is None:
            return (gr.skip(),) * len(self.fields)
        return tuple(gr.skip() if value is _MISSING else value for value in values)
