"""The only module that touches httpx.

Owns: the process-wide connection pool, per-request credentials, timeouts, retries with
backoff and Retry-After, mapping of error statuses to `errors`, and the `Exchange` record
of every call (with the key redacted).
"""

from __future__ import annotations

from playground.client.texts import Text

import asyncio
import json
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from typing import Any

import httpcore
import httpx
import orjson

from playground.client.egress import EgressGuard, GuardedBackend
from playground.client.exchange import NO_SECRETS, Exchange, Redactor, redact_headers, redact_url
from playground.client.errors import (
    APIConnectionError,
    APITimeoutError,
    GatewayError,
    RateLimitError,
    RequestValidationError,
    UnexpectedResponseError,
    error_from_status,
)
from playground.client.keepalive import ReuseCheckedBackend, StaleConnectionError
from playground.client.limits import SessionQuota, UpstreamCap
from playground.client.redirects import next_hop
from playground.client.pool import PlacingPool

HIDDEN_BODY = Text("transport.not_shown_public_app_does")
RETRYABLE_STATUSES = frozenset({408, 409, 429, 500, 502, 503, 504})
MAX_RETRY_AFTER_S = 60.0
MAX_REDIRECTS = 5
DEMO_PACE_HEADER = "x-demo-pace"
"""How the demo gateway is asked for a pace (its `pacing` module reads it)."""
MAX_DEMO_PACE_S = 1.0
AUTH_STYLES = ("bearer", "header", "query")
"""Where the key travels: `Authorization: Bearer`, the `x-svc-api-key` header, or a `key=` query
parameter (the last two only for the native endpoints, see the spec's Authentication)."""


@dataclass(frozen=True)
class Connection:
    """Where and as whom to call: belongs to one user session, never to the process."""

    base_url: str
    api_key: str | None = field(default=None, repr=False)
    auth_style: str = "bearer"
    quota: SessionQuota | None = field(default=None, repr=False, compare=False)
    """The visitor's allowance (`limits`), when the server sets one."""
    secrets: tuple[str, ...] = field(default=(), repr=False, compare=False)
    """Other secrets the server knows (its own key): redacted from answers like `api_key`."""
    demo_pace: float | None = None
    """Seconds between streamed pieces asked of the offline demo gateway (the `DEMO_PACE_HEADER`
    header), None to ask nothing. The UI sets it only for the built-in demo gateway: a real
    gateway is never sent it."""

    def with_auth(self, style: str) -> Connection:
        """The same gateway and key, sent the way `style` (one of `AUTH_STYLES`) says."""
        if style not in AUTH_STYLES:
            raise ValueError(f"unknown auth style {style!r}")
        return replace(self, auth_style=style)

    def url(self, path: str) -> str:
        return self.base_url.rstrip("/") + "/" + path.lstrip("/")

    @property
    def redactor(self) -> Redactor:
        """Removes this connection's key and the server's secrets from what comes back."""
        return Redactor((self.api_key, *self.secrets))

    def redact(self, text: str) -> str:
        """Remove the key from any text (error messages, bodies echoed by a gateway)."""
        return self.redactor.text(text)


def url_problem(url: str) -> str | None:
    """Why httpx could not use `url` (an IPv4 address with leading zeros, a host name IDNA
    refuses, ...), or None: checked when the URL is typed, not when the call fails."""
    try:
        httpx.URL(url).host  # noqa: B018 - decoding the host is the check
    except Exception as exc:
        return str(exc)[:120] or type(exc).__name__
    return None


def backoff_delay(attempt: int, headers: httpx.Headers | None = None) -> float:
    """Seconds to wait before retry number `attempt` (0-based): Retry-After wins, capped at 60 s."""
    asked = retry_after_seconds(headers) if headers is not None else None
    if asked is not None and asked <= MAX_RETRY_AFTER_S:
        return asked
    base = min(0.5 * 2**attempt, 8.0)
    return base * (0.75 + random.random() * 0.5)


def _decode_body(raw: bytes) -> Any:
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        return raw.decode("utf-8", "replace")


def retry_after_seconds(headers: httpx.Headers) -> float | None:
    """What `retry-after-ms` / `retry-after` (seconds) ask for, if anything."""
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        raw = headers.get(name)
        if raw is None:
            continue
        try:
            return max(float(raw) * scale, 0.0)
        except ValueError:
            continue
    return None


def _json_answer(response: httpx.Response, raw: bytes) -> Any:
    """A success body that must be JSON: an HTML page, an event stream or broken JSON is refused."""
    content_type = response.headers.get("content-type", "").lower()
    text = raw.decode("utf-8", "replace")
    if "text/event-stream" in content_type:
        raise UnexpectedResponseError(Text("transport.gateway_answered_event_stream_where"))
    if "html" in content_type or text.lstrip()[:15].lower().startswith(("<!doctype", "<html")):
        raise UnexpectedResponseError(Text("transport.gateway_answered_html_page_instead"))
    if not raw.strip():
        raise UnexpectedResponseError(Text("transport.gateway_answered_empty_body"))
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        pass  # read again by `json` for its wording, and for what orjson refuses (integers over 64 bits)
    try:
        return json.loads(raw)
    except RecursionError:
        raise UnexpectedResponseError(Text("transport.gateway_json_answer_nested_too")) from None
    except ValueError as exc:
        raise UnexpectedResponseError(Text("transport.gateway_answer_not_valid_json", reason=exc.args[0][:80])) from None


def _without_secrets(redactor: Redactor, raw: bytes, data: Any) -> Any:
    """A decoded answer with the known secrets replaced: walked only when the raw bytes hold a
    secret or a JSON escape that could spell one (a large answer of numbers is left as it is)."""
    if not redactor or (b"\\" not in raw and redactor.raw(raw) is raw):
        return data
    return redactor.value(data)


def read_error(exc: httpx.HTTPError, what: str, silent_s: float | None = None) -> APIConnectionError:
    """A body that stopped arriving: a timeout is silence (said with its seconds), not a cut connection."""
    if isinstance(exc, httpx.TimeoutException):
        seconds = f"{silent_s:g} s" if silent_s is not None else Text("transport.longer_than_read_timeout_gateway")
        return APITimeoutError(Text("transport.gateway_started_then_went_silent", what=what, seconds=seconds))
    return APIConnectionError(Text("transport.connection_cut_while_reading", what=what, error=type(exc).__name__))


def _with(error: GatewayError, exchange: Exchange) -> GatewayError:
    """Attach the call's record to an error, so the inspector can show the failed call."""
    error.exchange = exchange
    return error


class GuardedHTTPTransport(httpx.AsyncHTTPTransport):
    """httpx's transport whose connection pool connects through the hosted-mode guard (when
    there is one), never starts a request on a kept-alive connection the gateway closed
    (`keepalive`) and gives each connection to one request at a time (`pool`)."""

    def __init__(self, guard: EgressGuard | None, limits: httpx.Limits | None = None) -> None:
        limits = limits or httpx.Limits()
        super().__init__(limits=limits)
        backend: httpcore.AsyncNetworkBackend = httpcore.AnyIOBackend()
        self._pool = PlacingPool(
            ssl_context=httpx.create_ssl_context(), max_connections=limits.max_connections,
            max_keepalive_connections=limits.max_keepalive_connections, keepalive_expiry=limits.keepalive_expiry,
            network_backend=ReuseCheckedBackend(GuardedBackend(backend, guard) if guard is not None else backend),
        )


class Transport:
    """One pooled `httpx.AsyncClient` for the process; credentials come with each call.

    With a `guard` (hosted mode) every new connection is checked by `egress`; `upstream_limit`
    caps calls at once for the process, `max_body_bytes` the size of one request body."""

    def __init__(
        self,
        connect_timeout: float = 5.0,
        read_timeout: float = 60.0,
        max_retries: int = 2,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        http: httpx.AsyncClient | None = None,
        guard: EgressGuard | None = None,
        upstream_limit: int = 0,
        max_body_bytes: int = 0,
    ) -> None:
        self.max_retries = max_retries
        self.read_timeout = read_timeout
        self.guard = guard
        self.max_body_bytes = max_body_bytes
        self._sleep = sleep
        self._http = http
        self._upstream = UpstreamCap(upstream_limit)
        self._timeout = httpx.Timeout(connect=connect_timeout, read=read_timeout, write=read_timeout, pool=read_timeout)

    @property
    def http(self) -> httpx.AsyncClient:
        if self._http is None:
            limits = httpx.Limits(max_connections=200, max_keepalive_connections=40)
            transport = GuardedHTTPTransport(self.guard, limits)
            self._http = httpx.AsyncClient(timeout=self._timeout, limits=limits, follow_redirects=False, transport=transport)
        return self._http

    @asynccontextmanager
    async def _slot(self, conn: Connection, method: str) -> AsyncIterator[None]:
        """The process-wide and the session's allowance for one call, held while it runs."""
        async with self._upstream.slot():
            if conn.quota is None:
                yield
                return
            async with conn.quota.call(method):
                yield

    def _visitor_chosen(self, request: httpx.Request) -> bool:
        return self.guard is not None and not self.guard.trusted(request.url.host, request.url.port or (443 if request.url.scheme == "https" else 80))

    async def aclose(self) -> None:
        if self._http is not None:
            await self._http.aclose()
            self._http = None

    def _build(self, conn: Connection, method: str, path: str, body: Any, params: dict[str, str] | None) -> httpx.Request:
        headers = {"Accept": "application/json, text/event-stream"}
        if conn.demo_pace is not None:
            headers[DEMO_PACE_HEADER] = f"{min(max(conn.demo_pace, 0.0), MAX_DEMO_PACE_S):g}"
        if conn.api_key and conn.auth_style == "header":
            headers["x-svc-api-key"] = conn.api_key
        elif conn.api_key and conn.auth_style == "query":
            params = {**(params or {}), "key": conn.api_key}
        elif conn.api_key:
            headers["Authorization"] = f"Bearer {conn.api_key}"
        if (conn.api_key and not conn.api_key.isascii()) or any(ord(c) < 32 or ord(c) == 127 for c in conn.api_key or ""):
            raise RequestValidationError([Text("transport.api_key_contains_characters_cannot")])
        try:
            request = self.http.build_request(method, conn.url(path), json=body, params=params, headers=headers)
        except UnicodeEncodeError:
            raise RequestValidationError([Text("transport.text_contains_characters_cannot_sent")]) from None
        except RecursionError:
            raise RequestValidationError([Text("transport.request_nested_too_deeply_send")]) from None
        size = len(request.content) if body is not None else 0
        if self.max_body_bytes and size > self.max_body_bytes:
            raise RequestValidationError([Text("transport.request_mb_server_sends_most", size=size / 1000000.0, limit=self.max_body_bytes / 1000000.0)])
        return request

    async def _send(self, conn: Connection, request: httpx.Request, exchange: Exchange, retry_after_accept: bool,
                    max_retries: int | None = None) -> httpx.Response:
        """Send with retries before the first byte; return a response whose body is unread.

        A request that may have reached the gateway (the connection was made and the body
        written) is never sent again after a timeout or a broken connection, unless it is a GET:
        a generation is paid for, and the first one may still be running."""
        retries = self.max_retries if max_retries is None else max_retries
        attempt = 0
        stale_resent = False
        while True:
            exchange.attempts = attempt + 1 + stale_resent
            try:
                response = await self.http.send(request, stream=True)
            except GatewayError as error:  # the hosted-mode guard refused the address: nothing was sent
                exchange.attempt_outcomes.append(Text("transport.refused_hosted_mode_guard"))
                exchange.finish(str(error))
                raise _with(error, exchange) from None
            except httpx.TimeoutException as exc:
                not_sent = isinstance(exc, (httpx.ConnectTimeout, httpx.PoolTimeout))
                exchange.attempt_outcomes.append(Text("transport.connect_timeout") if not_sent else Text("transport.no_answer_timeout"))
                if (not_sent or request.method == "GET") and attempt < retries:
                    await self._sleep(backoff_delay(attempt))
                    attempt += 1
                    continue
                exchange.finish("timeout")
                where = redact_url(str(request.url))
                if not_sent:
                    raise _with(APITimeoutError(Text("transport.could_not_connect_time", where=where)), exchange) from None
                raise _with(APITimeoutError(
                    Text("transport.no_answer_from_within_after", where=where, seconds=self.read_timeout)), exchange) from None
            except httpx.TransportError as exc:
                if isinstance(exc.__cause__, StaleConnectionError) and not stale_resent:
                    # the pooled connection was closed by the gateway and nothing was written: safe to send once more, now
                    exchange.attempt_outcomes.append(Text("transport.kept_alive_connection_closed_gateway"))
                    stale_resent = True
                    continue
                not_sent = isinstance(exc, httpx.ConnectError)
                exchange.attempt_outcomes.append(Text("transport.could_not_connect") if not_sent else Text("transport.connection_broken"))
                if (not_sent or request.method == "GET") and attempt < retries:
                    await self._sleep(backoff_delay(attempt))
                    attempt += 1
                    continue
                exchange.finish(Text("transport.connection_error"))
                detail = conn.redact(str(exc)).rstrip(".") or type(exc).__name__
                raise _with(APIConnectionError(Text("transport.could_not_reach_gateway", base_url=conn.base_url, detail=detail)), exchange) from None
            exchange.first_byte_at = exchange.elapsed()
            exchange.status = response.status_code
            exchange.attempt_outcomes.append(str(response.status_code))
            exchange.response_headers = exchange.redactor.value(dict(response.headers))
            if response.status_code < 400:
                return response
            raw = await response.aread()
            await response.aclose()
            body = exchange.redactor.value(_decode_body(exchange.redactor.raw(raw)))
            if self._visitor_chosen(request) and not isinstance(body, dict):
                body = HIDDEN_BODY
            exchange.response_body = body
            retryable = response.status_code in RETRYABLE_STATUSES and (retry_after_accept or response.status_code == 429)
            asked = retry_after_seconds(response.headers)
            too_long = asked is not None and asked > MAX_RETRY_AFTER_S
            if retryable and attempt < retries and not too_long:
                await self._sleep(backoff_delay(attempt, response.headers))
                attempt += 1
                continue
            refused = error_from_status(response.status_code, body)
            if isinstance(refused, RateLimitError):
                refused.retry_after = asked
            exchange.finish(str(refused))
            raise _with(refused, exchange)

    async def _send_following(self, conn: Connection, request: httpx.Request, exchange: Exchange, retry_after_accept: bool,
                              max_retries: int | None = None) -> httpx.Response:
        """`_send`, following the gateway's redirects that `redirects.next_hop` allows (same host,
        credentials kept); any other redirect is a `GatewayMovedError` naming the target."""
        hops = 0
        while True:
            response = await self._send(conn, request, exchange, retry_after_accept, max_retries)
            if not 300 <= response.status_code < 400:
                return response
            await response.aclose()
            try:
                target = next_hop(request.method, str(request.url), response.status_code, response.headers.get("location"), conn.base_url, hops)
            except GatewayError as error:
                error.message = conn.redact(error.message)
                error.args = (error.message,)
                exchange.finish(str(error))
                raise _with(error, exchange) from None
            request = self._hop(conn, request, target)
            hops += 1
            shown = conn.redact(redact_url(str(request.url)))
            exchange.notes.append(Text("transport.answered_http_followed_same_host", url=exchange.url, status_code=response.status_code, shown=shown))
            exchange.url = shown

    def _hop(self, conn: Connection, request: httpx.Request, target: str) -> httpx.Request:
        """The same call (method, headers, body) sent to `target` on the same host; a key that
        travels as `key=` is carried over when the target dropped the query."""
        url = httpx.URL(target)
        if conn.api_key and conn.auth_style == "query" and "key" not in url.params:
            url = url.copy_merge_params({"key": conn.api_key})
        headers = {name: value for name, value in request.headers.items() if name.lower() not in ("host", "content-length")}
        return self.http.build_request(request.method, url, content=request.content or None, headers=headers)

    def _exchange(self, request: httpx.Request, body: Any, conn: Connection | None = None) -> Exchange:
        return Exchange(
            method=request.method,
            url=redact_url(str(request.url)),
            request_headers=redact_headers(request.headers),
            request_body=body,
            redactor=conn.redactor if conn is not None else NO_SECRETS,
        )

    async def request_json(
        self,
        conn: Connection,
        method: str,
        path: str,
        body: Any = None,
        *,
        params: dict[str, str] | None = None,
        retry_after_accept: bool = True,
        max_retries: int | None = None,
        record: Callable[[Any], Any] | None = None,
    ) -> tuple[Any, Exchange]:
        """A plain JSON call. `retry_after_accept=False` for paid submits: retry only what was never accepted;
        `max_retries=0` when the caller has its own retry policy (video polling); `record` turns a
        large answer into what the exchange keeps for the inspector (embeddings keep a summary)."""
        request = self._build(conn, method, path, body, params)
        exchange = self._exchange(request, body, conn)
        async with self._slot(conn, method):
            response = await self._send_following(conn, request, exchange, retry_after_accept, max_retries)
            try:
                raw = await response.aread()
            except httpx.HTTPError as exc:
                exchange.finish("timeout" if isinstance(exc, httpx.TimeoutException) else Text("transport.connection_cut"))
                raise _with(read_error(exc, Text("transport.answer"), self.read_timeout), exchange) from None
            finally:
                await response.aclose()
        exchange.response_bytes = len(raw)
        try:
            data = _json_answer(response, raw)
        except GatewayError as error:
            exchange.response_body = exchange.redactor.value(_decode_body(exchange.redactor.raw(raw)))
            exchange.finish(str(error))
            raise _with(error, exchange) from None
        data = _without_secrets(exchange.redactor, raw, data)
        exchange.response_body = record(data) if record is not None else data
        exchange.finish()
        return data, exchange

    @asynccontextmanager
    async def stream(
        self, conn: Connection, path: str, body: Any = None, *, method: str = "POST", params: dict[str, str] | None = None
    ) -> AsyncIterator[tuple[httpx.Response, Exchange]]:
        """Open a streaming call; the response body is read by the caller (see `sse`, `video_files`)."""
        request = self._build(conn, method, path, body, params)
        exchange = self._exchange(request, body, conn)
        async with self._slot(conn, method):
            response = await self._send_following(conn, request, exchange, retry_after_accept=True)
            try:
                yield response, exchange
            finally:
                exchange.finish()
                await response.aclose()

    @asynccontextmanager
    async def fetch(self, url: str, accept: str = "video/mp4, */*", what: str = "video") -> AsyncIterator[tuple[httpx.Response, Exchange]]:
        """GET a URL the gateway handed out (a video or image file): no credentials, redirects followed."""
        if not url.startswith(("http://", "https://")):
            raise APIConnectionError(Text("transport.gateway_gave_address_not_http", kind=what, url=repr(url[:80])))
        request = self.http.build_request("GET", url, headers={"Accept": accept})
        exchange = self._exchange(request, None)
        anonymous = Connection(url)
        async with self._upstream.slot():
            response = await self._send(anonymous, request, exchange, retry_after_accept=True)
            hops = 0
            while response.next_request is not None and hops < MAX_REDIRECTS:
                await response.aclose()
                request = response.next_request
                response = await self._send(anonymous, request, exchange, retry_after_accept=True)
                hops += 1
            try:
                yield response, exchange
            finally:
                exchange.finish()
                await response.aclose()
