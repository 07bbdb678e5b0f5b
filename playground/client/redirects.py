"""Which redirects of a gateway call are followed, and what the person is told about the others.

Official SDKs follow a gateway that moved. Here a call follows method-preserving redirects
(307, 308; for a GET also 301, 302, 303) to the same host: the same origin, or the upgrade of
`http` to `https` on the default ports. Those hops keep the credentials. Anything else is not
followed and is reported with where the gateway said it went ("the gateway moved to X: use that
base URL"): a redirect to another host (the key is never sent there), a POST after 301/302/303
(it would arrive as a GET without its body), more than `MAX_GATEWAY_REDIRECTS` hops. The
hosted-mode guard (`egress`) checks every connection a hop opens, since it sits under the pool.

Pure URL logic (no httpx); `transport` sends the hops.
"""

from __future__ import annotations

from playground.client.texts import Text

from urllib.parse import urljoin, urlsplit, urlunsplit

from playground.client.errors import GatewayMovedError
from playground.client.exchange import redact_url

METHOD_PRESERVING = frozenset({307, 308})
GET_ONLY = frozenset({301, 302, 303})
MAX_GATEWAY_REDIRECTS = 3
DEFAULT_PORTS = {"http": 80, "https": 443}


def _origin(url: str) -> tuple[str, str, int]:
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    return scheme, (parts.hostname or "").lower(), parts.port or DEFAULT_PORTS.get(scheme, 0)


def keeps_credentials(url: str, target: str) -> bool:
    """Whether a hop from `url` to `target` stays with the same gateway: the same origin, or
    `http` -> `https` on the same host with default ports (the upgrade)."""
    scheme, host, port = _origin(url)
    new_scheme, new_host, new_port = _origin(target)
    if not host or host != new_host:
        return False
    if (scheme, port) == (new_scheme, new_port):
        return True
    return scheme == "http" and new_scheme == "https" and port == 80 and new_port == 443


def suggested_base_url(base_url: str, url: str, target: str) -> str:
    """The base URL that would reach `target` directly: `target` minus the path the playground
    added to `base_url` (e.g. `/v1/chat/completions`), else the target's origin."""
    added = urlsplit(url).path[len(urlsplit(base_url).path.rstrip("/")):]
    parts = urlsplit(target)
    path = parts.path
    if added and path.endswith(added):
        path = path[: len(path) - len(added)]
    else:
        path = ""
    return urlunsplit((parts.scheme, parts.netloc, path.rstrip("/"), "", ""))


def next_hop(method: str, url: str, status: int, location: str | None, base_url: str, hops: int) -> str:
    """The absolute URL to send the same call to after `status`, or `GatewayMovedError` saying why not."""
    where = redact_url(url)
    if not location:
        raise GatewayMovedError(Text("redirects.without_location", status=status, where=where), status)
    target = urljoin(url, location.strip())
    if urlsplit(target).scheme.lower() not in DEFAULT_PORTS or not urlsplit(target).hostname:
        raise GatewayMovedError(Text("redirects.not_http", status=status, where=where), status)
    shown = redact_url(target)
    base = redact_url(suggested_base_url(base_url, url, target))
    if status not in METHOD_PRESERVING and not (status in GET_ONLY and method == "GET"):
        if status in GET_ONLY:
            raise GatewayMovedError(
                Text("redirects.moved_method_not_resent", base=base, where=where, status=status, shown=shown, method=method), status, shown, base)
        raise GatewayMovedError(Text("redirects.not_followed", status=status, where=where), status, shown, base)
    if not keeps_credentials(url, target):
        raise GatewayMovedError(
            Text("redirects.moved_other_host", base=base, where=where, status=status, shown=shown), status, shown, base)
    if hops >= MAX_GATEWAY_REDIRECTS:
        raise GatewayMovedError(Text("redirects.too_many", limit=MAX_GATEWAY_REDIRECTS, shown=shown),
                                status, shown, base)
    return target
