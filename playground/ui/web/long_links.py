"""A link too long to open: Gradio cannot build its page for an address over 64 KB (it answered a
blank 400), and the page repeats its query on every event it sends. A GET of the page whose
query is longer than `MAX_LINK_BYTES` is redirected to the page with the query cut to the tab it
named, its language (`lang`, when it is one of ours) and `link_too_long=<bytes>`, which the page
then names in words (`links.LinkOpener`), in the link's language."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from urllib.parse import unquote_to_bytes, urlencode

from playground.ui.i18n import languages
from playground.ui.i18n.language import LANGUAGE_PARAMETER, MAX_LINK_TAG, link_locale
from playground.ui.web.compression import page_route
from playground.ui.web.visitors import Receive, Scope, Send

MAX_LINK_BYTES = 40_000
"""A link's query at most: room for `q` at its 4,000-character limit in any script, percent-encoded."""
CUT_PARAMETER = "link_too_long"
_TAB = re.compile(rb"^[a-z]{1,20}$")


def cut_query(query: bytes) -> str:
    """The query a too-long link is redirected to: its tab (when it names one plainly), its language
    (its last `lang`, as the page and its handlers read it, when that is a tag of ours: written as
    its locale's code) and its size."""
    kept: dict[str, str] = {}
    language = b""
    for part in query.split(b"&"):
        name, _, value = part.partition(b"=")
        if name == b"tab" and "tab" not in kept and _TAB.match(unquote_to_bytes(value)):
            kept["tab"] = unquote_to_bytes(value).decode("ascii")
        elif name == LANGUAGE_PARAMETER.encode():
            language = value
    if language and len(language) <= 3 * MAX_LINK_TAG:
        locale = link_locale(unquote_to_bytes(language).decode("utf-8", "replace"), languages())
        if locale is not None:
            kept[LANGUAGE_PARAMETER] = locale.code
    kept[CUT_PARAMETER] = str(len(query))
    return urlencode(kept)


class LongLinks:
    """ASGI middleware: a page GET with an oversized query is redirected (303) to the cut query."""

    def __init__(self, app: Callable[..., Awaitable[None]], max_bytes: int = MAX_LINK_BYTES) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        query = scope.get("query_string", b"") if scope["type"] == "http" else b""
        if len(query) > self.max_bytes and scope.get("method") in ("GET", "HEAD") and page_route(scope) == "/":
            location = ("?" + cut_query(query)).encode()
            await send({"type": "http.response.start", "status": 303,
                        "headers": [(b"location", location), (b"content-length", b"0"), (b"cache-control", b"no-store")]})
            await send({"type": "http.response.body", "body": b""})
            return
        await self.app(scope, receive, send)
