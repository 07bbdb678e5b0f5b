"""Who a request comes from: the visitor's address, read from X-Forwarded-For only when the peer is
a configured proxy, and the allowance key limits and ownership bind to.

- `TrustedProxies`: the proxies whose X-Forwarded-For is believed (`PLAYGROUND_TRUSTED_PROXIES`).
  On a Space the default is the private ranges the Space's proxy connects from; anywhere else it is
  none: a direct peer, loopback included, is the visitor, whatever X-Forwarded-For it wrote.
- `visitor_address(peer, forwarded_for, trusted)`: walking X-Forwarded-For from the right, past
  the trusted hops, the first entry that is not a trusted proxy (the one the last proxy appended:
  entries a client wrote itself stand to its left).
- `allowance_key(address)`: an IPv4 address, or the /64 of an IPv6 address (one subscriber's
  network: every address in it shares one allowance).
- `with_visitor(scope, trusted)`: the request's scope with its client set to the visitor, so that
  Gradio's request (and `visitor_of`) see the visitor, not the proxy.
- `ignore_server_proxy_headers()`: uvicorn rewrites the client from X-Forwarded-For itself for
  peers it trusts (127.0.0.1 and ::1 by default), before the app sees the peer; that is turned off,
  so the one reading of the header is this module's.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import MutableMapping
from dataclasses import dataclass
from typing import Any

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

IPV6_ALLOWANCE_PREFIX = 64


def parse_address(text: str | None) -> IPAddress | None:
    """An address as a proxy writes it (`1.2.3.4`, `1.2.3.4:5678`, `2001:db8::1`, `[2001:db8::1]:443`),
    IPv4-mapped IPv6 as IPv4; None for anything else."""
    text = (text or "").strip()
    if text.startswith("["):
        text = text[1:].split("]", 1)[0]
    elif text.count(":") == 1:
        text = text.split(":", 1)[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


@dataclass(frozen=True)
class TrustedProxies:
    """The networks whose X-Forwarded-For entries are believed."""

    networks: tuple[IPNetwork, ...] = ()

    @classmethod
    def of(cls, *entries: str) -> TrustedProxies:
        """From addresses and networks as text (`127.0.0.1`, `10.0.0.0/8`)."""
        return cls(tuple(ipaddress.ip_network(entry, strict=False) for entry in entries))

    def covers(self, address: IPAddress | None) -> bool:
        return address is not None and any(address.version == network.version and address in network for network in self.networks)


NO_PROXIES = TrustedProxies()


def visitor_address(peer: str | None, forwarded_for: str | None, trusted: TrustedProxies = NO_PROXIES) -> str | None:
    """The visitor's address from the connection's peer and X-Forwarded-For (read only when the peer is trusted)."""
    address = parse_address(peer)
    if address is None:
        return peer
    if not trusted.covers(address):
        return str(address)
    for entry in reversed([entry for entry in (forwarded_for or "").split(",") if entry.strip()]):
        hop = parse_address(entry)
        if hop is None:
            break  # a proxy writes addresses: anything else was written by a client, stop at the last proxy
        address = hop
        if not trusted.covers(hop):
            break
    return str(address)


def allowance_key(address: str | None) -> str | None:
    """What an allowance binds to: the IPv4 address, or the /64 network of an IPv6 address."""
    parsed = parse_address(address)
    if parsed is None:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((parsed, IPV6_ALLOWANCE_PREFIX), strict=False))
    return str(parsed)


def visitor_of(request: Any) -> str | None:
    """The key limits and ownership are bound to: the visitor's address (its /64 for IPv6), else (no
    address known) its session. The page guard has already set the request's client to the visitor."""
    if request is None:
        return None
    address = allowance_key(getattr(getattr(request, "client", None), "host", None))
    if address:
        return f"address {address}"
    session = getattr(request, "session_hash", None)
    return f"session {session}" if session else None


def forwarded_for(scope: MutableMapping[str, Any]) -> str:
    """Every X-Forwarded-For header of a request, in order, as one list."""
    values = [value.decode("latin-1") for name, value in scope.get("headers") or [] if name.lower() == b"x-forwarded-for"]
    return ",".join(values)


def with_visitor(scope: MutableMapping[str, Any], trusted: TrustedProxies) -> MutableMapping[str, Any]:
    """`scope` with its client set to the visitor (the peer itself unless it is a trusted proxy)."""
    client = scope.get("client")
    if not client or not trusted.networks:
        return scope
    peer, port = client[0], client[1] if len(client) > 1 else 0
    visitor = visitor_address(peer, forwarded_for(scope), trusted)
    if visitor == peer:
        return scope
    return {**scope, "client": (visitor, port)}


def scope_visitor(scope: MutableMapping[str, Any]) -> str | None:
    """`visitor_of` for an ASGI scope that went through `with_visitor`."""
    client = scope.get("client")
    address = allowance_key(client[0]) if client else None
    return f"address {address}" if address else None


def ignore_server_proxy_headers() -> None:
    """Turn off uvicorn's own X-Forwarded-For reading (read when Gradio starts its server)."""
    os.environ["FORWARDED_ALLOW_IPS"] = ""
