"""Which gateway a session talks to: the connection panel's values -> a client `Connection`.

A key configured on the server (a Space secret, or the demo gateway's key) is only ever sent
to the configured base URL and never reaches the browser.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from playground.client.errors import RequestValidationError
from playground.client.gateway import GatewayClient
from playground.client.transport import Connection


@dataclass(frozen=True)
class ServerDefaults:
    base_url: str
    server_key: str | None = field(default=None, repr=False)
    demo: bool = False


def resolve_connection(defaults: ServerDefaults, url_text: str | None, key_text: str | None) -> Connection:
    url = (url_text or "").strip().rstrip("/") or defaults.base_url
    if not url.startswith(("http://", "https://")):
        raise RequestValidationError([f"base URL must start with http:// or https:// (got {url!r})"])
    key = (key_text or "").strip() or (defaults.server_key if url == defaults.base_url.rstrip("/") else None)
    return Connection(url, key)


def badge_text(defaults: ServerDefaults, url_text: str | None) -> str:
    url = (url_text or "").strip().rstrip("/") or defaults.base_url
    if defaults.demo and url == defaults.base_url:
        return (
            "🧪 **Demo gateway** — offline and built in; answers are canned but every request and event "
            "is real. Set `GATEWAY_BASE_URL` (or type a base URL) to use a real gateway."
        )
    return f"🔌 **Gateway:** `{url}`"


async def test_connection(client: GatewayClient, defaults: ServerDefaults, url_text: str | None, key_text: str | None) -> tuple[str, list[str]]:
    """Try `GET /v1/models`: (status line, model ids). Raises `GatewayError` on failure."""
    conn = resolve_connection(defaults, url_text, key_text)
    ids, exchange = await client.list_models(conn)
    millis = (exchange.finished_at or exchange.elapsed()) * 1000
    return f"✅ Connected to `{conn.base_url}`: {len(ids)} models listed in {millis:.0f} ms.", ids
