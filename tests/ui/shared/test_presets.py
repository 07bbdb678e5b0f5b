"""Preset store: plain values only, per tab, names checked, delete, missing fields skipped."""

from __future__ import annotations

from playground.ui.shared.presets import MAX_NAME, _MISSING, delete_preset, preset_names, preset_values, save_preset


def test_save_load_delete_per_tab() -> None:
    store, message = save_preset({"tabs": {}}, "chat", " terse ", {"model": "gx-2.5-pro", "temperature": 0.2, "stream": True,
                                                                     "upload": {"path": "/tmp/x.png"}, "stops": ["a", "b"]})
    assert "terse" in message and "never the key" in message
    assert preset_names(store, "chat") == ["terse"] and preset_names(store, "messages") == []
    values = preset_values(store, "chat", "terse", ["model", "temperature", "stream", "upload", "stops", "system"])
    assert values is not None and values[:3] == ["gx-2.5-pro", 0.2, True] and values[4] == ["a", "b"]
    assert values[3] is _MISSING and values[5] is _MISSING  # uploads are never kept; unknown fields left alone
    store, _ = save_preset(store, "messages", "cache lab", {"cache_system": True})
    store, message = delete_preset(store, "chat", "terse")
    assert preset_names(store, "chat") == [] and preset_names(store, "messages") == ["cache lab"] and "Deleted" in message


def test_bad_names_and_broken_stores_change_nothing() -> None:
    store = {"tabs": {}}
    assert save_preset(store, "chat", "  ", {"model": "m"}) == (store, "Type a name for the preset first.")
    assert save_preset(store, "chat", "x" * (MAX_NAME + 1), {})[0] is store
    assert preset_names("garbage", "chat") == [] and preset_values(None, "chat", "x", ["model"]) is None
    assert delete_preset(store, "chat", "nope")[1] == "Pick a preset to delete."
