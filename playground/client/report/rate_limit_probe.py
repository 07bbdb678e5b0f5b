"""The rate-limit probe: a request the gateway answers with 429 must say how long to wait
(`Retry-After`, or `retry-after-ms`), carry the format's error body (spec: Errors; the messages
table's `rate_limit_error` 429), and the same request sent again after that wait must succeed.

A report cannot flood a gateway to provoke a limit, so it asks for one the way the demo gateway
documents (`[[fault:rate_limit]]` in the prompt: the first attempt of that exact body is
refused with 429). A gateway that answers at once is "not run", saying so; no request is
sent more than twice.
"""

from __future__ import annotations

import asyncio

import httpx

from playground.client.errors import APIStatusError
from playground.client.report import error_shapes as shapes
from playground.client.report.error_probes import body, judge, route
from playground.client.report.probe import Fail, Probe, Skip, conn_call, excerpt
from playground.client.texts import Text
from playground.client.transport import retry_after_seconds

MARKER = "[[fault:rate_limit]]"
LONGEST_WAIT_S = 10.0
"""A report waits at most this long for its retry; a longer Retry-After passes without a retry."""


def _asked_wait(headers: dict[str, str] | None) -> tuple[str, float] | None:
    """The header that says how long to wait and its seconds, as the client reads them (None: none usable)."""
    known = httpx.Headers(headers or {})
    for name in ("retry-after-ms", "retry-after"):
        seconds = retry_after_seconds(httpx.Headers({name: known[name]})) if name in known else None
        if seconds is not None:
            return name, seconds
    return None


async def rate_limit(probe: Probe) -> str:
    path = route(probe.format, probe.model)
    request = body(probe.format, probe.model, text=f"Say hello ({probe.nonce}). {MARKER}")
    try:
        _, accepted = await conn_call(probe.client, probe.conn, "POST", path, request)
    except APIStatusError as error:
        probe.keep(error.exchange)
        if error.status != 429:
            raise
        refused = error
    else:
        probe.keep(accepted)
        raise Skip(Text("report.rate_limit.not_provoked", status=accepted.status))
    verdict = judge(probe.format, refused, shapes.RATE_LIMIT, Text("report.rate_limit.a_limited_request"))
    headers = refused.exchange.response_headers if refused.exchange is not None else None
    asked = _asked_wait(headers)
    if asked is None:
        raise Fail(Text("report.rate_limit.no_retry_after", section=shapes.section(probe.format)), Text("report.rate_limit.expected_retry_after"), excerpt(headers or {}), tag="no-retry-after")
    header, seconds = asked
    if seconds > LONGEST_WAIT_S:
        return Text("report.rate_limit.passed_wait_too_long", header=header, seconds=seconds, longest=LONGEST_WAIT_S)
    await asyncio.sleep(seconds)
    try:
        _, retried = await conn_call(probe.client, probe.conn, "POST", path, request)
    except APIStatusError as error:
        probe.keep(error.exchange)
        answer = error.exchange.response_body if error.exchange is not None else error.body
        raise Fail(Text("report.rate_limit.retry_refused", status=error.status, seconds=seconds), Text("report.rate_limit.expected_retry_success"),
                   f"HTTP {error.status}: {excerpt(answer)}") from None
    probe.keep(retried)
    return Text("report.rate_limit.passed", verdict=verdict, header=header, seconds=seconds, status=retried.status)


PROBES = {"rate_limit": rate_limit}
