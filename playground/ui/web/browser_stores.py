"""What the page keeps in the visitor's browser (`gr.BrowserState`: the connection when asked, presets,
prices, video jobs, the last Batch run, the conversations), encrypted with this installation's secret.

Gradio encrypts each kept value with a secret it picks at random when the component is built, and a
value it cannot decrypt reads as the default: every restart of the app forgot what browsers kept. The
secret now lives in the data folder (made once, readable by its owner only), so a restart reads the
same values back. The page carries the secret to the browser either way (the browser encrypts), so it
hides the values from a glance at the browser's storage, not from the page; keys are kept only when
the visitor asks (`connection_panel`)."""

from __future__ import annotations

import os
import re
import secrets
from pathlib import Path
from typing import Any

import gradio as gr

SECRET_FILE = "browser-secret"
SECRET = re.compile(r"[0-9a-f]{32}")

_secret: str | None = None


def installation_secret(data_dir: Path) -> str | None:
    """The data folder's secret, made on first use; None when the folder cannot hold one (Gradio's random one then)."""
    path = data_dir / SECRET_FILE
    try:
        if not path.exists():
            _make(path)
        text = path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeError):
        return None
    return text if SECRET.fullmatch(text) else None


def _make(path: Path) -> None:
    """Write a new secret beside `path` and link it in place whole: of two processes starting at once, one secret wins."""
    path.parent.mkdir(parents=True, exist_ok=True)
    draft = path.with_name(f".{path.name}.{os.getpid()}")
    made = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(made, "w", encoding="ascii") as file:
            file.write(secrets.token_hex(16))
        os.link(draft, path)
    except FileExistsError:
        pass
    finally:
        draft.unlink(missing_ok=True)


def use_data_dir(data_dir: Path) -> None:
    """The secret every `kept_in_browser` built after this uses (the app calls it before building the page)."""
    global _secret
    _secret = installation_secret(data_dir)


def kept_in_browser(default: Any, storage_key: str) -> gr.BrowserState:
    """A value kept in the browser under `storage_key`, readable again after a restart of the app."""
    return gr.BrowserState(default, storage_key=storage_key, secret=_secret)
