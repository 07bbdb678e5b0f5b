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

    title = "This address is not allowed here"
    hint = "This playground runs as a public app: it only calls gateways on public internet addresses."


async def system_resolver(host: str, port: int) -> list[str]:
    infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


def refusal(address: str) -> str | None:
    """Why `address` is not a public unicast address (None when it is)."""
    try:
        ip = ipaddress.ip_address(address.strip("[]").split("%")[0])
    except ValueError:
        return "not an IP address"
    if isinstance(ip, ipaddress.IPv6Address):
        embedded = ip.ipv4_mapped or (ip.sixtofour if ip.sixtofour else None)
        if embedded is None and ip in NAT64:
            embedded = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
        if embedded is not None:
            inner = refusal(str(embedded))
            return f"an IPv6 form of {inner}" if inner else None
    for kind, flag in (("an unspecified address", ip.is_unspecified), ("a loopback address", ip.is_loopback),
                       ("a link-local address", ip.is_link_local), ("a multicast address", ip.is_multicast), ("a reserved address", ip.is_reserved)):
        if flag:
            return kind
    if isinstance(ip, ipaddress.IPv6Address) and ip in ipaddress.ip_network("fc00::/7"):
        return "a unique-local address"
    if ip.is_private:
        return "a private address"
    if not ip.is_global:
        return "a reserved address"
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
            raise BlockedAddressError(f"{host} is not on this server's list of allowed gateway hosts (GATEWAY_ALLOWED_HOSTS).")
        try:
            addresses = [host] if _is_ip(host) else await self.resolver(host, port)
        except OSError:
            raise BlockedAddressError(f"The name {host} could not be resolved.") from None
        if not addresses:
            raise BlockedAddressError(f"The name {host} has no address.")
        for address in addresses:
            reason = refusal(address)
            if reason:
                shown = host if host == address else f"{host} ({address})"
                raise BlockedAddressError(f"{shown} is {reason}: the server does not connect there for visitors.")
        return addresses[0]

RESOLVE_TIMEOUT_S = 3.0


async def host_problem(url: str, guard: EgressGuard | None, resolver: Resolver = system_resolver,
                       timeout: float = RESOLVE_TIMEOUT_S) -> str | None:
    """Why the server would not reach `url`'s host (None when it resolves and, in hosted mode,
    the guard allows it). Only the name is resolved, on the event loop's resolver; nothing is sent."""
    parts = urlsplit(url)
    host = (parts.hostname or "").strip("[]")
    if parts.scheme not in ("http", "https") or not host:
        return "the address is not an http(s) address"
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        async with asyncio.timeout(timeout):
            if guard is not None:
                await guard.address_for(host, port)
            elif not _is_ip(host) and not await resolver(host, port):
                return f"{host} has no address"
    except BlockedAddressError as error:
        return error.message
    except TimeoutError:  # before OSError, of which it is a subclass
        return f"the name {host} did not resolve within {timeout:g} s"
    except (OSError, UnicodeError):
        return f"the name {host} does not resolve from this server"
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
        raise BlockedAddressError("Local sockets are not reachable from this server.")

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)
