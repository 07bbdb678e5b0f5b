"""The page goes gzipped: Gradio serves this app's page with its config inlined (1.46 MB of JSON
for 1,085 components, 250 events and the Chinese catalogue) and the same config at `/config`,
uncompressed. Gzipped they are about 230 KB, which a visitor on a slow link feels; everything
else (event streams, files, videos) passes through untouched."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.middleware.gzip import GZipMiddleware
from starlette.types import Receive, Scope, Send

COMPRESSED_ROUTES = frozenset({"/", "/config", "/gradio_api/config"})
COMPRESS_LEVEL = 1  # of the 1.46 MB page: 228 KB in 8 ms of CPU; level 6 175 KB in 22 ms, level 9 173 KB in 34 ms


class CompressedPage:
    """ASGI middleware: GET of the page or its config is gzipped for a browser that accepts it."""

    def __init__(self, app: Callable[..., Awaitable[None]]) -> None:
        self.app = app
        self.gzip = GZipMiddleware(app, minimum_size=1000, compresslevel=COMPRESS_LEVEL)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope.get("method") == "GET" and page_route(scope) in COMPRESSED_ROUTES:
            await self.gzip(scope, receive, send)
        else:
            await self.app(scope, receive, send)


def page_route(scope: Scope) -> str:
    """The request's path below the app's root (a Space or proxy may mount it under a prefix)."""
    path = str(scope.get("path", ""))
    root = str(scope.get("root_path", "") or "")
    if root and path.startswith(root):
        path = path[len(root):]
    return "/" + path.strip("/") if path.strip("/") else "/"
