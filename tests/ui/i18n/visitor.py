"""An event from a browser whose language switch chose a language (its request carries the cookie)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from gradio.context import LocalContext

from playground.ui.i18n.language import LANGUAGE_COOKIE


class _Request:
    def __init__(self, language: str) -> None:
        self.headers = {"cookie": f"{LANGUAGE_COOKIE}={language}", "accept-language": "en-US"}


@contextmanager
def visitor(language: str) -> Iterator[None]:
    """Inside an event from a browser whose switch chose `language`."""
    token = LocalContext.request.set(_Request(language))  # type: ignore[arg-type]  # a stand-in: the lookup reads only .headers
    try:
        yield
    finally:
        LocalContext.request.reset(token)
