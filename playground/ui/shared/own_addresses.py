"""The server's own private addresses as a hosted page's visitor reads them: in words.

In hosted mode the built-in demo gateway and demo MCP server listen on the server's loopback
address. The inspector, the generated code and the MCP panel's exchanges show each call as it was
made, its URL included, and that address means nothing to a visitor and is not theirs to see. For
a visitor (`i18n.read_by_visitor`) each such address in those texts is written as what it is ("the
built-in demo gateway"); locally, and for any other address, the text is shown as it is.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from playground.ui.i18n import read_by_visitor, say

_OWN: dict[str, str] = {}
"""Each private address of the server (scheme and host), and the catalogue key that names it."""


def keep_private(url: str, name_key: str) -> None:
    """Show `url`'s scheme and host to a visitor as the words of `name_key`."""
    parts = urlsplit(url)
    if parts.scheme and parts.netloc:
        _OWN[f"{parts.scheme}://{parts.netloc}"] = name_key


def shown_to_reader(text: str) -> str:
    """`text` with the server's private addresses in words when a visitor of a hosted page reads it."""
    if not _OWN or not read_by_visitor():
        return text
    for origin, name_key in _OWN.items():
        words = f"({say(name_key)})"
        text = re.sub(re.escape(origin) + r"(?![\w.:-])", lambda _, words=words: words, text)  # put in as written, never read as a pattern
    return text
