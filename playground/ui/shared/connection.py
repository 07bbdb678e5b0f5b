"""Which gateway a session talks to: the connection panel's values -> a client `Connection`.

A key configured on the server (a Space secret, or the demo gateway's key) is only ever sent
to the configured base URL and never reaches the browser.
"""

from __future__ import annotations

import ipaddress
import re
import time
import unicodedata
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from playground.client import catalog
from playground.client.errors import APIStatusError, RequestValidationError
from playground.client.gateway import GatewayClient
from playground.client.limits import SessionQuota
from playground.client.transport import Connection, url_problem
from playground.gradio_compat import current_request
from playground.ui.i18n import say, visitor_locale
from playground.ui.shared.presentation import visitor_pace
from playground.ui.shared.render import code, plain
from playground.ui.web.visitor_identity import visitor_of


MAX_URL_CHARS = 2048
MAX_KEY_CHARS = 1024


@dataclass
class SessionQuotas:
    """One `SessionQuota` per visitor (`visitors.visitor_of`: the address behind the request,
    else Gradio's session hash), dropped when idle: a new session does not bring a new allowance."""

    requests_per_minute: int = 0
    concurrent_calls: int = 0
    idle_after_s: float = 3600.0
    _quotas: dict[str, tuple[SessionQuota, float]] = field(default_factory=dict, repr=False)

    def for_current_session(self) -> SessionQuota | None:
        if not (self.requests_per_minute or self.concurrent_calls):
            return None
        session = visitor_of(current_request())
        if not session:
            return None
        now = time.monotonic()
        for stale in [key for key, (_, seen) in self._quotas.items() if now - seen > self.idle_after_s]:
            del self._quotas[stale]
        quota = self._quotas.get(session, (SessionQuota(self.requests_per_minute, self.concurrent_calls), now))[0]
        self._quotas[session] = (quota, now)
        return quota


@dataclass(frozen=True)
class ServerDefaults:
    base_url: str
    server_key: str | None = field(default=None, repr=False)
    demo: bool = False
    hosted: bool = False
    quotas: SessionQuotas = field(default_factory=SessionQuotas, repr=False, compare=False)
    video_jobs_per_session: int = 20
    uploads_per_minute: int = 0
    mcp_url: str = ""
    """The MCP server the text tabs offer tools from by default (the demo MCP server when none is set)."""
    mcp_token: str | None = field(default=None, repr=False)
    mcp_demo: bool = False

    def is_default(self, url: str) -> bool:
        """Whether `url` (without a trailing version) is the server's own gateway."""
        return without_version(url)[0] == without_version(self.base_url)[0]

    def gateway_name(self, url: str) -> str:
        """How the screen names the gateway at `url`: its address, or in words the built-in
        demo gateway in hosted mode, whose address is the server's own and means nothing to a visitor."""
        if self.hosted and self.demo and self.is_default(url):
            return say("connection.the_demo_gateway")
        return code(url[:200])

    def visitor_limits(self) -> str:
        """The limits each visitor has, in words ("" when there are none)."""
        limits = [say(key, count=count) for key, count in (
            ("connection.limit_requests", self.quotas.requests_per_minute), ("connection.limit_at_once", self.quotas.concurrent_calls),
            ("connection.limit_video_jobs", self.video_jobs_per_session if self.hosted else 0),
            ("connection.limit_uploads", self.uploads_per_minute)) if count]
        return say("connection.visitor_limits", limits=visitor_locale().list_separator.join(limits)) if limits else ""


def checked_base_url(text: str) -> str:
    """A base URL a person typed, checked: http(s), a host, a valid port, no credentials, no
    query or fragment, no control characters. Raises `RequestValidationError` saying what to fix."""
    if len(text) > MAX_URL_CHARS:
        raise RequestValidationError([f"the base URL is {len(text):,} characters long; at most {MAX_URL_CHARS:,} are accepted"])
    if any(ord(c) < 33 or ord(c) == 127 for c in text):
        raise RequestValidationError(["the base URL contains spaces, line breaks or control characters"])
    if not text.startswith(("http://", "https://")):
        raise RequestValidationError([f"the base URL must start with http:// or https:// (got {plain(text[:60])})"])
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as exc:
        raise RequestValidationError([f"the base URL is not a valid address ({exc}); check the host and port"]) from None
    if not parts.hostname:
        raise RequestValidationError(["the base URL has no host name"])
    if port is not None and not 0 < port < 65536:
        raise RequestValidationError(["the base URL's port must be between 1 and 65535"])
    if parts.username is not None or parts.password is not None:
        raise RequestValidationError(["the base URL must not contain a user name or password: type the key in the API key box"])
    if parts.query or parts.fragment or text.endswith(("?", "#")):
        raise RequestValidationError(["a base URL is a base: remove the ? or # part (paths such as /v1/... are added by the playground)"])
    _check_host(parts.hostname)
    problem = url_problem(text)
    if problem is not None:
        raise RequestValidationError([f"the base URL cannot be used: {plain(problem)}"])
    return text


VERSION_SEGMENTS = ("v1", "v1beta")
"""Path segments the playground adds itself: a base URL ending in one would call `/v1/v1/...`."""


def without_version(url: str) -> tuple[str, str]:
    """(the base URL without a trailing `/v1` or `/v1beta`, the segment dropped or "")."""
    trimmed = url.rstrip("/")
    path = urlsplit(trimmed).path
    _head, _, last = path.rpartition("/")
    if path and last.lower() in VERSION_SEGMENTS:
        return trimmed[: len(trimmed) - len(last) - 1], "/" + last
    return trimmed, ""


def version_note(url_text: str | None) -> str:
    """What the playground does with a typed base URL ending in `/v1` or `/v1beta` ("" otherwise)."""
    typed = (url_text or "").strip()
    base, dropped = without_version(typed)
    if not dropped:
        return ""
    return say("connection.version_note", dropped=dropped, base=plain(base[:200]))
_NUMERIC_HOST = re.compile(r"^(0x[0-9a-f]*|[0-9]+)(\.(0x[0-9a-f]*|[0-9]+))*\.?$", re.IGNORECASE)


def _check_host(host: str) -> None:
    """Host spellings that read as an address other than what they look like are refused with why."""
    if not host.isascii():
        folded = unicodedata.normalize("NFKC", host)
        if folded.isascii() and _NUMERIC_HOST.match(folded):
            raise RequestValidationError([f"the host {plain(host)} is written with special digits (it reads as {plain(folded)}); "
                                          "type an IP address in plain digits 0-9"])
        return
    if _NUMERIC_HOST.match(host):
        try:
            ipaddress.IPv4Address(host)
        except ValueError:
            raise RequestValidationError([f"the host {plain(host)} is an IPv4 address in an ambiguous form (leading zeros, hex, or fewer "
                                          "than four parts, which some programs read as octal or pad); write four decimal numbers, e.g. 127.0.0.1"]) from None


def resolve_connection(defaults: ServerDefaults, url_text: str | None, key_text: str | None) -> Connection:
    url, _ = without_version(checked_base_url((url_text or "").strip().rstrip("/") or defaults.base_url))
    key = (key_text or "").strip()
    if len(key) > MAX_KEY_CHARS or any(ord(c) < 32 or ord(c) == 127 for c in key) or not key.isascii():
        raise RequestValidationError(["the API key contains characters a key cannot have (line breaks, control or non-ASCII characters); check what was pasted"])
    sent = key or (defaults.server_key if url == without_version(defaults.base_url)[0] else None)
    secrets = (defaults.server_key,) if defaults.server_key else ()
    pace = visitor_pace() if defaults.demo and defaults.is_default(url) else None
    return Connection(url, sent or None, quota=defaults.quotas.for_current_session(), secrets=secrets, demo_pace=pace)


def badge_text(defaults: ServerDefaults, url_text: str | None) -> str:
    """The header's badge: the mode (in hosted mode with each visitor's limits) and the gateway in use."""
    url = without_version((url_text or "").strip() or defaults.base_url)[0]
    mode = say("connection.hosted_mode") + defaults.visitor_limits() if defaults.hosted else say("connection.local_mode")
    note = version_note(url_text)
    note = f"\n\n{note}" if note else ""
    if defaults.demo and defaults.is_default(url):
        return mode + say("connection.demo_gateway_hosted" if defaults.hosted else "connection.demo_gateway") + note
    return mode + say("connection.gateway", url=plain(url[:200])) + note


NO_MODEL_LIST_STATUSES = frozenset({404, 405, 501})


async def test_connection(client: GatewayClient, defaults: ServerDefaults, url_text: str | None, key_text: str | None) -> tuple[str, list[str]]:
    """Try `GET /v1/models`: (status line, the ids the model picker shows). The spec defines no
    model list, so a gateway without one is normal: the built-in catalog is used. Raises
    `GatewayError` on anything else (wrong key, unreachable gateway)."""
    conn = resolve_connection(defaults, url_text, key_text)
    catalog_ids = catalog.chat_model_ids()
    where = defaults.gateway_name(conn.base_url)
    note = version_note(url_text)
    note = f"\n\n{note}" if note else ""
    try:
        ids, exchange = await client.list_models(conn)
    except APIStatusError as error:
        if error.status not in NO_MODEL_LIST_STATUSES:
            raise
        return say("connection.no_model_list", where=where, count=len(catalog_ids)) + note, catalog_ids
    shown = catalog.merge_model_ids(ids, catalog_ids)
    millis = (exchange.finished_at or exchange.elapsed()) * 1000
    extra = len(shown) - len(ids)
    more = say("connection.more_from_catalog", count=extra) if extra else ""
    return say("connection.connected", where=where, ms=f"{millis:.0f}", listed=len(ids), shown=len(shown), more=more) + note, shown
