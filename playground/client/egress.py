"""The hosted-mode guard on everything the server fetches for a visitor.

On a public Space a visitor chooses the base URL, and through the gateway the result URLs and
redirects the server follows. Each connection is checked where it is made (an httpcore network
backend under the shared httpx client): the host is resolved once, every address must be a
public unicast address (and the host on `GATEWAY_ALLOWED_HOSTS` when that is set), and the
connection goes to the address that was checked, so a second DNS answer cannot move it
(rebinding). TLS still verifies the certificate against the host name. Origins the server was
configured with (its own gateway) are trusted.
"""

from __future__ import annotations

from playground.client.texts import Text

import asyncio
import ipaddress
import socket
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpcore

from playground.client.errors import GatewayError

Resolver = Callable[[str, int], Awaitable[list[str]]]
NAT64 = ipaddress.ip_network("64:ff9b::/96")


class BlockedAddressError(GatewayError):
    """A visitor-chosen address that hosted mode does not connect to; nothing was sent there."""

    title = Text("egress.address_not_allowed_here")
    hint = Text("egress.playground_runs_public_app_only")


async def system_resolver(host: str, port: int) -> list[str]:
    infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


def refusal(address: str) -> str | None:
    """Why `address` is not a public unicast address (None when it is)."""
    try:
        ip = ipaddress.ip_address(address.strip("[]").split("%")[0])
    except ValueError:
        return Text("egress.not_an_ip_address")
    if isinstance(ip, ipaddress.IPv6Address):
        embedded = ip.ipv4_mapped or (ip.sixtofour if ip.sixtofour else None)
        if embedded is None and ip in NAT64:
            embedded = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
        if embedded is not None:
            inner = refusal(str(embedded))
            return Text("egress.ipv6_form", address=inner) if inner else None
    for kind, flag in ((Text("egress.unspecified_address"), ip.is_unspecified), (Text("egress.loopback_address"), ip.is_loopback),
                       (Text("egress.link_local_address"), ip.is_link_local), (Text("egress.multicast_address"), ip.is_multicast), (Text("egress.reserved_address"), ip.is_reserved)):
        if flag:
            return kind
    if isinstance(ip, ipaddress.IPv6Address) and ip in ipaddress.ip_network("fc00::/7"):
        return Text("egress.unique_local_address")
    if ip.is_private:
        return Text("egress.private_address")
    if not ip.is_global:
        return Text("egress.reserved_address")
    return None


def host_matches(host: str, patterns: Iterable[str]) -> bool:
    host = host.lower().rstrip(".")
    for pattern in patterns:
        pattern = pattern.lower().strip()
        if pattern.startswith("*.") and (host == pattern[2:] or host.endswith(pattern[1:])):
            return True
        if host == pattern:
            return True
    return False


@dataclass
class EgressGuard:
    """Decides where the server may connect on a visitor's behalf."""

    allowed_hosts: tuple[str, ...] = ()
    trusted_origins: set[tuple[str, int]] = field(default_factory=set)
    resolver: Resolver = system_resolver

    def trust(self, url: str) -> None:
        """Let the server reach an origin it was configured with (its own gateway)."""
        parts = urlsplit(url)
        if parts.hostname:
            self.trusted_origins.add((parts.hostname.lower(), parts.port or (443 if parts.scheme == "https" else 80)))

    def trusted(self, host: str, port: int) -> bool:
        return (host.lower().strip("[]"), port) in self.trusted_origins

    async def address_for(self, host: str, port: int) -> str:
        """The checked address to connect to for `host:port`; raises `BlockedAddressError`."""
        host = host.strip("[]")
        if self.trusted(host, port):
            return host
        if self.allowed_hosts and not host_matches(host, self.allowed_hosts):
            raise BlockedAddressError(Text("egress.not_server_list_allowed_gateway", host=host))
        try:
            addresses = [host] if _is_ip(host) else await self.resolver(host, port)
        except OSError:
            raise BlockedAddressError(Text("egress.name_could_not_resolved", host=host)) from None
        if not addresses:
            raise BlockedAddressError(Text("egress.name_has_no_address", host=host))
        for address in addresses:
            reason = refusal(address)
            if reason:
                shown = host if host == address else f"{host} ({address})"
                raise BlockedAddressError(Text("egress.address_refused", shown=shown, reason=reason))
        return addresses[0]

RESOLVE_TIMEOUT_S = 3.0


async def host_problem(url: str, guard: EgressGuard | None, resolver: Resolver = system_resolver,
                       timeout: float = RESOLVE_TIMEOUT_S) -> str | None:
    """Why the server would not reach `url`'s host (None when it resolves and, in hosted mode,
    the guard allows it). Only the name is resolved, on the event loop's resolver; nothing is sent."""
    parts = urlsplit(url)
    host = (parts.hostname or "").strip("[]")
    if parts.scheme not in ("http", "https") or not host:
        return Text("egress.address_not_http_address")
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        async with asyncio.timeout(timeout):
            if guard is not None:
                await guard.address_for(host, port)
            elif not _is_ip(host) and not await resolver(host, port):
                return Text("egress.host_has_no_address", host=host)
    except BlockedAddressError as error:
        return error.message
    except TimeoutError:  # before OSError, of which it is a subclass
        return Text("egress.name_did_not_resolve_within", host=host, seconds=timeout)
    except (OSError, UnicodeError):
        return Text("egress.name_does_not_resolve_from", host=host)
    return None


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


class GuardedBackend(httpcore.AsyncNetworkBackend):
    """httpcore's network backend with the guard in front of every new connection."""

    def __init__(self, inner: httpcore.AsyncNetworkBackend, guard: EgressGuard) -> None:
        self._inner = inner
        self._guard = guard

    async def connect_tcp(self, host: str, port: int, timeout: float | None = None, local_address: str | None = None,
                          socket_options: Any = None) -> httpcore.AsyncNetworkStream:
        address = await self._guard.address_for(host, port)
        return await self._inner.connect_tcp(address, port, timeout=timeout, local_address=local_address, socket_options=socket_options)

    async def connect_unix_socket(self, path: str, timeout: float | None = None, socket_options: Any = None) -> httpcore.AsyncNetworkStream:
        raise BlockedAddressError(Text("egress.local_sockets_not_reachable_from"))

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)
