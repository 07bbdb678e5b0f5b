"""The app's own event handlers, found in the built page, for the security tests: what a
visitor's browser (or a script driving the page) reaches, called directly with hostile values.
Outputs are read by the `elem_id` of the component they go to."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gradio as gr

from playground.settings import Settings
from playground.ui.app import build_app
from playground.ui.shared.connection import ServerDefaults

TABS = ("chat", "responses", "messages", "native", "embeddings", "images", "video")


@dataclass
class Event:
    fn: Callable[..., Any]
    inputs: list[Any]
    outputs: list[Any]

    def output_index(self, elem_id: str) -> int:
        return next(i for i, c in enumerate(self.outputs) if getattr(c, "elem_id", None) == elem_id)

    def current_values(self, skip: int = 1) -> list[Any]:
        """The inputs' values as the page sends them at the start (the first `skip` inputs are given
        by the test): an empty text box arrives as ""."""
        return [("" if value is None and isinstance(component, (gr.Textbox, gr.Code)) else value)
                for component in self.inputs[skip:] for value in [getattr(component, "value", None)]]


def build_page(base_url: str = "http://127.0.0.1:9", key: str = "demo-key") -> gr.Blocks:
    return build_app(Settings(), ServerDefaults(base_url, key, demo=True))


def event(blocks: gr.Blocks, name: str, first_input: str | None = None, input_with: str | None = None) -> Event:
    """The handler called `name` whose first input has elem_id `first_input` (or any input `input_with`)."""
    for block_fn in blocks.fns.values():
        ids = [getattr(c, "elem_id", None) for c in block_fn.inputs]
        if block_fn.name == name and (first_input is None or (ids and ids[0] == first_input)) and (input_with is None or input_with in ids):
            return Event(block_fn.fn, list(block_fn.inputs), list(block_fn.outputs))
    raise LookupError(f"no event {name} with input {first_input or input_with}")


def load_session(blocks: gr.Blocks, tab: str, document: Any, folder: Path) -> tuple[str, dict[str, Any], Event]:
    """Give the tab's "Load a saved file" a file with `document` (JSON unless bytes/str); returns
    (the status shown, {elem_id: value} of every other output, the event)."""
    load = event(blocks, "on_load", f"{tab}-session-load")
    path = folder / f"{tab}-session.json"
    path.write_bytes(document if isinstance(document, bytes) else document.encode() if isinstance(document, str) else json.dumps(document).encode())
    result = load.fn(str(path), *load.current_values())
    outputs = {getattr(c, "elem_id", None) or f"#{i}": value for i, (c, value) in enumerate(zip(load.outputs, result))}
    return result[0], outputs, load


def import_command(blocks: gr.Blocks, command: str) -> tuple[str, list[Any]]:
    """Paste `command` into "Import a curl command": (the status shown, every output's value)."""
    run = event(blocks, "keep_url", "curl-command")  # "Open it, keep my base URL": no host lookup
    result = asyncio.run(run.fn(command, ""))
    return result[run.output_index("curl-status")], list(result)


def untouched(value: Any) -> bool:
    """True for an output the handler left as it was (gr.skip())."""
    return isinstance(value, dict) and value.get("__type__") == "update" and set(value) == {"__type__"}


def session_file(tab: str, form: dict[str, Any] | None = None, shown: list[Any] | None = None, sent: list[Any] | None = None,
                 version: int = 2) -> dict[str, Any]:
    return {"format": "gateway-playground-session", "version": version, "tab": tab, "form": form or {},
            "conversation": {"shown": shown or [], "sent": sent or []}}


async def compare_begin(blocks: gr.Blocks, values: dict[str, Any]) -> dict[str, Any]:
    """Press Send on the Compare tab with `values` by elem_id (the rest as the page starts); the
    error banner's update."""
    from playground.ui.tabs.compare.handlers import CompareState

    begin = event(blocks, "begin", input_with="compare-system")
    names = [getattr(c, "elem_id", None) for c in begin.inputs]
    given = begin.current_values(skip=0)
    given[0] = CompareState()
    for name, value in values.items():
        given[names.index(name)] = value
    return await begin.fn(*given)  # type: ignore[no-any-return]
