"""What browsers keep is encrypted with the installation's secret from the data folder, so a restart
of the app reads it again (Gradio's random secret per start made every kept value read as its default)."""

from __future__ import annotations

import stat
from pathlib import Path

import gradio as gr

from playground.settings import Settings
from playground.ui.app import build_app
from playground.ui.shared.connection import ServerDefaults
from playground.ui.web.browser_stores import SECRET_FILE, installation_secret


def _secrets(data_dir: Path) -> set[str]:
    page = build_app(Settings(data_dir=data_dir), ServerDefaults("http://127.0.0.1:9", "sk-unused", demo=True))
    return {block.secret for block in page.blocks.values() if isinstance(block, gr.BrowserState)}


def test_a_restarted_app_encrypts_with_the_same_secret_and_another_data_folder_with_its_own(tmp_path: Path) -> None:
    first = _secrets(tmp_path / "one")
    assert len(first) == 1, "one secret for everything the page keeps"
    assert _secrets(tmp_path / "one") == first, "the same after a restart"
    assert _secrets(tmp_path / "two") != first
    secret_file = tmp_path / "one" / SECRET_FILE
    assert stat.S_IMODE(secret_file.stat().st_mode) == 0o600 and first == {secret_file.read_text()}


def test_a_folder_that_cannot_hold_a_secret_or_a_damaged_one_falls_back_to_gradios_own(tmp_path: Path) -> None:
    (tmp_path / SECRET_FILE).write_text("not a secret")
    assert installation_secret(tmp_path) is None
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("")
    assert installation_secret(blocked) is None
    assert installation_secret(tmp_path / "new") == installation_secret(tmp_path / "new")
    assert not list((tmp_path / "new").glob(".*")), "no draft left beside it"
