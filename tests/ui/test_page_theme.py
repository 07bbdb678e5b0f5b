"""The page's theme is drawn in the system's fonts, so the first visit fetches no web font (issue 41;
the browser's side: tests/e2e/test_first_visit_browser.py)."""

from __future__ import annotations

from playground.ui.app import SYSTEM_FONTS, SYSTEM_MONO_FONTS, launch_options


def test_the_theme_names_only_the_systems_fonts() -> None:
    theme = launch_options()["theme"]
    assert theme.font == ", ".join(SYSTEM_FONTS) and theme.font_mono == ", ".join(SYSTEM_MONO_FONTS)
    assert SYSTEM_FONTS[-1] == "sans-serif" and SYSTEM_MONO_FONTS[-1] == "monospace"
