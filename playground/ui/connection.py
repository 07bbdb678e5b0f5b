"""Which gateway a session talks to: the connection panel's values -> a client `Connection`.

A key configured on the server (a Space secret, or the demo gateway's key) is only ever sent
to the configured base URL and never reaches the browser.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from playground.client import catalog
from playground.client.errors import APIStatusError, RequestValidationError
from playground.client.gateway import GatewayClient
from playground.client.transport import Connection
from playground.ui.render import plain


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


NO_MODEL_LIST_STATUSES = frozenset({404, 405, 501})


async def test_connection(client: GatewayClient, defaults: ServerDefaults, url_text: str | None, key_text: str | None) -> tuple[str, list[str]]:
    """Try `GET /v1/models`: (status line, the ids the model picker shows). The spec defines no
    model list, so a gateway without one is normal: the built-in catalog is used. Raises
    `GatewayError` on anything else (wrong key, unreachable gateway)."""
    conn = resolve_connection(defaults, url_text, key_text)
    catalog_ids = catalog.chat_model_ids()
    where = plain(conn.base_url)
    try:
        ids, exchange = await client.list_models(conn)
    except APIStatusError as error:
        if error.status not in NO_MODEL_LIST_STATUSES:
            raise
        return (f"✅ The gateway at `{where}` answered. It lists no models (`GET /v1/models` is not part of its API), "
                f"so the model picker uses the built-in catalog: {len(catalog_ids)} models."), catalog_ids
    shown = catalog.merge_model_ids(ids, catalog_ids)
    millis = (exchange.finished_at or exchange.elapsed()) * 1000
    extra = len(shown) - len(ids)
    return (f"✅ Connected to `{where}` in {millis:.0f} ms. The gateway lists {len(ids)} models; the picker shows {len(shown)}"
            f"{f' ({extra} more from the built-in catalog)' if extra else ''}."), shown
