"""What the Images tab keeps per browser session: its generations (each call and what came of it),
the one shown, the picked image, and a handler's outcome."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playground.client.images import GeneratedImage, ImagesResult
from playground.client.transport import Exchange
from playground.ui.shared.stopping import StopSwitch

MAX_HISTORY = 20
NOT_SET = "(not set)"
"""A dropdown's value for "leave the field out"."""


@dataclass
class Generation:
    """One call and what came of it."""

    number: int
    kind: str
    prompt: str
    settings: dict[str, Any]
    asked: dict[str, Any]
    contents: list[dict[str, Any]] | None
    result: ImagesResult | None = None
    exchange: Exchange | None = field(default=None, repr=False)
    source: Path | None = None
    thumbnail: Path | None = None
    downloads: list[Path] = field(default_factory=list)
    """The images again, named after the prompt and their number, for the download list."""

    def image(self, index: int | None) -> GeneratedImage | None:
        images = self.result.images if self.result else []
        return images[index] if index is not None and 0 <= index < len(images) else None


@dataclass
class ImagesSession:
    """A browser session's generations (the newest `MAX_HISTORY`), the one shown and the picked image."""

    history: list[Generation] = field(default_factory=list)
    shown: Generation | None = None
    selected: int | None = None
    made: int = 0
    stop: StopSwitch = field(default_factory=StopSwitch, repr=False)

    def add(self, generation: Generation) -> None:
        self.history = [*self.history, generation][-MAX_HISTORY:]
        self.shown, self.selected = generation, 0

    def from_history(self, index: int) -> Generation | None:
        """The generation at `index` of the history strip (newest first)."""
        ordered = list(reversed(self.history))
        return ordered[index] if 0 <= index < len(ordered) else None


@dataclass
class Outcome:
    """What a handler did: an error to show (or ""), a notice, and the call to inspect."""

    error: str = ""
    notice: str = ""
    exchange: Exchange | None = None
    generation: Generation | None = None
